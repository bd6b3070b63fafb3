// Generated scenarios, each model-checked exhaustively under RC11 (lincheck --mode model):
// the correct variants pass; the known-bad ones are caught with a shrunk scenario, and the
// reproduce string replays the same failure (model mode is deterministic).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// steal@N: the text, what makes one valid, and how a scenario is repaired and shrunk.
TEST(ScenarioText, StealFromAThiefRoundTripsAndIsChecked) {
  std::string error;
  const std::string text =
      "prefix [ push push push push ] owner [ pop ] thief1 [ steal_batch steal ] thief2 [ steal@1 "
      "steal ]";
  const auto s = parse_scenario(text, error);
  ASSERT_TRUE(s.has_value()) << error;
  EXPECT_EQ(describe(*s), text);
  EXPECT_EQ(s->thieves[1][0], thief_step::steal_from(1));
  EXPECT_EQ(stolen_from(*s), (std::vector<bool>{true, false}));
  const std::pair<const char*, const char*> bad[] = {
      {"thief1 [ steal@1 ]", "names itself"},
      {"thief1 [ steal_batch ] thief2 [ steal@3 ]", "names no thief of the scenario"},
      {"thief1 [ steal ] thief2 [ steal@1 ]", "does not take exactly one batch"},
      {"thief1 [ steal_batch steal_batch ] thief2 [ steal@1 ]", "does not take exactly one batch"},
  };
  for (const auto& [thieves, why] : bad) {
    error.clear();
    EXPECT_FALSE(parse_scenario(std::string("prefix [ ] owner [ ] ") + thieves, error)) << thieves;
    EXPECT_NE(error.find(why), std::string::npos) << thieves << ": " << error;
  }
  EXPECT_FALSE(parse_scenario("prefix [ ] owner [ ] thief1 [ steal@x ]", error));
  EXPECT_NE(error.find("steal|steal_batch|steal@N"), std::string::npos) << error;
}

TEST(ScenarioText, RepairAndRemoveKeepStealsFromThievesValid) {
  std::string error;
  std::optional<scenario> s = scenario{};
  s->thieves = {{thief_step::steal},
                {thief_step::steal_batch, thief_step::steal_batch},
                {thief_step::steal_from(2), thief_step::steal_from(1)}};
  EXPECT_FALSE(valid_thief_steps(*s, error));
  repair_thief_steps(*s);  // thief2 keeps its first batch; thief1 takes none
  EXPECT_EQ(describe(*s),
            "prefix [ ] owner [ ] thief1 [ steal ] thief2 [ steal_batch steal ] thief3 [ steal@2 "
            "steal ]");
  EXPECT_TRUE(valid_thief_steps(*s, error)) << error;
  scenario shifted = *s;
  remove_thief(shifted, 0);  // thief2 becomes thief1, and so does its name in steal@
  EXPECT_EQ(describe(shifted),
            "prefix [ ] owner [ ] thief1 [ steal_batch steal ] thief2 [ steal@1 steal ]");
  remove_thief(*s, 1);  // the stolen-from thief itself: its steals from it become steals
  EXPECT_EQ(describe(*s), "prefix [ ] owner [ ] thief1 [ steal ] thief2 [ steal steal ]");
}

// The generator draws steals from thieves' deques on batch-stealing variants only, and every
// scenario it hands out is valid (its repair runs on shrunk ones as well).
TEST(ScenarioText, GeneratedStealsFromThievesOnlyWithBatchesAndAlwaysValid) {
  for (const bool batch : {false, true}) {
    run_options o = small(200);
    o.batch = batch;
    std::size_t with = 0, invalid = 0;
    const outcome out = check_generated("generated", o, [&](const scenario& s, std::uint64_t) {
      std::string error;
      if (!valid_thief_steps(s, error)) ++invalid;
      const std::vector<bool> from = stolen_from(s);
      if (std::find(from.begin(), from.end(), true) != from.end()) ++with;
      return std::optional<found_failure>{};
    });
    EXPECT_EQ(out.kind, verdict::linearizable) << out.failure;
    EXPECT_EQ(invalid, 0U) << batch;
    if (batch) {
      EXPECT_GE(with, 10U);  // 15 of these 200 small ones, seed 11
    } else {
      EXPECT_EQ(with, 0U);
    }
  }
}

