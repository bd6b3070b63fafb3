// Sampling (options::sample), each strategy (random, pct: forward; tree: walks of the
// exploration tree): every known-bad variant's bug, which an exhaustive client catches, is
// drawn by sampling that client with each of several seeds, and replays from its token; the
// correct variants show no bug in as many draws; the same seed draws the same executions, and
// every drawn execution is one the exhaustive exploration has. Forward sampling reaches every
// execution of a small client.
//
// Run time (release, 1 core): about 30 s; the sanitizer presets draw one known-bad's bug.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/report/token.hpp"
#include "stealcheck/detail/models/tests/sweep.hpp"

namespace stealcheck::model {
namespace {

class Sampling : public testing::TestWithParam<options::sampler> {
 protected:
  options sampling(std::uint64_t executions, std::uint64_t seed) const {
    options o;
    o.sample.executions = executions;
    o.sample.seed = seed;
    o.sample.strategy = GetParam();
    return o;
  }
};

INSTANTIATE_TEST_SUITE_P(Strategies, Sampling,
                         testing::Values(options::sampler::random, options::sampler::pct,
                                         options::sampler::tree),
                         [](const auto& p) {
                           switch (p.param) {
                             case options::sampler::random:
                               return std::string("random");
                             case options::sampler::pct:
                               return std::string("pct");
                             case options::sampler::tree:
                               break;
                           }
                           return std::string("tree");
                         });

constexpr std::uint64_t seeds = 5;
constexpr std::uint64_t budget = 20000;  // executions per seed

// For each known-bad variant, the first of its clients that catches it exhaustively: sampling
// draws the bug, reports the kind the exhaustive run reports, and its token replays it (the
// same kind; a tree walk's replay also names the same operation, as both add events in the
// same order, while a forward sample's check may fire first in another thread: the same
// double take, told from its other taker). The bugs that need one deep interleaving (an ABA:
// a tag or an index that wraps) are drawn by fewer seeds than the rest: by the tree walk each
// is drawn by at least one seed; of all (variant, seed) pairs at least 90 % by the tree walk,
// 80 % by the forward strategies (which draw these clients' stalls less often, and
// scenarios' bugs faster: `stealcheck fuzz`).
TEST_P(Sampling, DrawsTheBugOfEveryKnownBadThatAClientCatches) {
  const bool tree = GetParam() == options::sampler::tree;
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
        EXPECT_EQ(again.bug->kind, r.bug->kind) << what << ", seed " << seed;
        if (tree) {
          EXPECT_EQ(again.bug->message, r.bug->message) << what << ", seed " << seed;
        }
      }
      if (tree) {
        EXPECT_GE(found, 1u) << what << ": no seed drew the bug in " << budget << " executions";
      }
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
  EXPECT_GE(drawn * 10, pairs * (tree ? 9 : 8)) << drawn << " of " << pairs;
}

// The correct variants: no bug in as many draws of every client (no false alarm).
TEST_P(Sampling, CorrectVariantsShowNoBug) {
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
TEST_P(Sampling, TheSameSeedDrawsTheSameExecutionsAndEachIsAnExhaustiveOne) {
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
  // of 300 draws among 1,375 executions; forward draws repeat the likeliest executions more
  EXPECT_GT(distinct.size(), GetParam() == options::sampler::tree ? 100u : 10u);
}

// Uniform forward sampling gives every consistent execution a chance (RC11 has no po ∪ rf
// cycle, so each is built by some order of its events): on a client small enough, the draws
// reach every execution the exhaustive exploration has. Uniform scheduling makes a thread
// that starts after another's twenty steps a one-in-a-million draw, which PCT's priorities
// make common: the draws of both are pooled. A sampler that never let a read take an older
// write, or never placed a write before another in mo, misses some.
TEST(ForwardSampling, ReachesEveryExecutionOfASmallClient) {
  const auto fn = clients::push_pop_steal2<chase_lev_tag::deque>;
  std::set<std::string> all, drawn;
  options o;
  o.on_complete = [&](const graph& g, const consistency_checker&) { all.insert(encode_token(g)); };
  ASSERT_TRUE(explore(o, fn).ok());
  for (const auto strategy : {options::sampler::random, options::sampler::pct}) {
    options s;
    s.sample = {20000, 5, strategy};
    s.on_complete = [&](const graph& g, const consistency_checker&) {
      drawn.insert(encode_token(g));
    };
    ASSERT_TRUE(explore(s, fn).ok());
  }
  EXPECT_EQ(drawn, all);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
