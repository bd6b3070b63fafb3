// The rounds of a fuzz campaign: which sampler draws a scenario (greybox's mix, PCT alone for
// large scenarios), and the built-in clients interleaved with generated scenarios.
#include "stealcheck/detail/stress/fuzz_campaign.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/stress/fuzz_report.hpp"

namespace stealcheck::stress::fuzz {
namespace {

using sampler = model::options::sampler;

TEST(FuzzSampler, GreyboxMixesThreeSamplersBySeedAndTakesPctAlonePastTheSize) {
  std::set<sampler> small;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    small.insert(sampler_for("greybox", seed, greybox_pct_above));
    EXPECT_EQ(sampler_for("greybox", seed, greybox_pct_above + 1), sampler::pct) << seed;
  }
  EXPECT_EQ(small, (std::set<sampler>{sampler::pct, sampler::random, sampler::tree}));
  // a named strategy is the same sampler at every size
  for (std::size_t steps : {std::size_t{0}, greybox_pct_above + 1}) {
    EXPECT_EQ(sampler_for("random", 1, steps), sampler::random);
    EXPECT_EQ(sampler_for("tree", 1, steps), sampler::tree);
  }
  EXPECT_THROW(sampler_for("dfs", 1), harness::usage_error);
}

std::vector<model::clients::client_entry> three_clients() {
  return {{"a", [](model::client&) {}}, {"b", [](model::client&) {}}, {"c", [](model::client&) {}}};
}

TEST(FuzzCampaign, TheClientRoundsTakeEachClientInTurn) {
  fuzz_args a;
  a.seed = 7;
  a.strategy = "random";
  campaign rounds(a, false, three_clients());
  std::vector<std::string> names;
  for (std::uint64_t r = 1; r <= 8 * client_every; ++r) {
    const round got = rounds.next();
    if (r % client_every == 0) {
      ASSERT_NE(got.client, nullptr) << "round " << r;
      names.emplace_back(got.client->name);
    } else {
      EXPECT_EQ(got.client, nullptr) << "round " << r;
      EXPECT_FALSE(got.s.thieves.empty()) << "round " << r;
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "a", "b", "c", "a", "b"}));
}

TEST(FuzzCampaign, GeneratedScenariosOnlyWithoutClientsAndTheSameForTheSameSeed) {
  fuzz_args a;
  a.seed = 7;
  a.strategy = "random";
  a.clients = false;
  campaign without(a, false, three_clients()), again(a, false, three_clients());
  for (int r = 0; r < 4 * static_cast<int>(client_every); ++r) {
    const round x = without.next(), y = again.next();
    EXPECT_EQ(x.client, nullptr);
    EXPECT_EQ(x.seed, y.seed);
    EXPECT_EQ(lincheck::describe(x.s), lincheck::describe(y.s));
  }
}

// A bug of a client round counts as repeated only when the round, drawn again from its seed,
// shows it again: a client whose check fails in its first execution only (state kept outside
// the model) is not; one that fails in every execution is.
TEST(FuzzCampaign, AClientRoundsBugIsRepeatedOnlyWhenItComesBack) {
  static int runs = 0;
  const model::clients::client_entry first_only{
      "first_only", [](model::client& c) { c.check(++runs > 1, "fails in the first run only"); }};
  const model::clients::client_entry always{
      "always", [](model::client& c) { c.check(false, "fails in every run"); }};
  fuzz_args a;
  a.seed = 3;
  std::uint64_t count = 0;
  const fuzz_args with = client_round_args(a, first_only);
  EXPECT_FALSE(sample_client(first_only.run, model::memory_model::rc11, {}, with.strategy,
                             with.per_scenario, 5, count)
                   .empty());
  EXPECT_FALSE(client_bug_repeats(first_only, with, model::memory_model::rc11, 5));
  EXPECT_TRUE(
      client_bug_repeats(always, client_round_args(a, always), model::memory_model::rc11, 5));
}

}  // namespace
}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