// A batch steal publishes what it moved to the thieves of the thief's own deque: weakened, only
// a thief that steals from that deque sees it. Each variant passes the scenario with steal@1
// exhaustively; its publication site weakened, it fails that scenario and passes the same one
// with thief2 stealing from the owner's deque instead.
template <class Tag>
void expect_publication_checked(const variant_info& info, const char* site) {
  std::string error;
  const auto with = parse_scenario(
      "prefix [ push push push push ] owner [ ] thief1 [ steal_batch ] thief2 [ steal@1 ]", error);
  const auto without = parse_scenario(
      "prefix [ push push push push ] owner [ ] thief1 [ steal_batch ] thief2 [ steal ]", error);
  ASSERT_TRUE(with && without) << error;
  auto run = [&](const scenario& s, bool weakened) {
    model::options o;
    if (weakened) o.sites.emplace_back(site, std::memory_order_relaxed);
    return model::explore(o, [&](model::client& c) {
      scenario_client<Tag::template deque>(c, s, info.spec, info.capacity);
    });
  };
  const model::result good = run(*with, false);
  EXPECT_TRUE(good.ok()) << site << ": " << good.bug->message;
  EXPECT_GT(good.complete, 1U);
  const model::result bad = run(*with, true);
  ASSERT_FALSE(bad.ok()) << site;
  const model::result unseen = run(*without, true);
  EXPECT_TRUE(unseen.ok()) << site << ": " << unseen.bug->message;
}

TEST(LincheckModel, StealFromAThiefChecksTheBatchsPublication) {
  expect_publication_checked<steal_half_tag>(builtin::steal_half,
                                             "steal_half::steal_into.store_dest_bottom");
  expect_publication_checked<go_tag>(builtin::go, "go::steal_into.store_dest_tail");
  expect_publication_checked<crossbeam_lifo_tag>(builtin::crossbeam_lifo,
                                                 "crossbeam::steal_into.fence");
  expect_publication_checked<tokio_tag>(builtin::tokio, "tokio::steal_into.store_dest_tail");
}

// go's deque whose steal, finding it empty, returns the value its owner popped last: as a
// thief's own deque, a steal@N after that thief popped takes a value twice.
template <class V, class M>
struct go_steals_stale : go_tag::deque<V, M> {
  using base = go_tag::deque<V, M>;
  using base::base;
  std::optional<V> pop() {
    auto v = base::pop();
    if (v) last_popped_ = *v;  // plain: model threads run one at a time
    return v;
  }
  steal_result<V> steal() {
    auto r = base::steal();
    if (!r.has_value() && last_popped_) return steal_result<V>::item(*last_popped_);
    return r;
  }

 private:
  std::optional<V> last_popped_;
};

// The bug report lists a steal from a thief's deque as its thread's operation, in its place,
// marked when the failed check is about its value.
TEST(LincheckModel, AReportListsAStealFromAThiefAsItsThreadsOperation) {
  std::string error;
  const auto s = parse_scenario(
      "prefix [ push push push push ] owner [ ] thief1 [ steal_batch ] thief2 [ steal steal@1 ]",
      error);
  ASSERT_TRUE(s.has_value()) << error;
  const model::result r = model::explore(model::options{}, [&](model::client& c) {
    scenario_client<go_steals_stale>(c, *s, builtin::go.spec, builtin::go.capacity);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->failure, failure_kind::value_taken_twice) << r.bug->message;
  EXPECT_NE(r.bug->trace.find("  thread 2: steal -> "), std::string::npos) << r.bug->trace;
  EXPECT_NE(r.bug->trace.find(", *steal@1 -> "), std::string::npos) << r.bug->trace;
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
