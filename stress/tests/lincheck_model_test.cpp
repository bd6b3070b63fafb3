// Generated scenarios, each model-checked exhaustively under RC11 (lincheck --mode model):
// the correct variants pass; the known-bad ones are caught with a shrunk scenario, and the
// reproduce string replays the same failure (model mode is deterministic).
#include <gtest/gtest.h>

#include <string>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/stress/lin_model.hpp"

#ifndef STEALCHECK_TEST_SCALE
#define STEALCHECK_TEST_SCALE 100
#endif

namespace stealcheck::stress::lincheck {
namespace {

run_options small(int scenarios) {
  run_options o;
  o.scenarios = scenarios;
  o.seed = 11;
  o.small = true;
  return o;
}

template <class Tag>
void expect_pass(bool batch) {
  run_options o = small(STEALCHECK_TEST_SCALE < 100 ? 10 : 40);
  o.batch = batch;
  std::uint64_t executions = 0;
  const outcome out = check_generated(
      "correct", o, model_finder<Tag>(spec::spec_kind::lifo_owner, model::options{}, &executions));
  EXPECT_EQ(out.kind, verdict::linearizable)
      << out.failure << "\n"
      << out.timeline << "\nRC_PARAMS=\"" << out.reproduce << "\"";
  EXPECT_EQ(out.scenarios, o.scenarios);
  EXPECT_GT(executions, static_cast<std::uint64_t>(o.scenarios));  // really explored
}

TEST(LincheckModel, ChaseLevPasses) {
  expect_pass<chase_lev_tag>(false);
}
TEST(LincheckModel, LockedPasses) {
  expect_pass<locked_tag>(false);
}
TEST(LincheckModel, StealHalfPasses) {
  expect_pass<steal_half_tag>(true);
}
TEST(LincheckModel, SplitPasses) {
  expect_pass<split_tag>(false);
}

template <class Tag>
outcome expect_caught(const char* what) {
  const run_options o = small(200);
  outcome out =
      check_generated("bad", o, model_finder<Tag>(spec::spec_kind::lifo_owner, model::options{}));
  EXPECT_EQ(out.kind, verdict::model_bug) << what << " not caught: " << out.failure;
  EXPECT_NE(out.reproduce.find("reproduce="), std::string::npos);
  EXPECT_NE(out.timeline.find("replay token"), std::string::npos) << out.timeline;
  run_options again = o;
  again.reproduce = out.reproduce;
  const outcome replayed = check_generated(
      "bad", again, model_finder<Tag>(spec::spec_kind::lifo_owner, model::options{}));
  EXPECT_EQ(replayed.kind, verdict::model_bug);
  EXPECT_EQ(replayed.scenario_text, out.scenario_text);  // deterministic shrinking and replay
  std::printf("%s: %s\n", what, out.failure.c_str());
  return out;
}

// bwos is held to the unordered spec (proofs/bwos.md): a thief whose relaxed reads see the
// owner's new `last` and an older `steal_tail` (the reset that closed a block as the owner's,
// not its grant) walks past a granted block and takes a newer value. The scenario `fuzz` found
// when the variant was first checked against lifo_owner: every execution passes unordered, and
// one breaks lifo_owner (8 blocks of 2 slots: steal -> 5 while 3 and 4 are granted).
TEST(LincheckModel, BwosThievesTakeOutOfOrder) {
  std::string error;
  const auto s = parse_scenario(
      "prefix [ push push push push ] owner [ push push push ] thief1 [ steal steal steal steal ]",
      error);
  ASSERT_TRUE(s.has_value()) << error;
  auto run = [&](spec::spec_kind kind) {
    return model::explore(model::options{}, [&](model::client& c) {
      scenario_client<bwos_tag::deque>(c, *s, kind, 16);
    });
  };
  const model::result unordered = run(spec::spec_kind::unordered);
  EXPECT_TRUE(unordered.ok()) << unordered.bug->message;
  const model::result lifo = run(spec::spec_kind::lifo_owner);
  ASSERT_FALSE(lifo.ok());
  EXPECT_NE(lifo.bug->message.find("no linearization"), std::string::npos) << lifo.bug->message;
  EXPECT_NE(lifo.bug->message.find("steal->5"), std::string::npos) << lifo.bug->message;
}

TEST(LincheckModel, CatchesStealFromTheBottom) {
  expect_caught<locked_steal_bottom_tag>("locked_steal_bottom");
}

// A reproduce string whose scenario no longer fails (here: replayed on the fixed deque) says
// so and passes, instead of ending as an error.
TEST(LincheckModel, AStaleReproduceStringPasses) {
  const outcome bad = expect_caught<locked_steal_bottom_tag>("locked_steal_bottom");
  run_options o = small(200);
  o.reproduce = bad.reproduce;
  const outcome fixed = check_generated(
      "bad", o, model_finder<locked_tag>(spec::spec_kind::lifo_owner, model::options{}));
  EXPECT_EQ(fixed.kind, verdict::reproduce_passes) << fixed.failure;
  EXPECT_TRUE(fixed.ok());
}
TEST(LincheckModel, CatchesMissingPopFence) {
  const outcome out = expect_caught<chase_lev_no_pop_fence_tag>("chase_lev_no_pop_fence");
  EXPECT_NE(out.timeline.find("taken twice"), std::string::npos) << out.timeline;
}
TEST(LincheckModel, CatchesMissingPushFence) {
  expect_caught<chase_lev_no_push_fence_tag>("chase_lev_no_push_fence");
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
