// Sampling (options::sample): every known-bad variant's bug, which an exhaustive client
// catches, is drawn by sampling that client with each of several seeds, and replays from its
// token; the correct variants show no bug in as many draws; the same seed draws the same
// executions, and every drawn execution is one the exhaustive exploration has.
//
// Run time (release, 1 core): about 15 s; the sanitizer presets draw one known-bad's bug.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "deques/registry.hpp"
#include "models/front/clients.hpp"
#include "models/report/token.hpp"
#include "models/tests/sweep.hpp"

namespace stealcheck::model {
namespace {

options sampling(std::uint64_t executions, std::uint64_t seed) {
  options o;
  o.sample.executions = executions;
  o.sample.seed = seed;
  return o;
}

constexpr std::uint64_t seeds = 5;
constexpr std::uint64_t budget = 20000;  // executions per seed

// For each known-bad variant, the first of its clients that catches it exhaustively: sampling
// draws the bug, reports the kind the exhaustive run reports, and its token replays it. The
// bugs that need one deep interleaving (an ABA: a tag or an index that wraps) are drawn by
// fewer seeds than the rest: each is drawn by at least one seed, and of all (variant, seed)
// pairs at least 90 %.
TEST(Sampling, DrawsTheBugOfEveryKnownBadThatAClientCatches) {
  std::uint64_t pairs = 0, drawn = 0;
  for_each_swept_variant([&](auto tag, const variant_info& info) {
    if (!info.known_bad) return;
    // under the sanitizers one known-bad: the sampler's own code, not each bug's statistics
    if (!full_scale && info.name != "chase_lev_no_pop_fence") return;
    for (const auto& cl : clients::clients_for<decltype(tag)::template deque>(info)) {
      if (cl.large) continue;
      const result exhaustive = explore(options{}, cl.run);
      if (exhaustive.ok()) continue;
      const std::string what = std::string(info.name) + "/" + std::string(cl.name);
      std::uint64_t found = 0, most = 0;
      for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        const result r = explore(sampling(budget, seed), cl.run);
        EXPECT_TRUE(r.sampled) << what;
        if (r.ok()) continue;
        ++found;
        most = std::max(most, r.executions());
        EXPECT_EQ(r.bug->kind, exhaustive.bug->kind) << what << ": " << r.bug->message;
        options replay;
        replay.replay = r.bug->replay_token;
        const result again = explore(replay, cl.run);
        ASSERT_FALSE(again.ok()) << what << ": the token did not replay the bug";
        EXPECT_EQ(again.bug->message, r.bug->message) << what << ", seed " << seed;
      }
      EXPECT_GE(found, 1u) << what << ": no seed drew the bug in " << budget << " executions";
      pairs += seeds;
      drawn += found;
      std::printf("%s: drawn by %llu/%llu seeds, within %llu executions (exhaustive: %llu)\n",
                  what.c_str(), static_cast<unsigned long long>(found),
                  static_cast<unsigned long long>(seeds), static_cast<unsigned long long>(most),
                  static_cast<unsigned long long>(exhaustive.executions()));
      return;
    }
  });
  EXPECT_GT(pairs, full_scale ? 5 * seeds : 0);
  EXPECT_GE(drawn * 10, pairs * 9) << drawn << " of " << pairs;
}

// The correct variants: no bug in as many draws of every client (no false alarm).
TEST(Sampling, CorrectVariantsShowNoBug) {
  for_each_swept_variant([&](auto tag, const variant_info& info) {
    if (info.known_bad) return;
    for (const auto& cl : clients::clients_for<decltype(tag)::template deque>(info)) {
      if (cl.large) continue;
      const result r = explore(sampling(full_scale ? 2000 : 200, 7), cl.run);
      EXPECT_TRUE(r.ok()) << info.name << "/" << cl.name << ": " << r.bug->message << "\n"
                          << r.bug->trace;
      EXPECT_TRUE(r.sampled);
      EXPECT_EQ(r.executions(), full_scale ? 2000u : 200u) << info.name << "/" << cl.name;
    }
  });
}

// The same seed draws the same executions; another seed others; and every execution drawn is
// one of the exhaustive exploration's (the same graph, by its token).
TEST(Sampling, TheSameSeedDrawsTheSameExecutionsAndEachIsAnExhaustiveOne) {
  const auto fn = clients::push3_pop2_2thieves<chase_lev_tag::deque>;
  auto draw = [&](std::uint64_t seed) {
    std::vector<std::string> tokens;
    options o = sampling(300, seed);
    o.on_complete = [&](const graph& g, const consistency_checker&) {
      tokens.push_back(encode_token(g));
    };
    EXPECT_TRUE(explore(o, fn).ok());
    return tokens;
  };
  const std::vector<std::string> a = draw(11), b = draw(11), c = draw(12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::set<std::string> all;
  options o;
  o.on_complete = [&](const graph& g, const consistency_checker&) { all.insert(encode_token(g)); };
  ASSERT_TRUE(explore(o, fn).ok());
  std::set<std::string> distinct;
  for (const std::string& t : a) {
    EXPECT_TRUE(all.contains(t)) << "a drawn execution the exhaustive run does not have";
    distinct.insert(t);
  }
  EXPECT_GT(distinct.size(), 100u);  // of 300 draws among 1,375 executions
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
