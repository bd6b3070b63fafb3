// Property-based linearizability: RapidCheck generates concurrent scenarios on the main
// thread; each runs natively many times with injected delays and every history is checked.
// The correct variants must pass; the known-bad locked_steal_bottom (conserves values, breaks
// deque order) must be caught with a shrunk scenario and a reproduce string, and on purpose
// it passes the conservation stress test. Replay a failure with RC_PARAMS="reproduce=...".
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/stress/lin_native.hpp"
#include "stealcheck/detail/stress/run.hpp"
#include "stealcheck/detail/stress/scenario_gen.hpp"

#ifndef STEALCHECK_TEST_SCALE
#define STEALCHECK_TEST_SCALE 100
#endif

namespace stealcheck::stress::lincheck {
namespace {

constexpr int runs = STEALCHECK_TEST_SCALE < 100 ? 10 : 50;

// The built-in variant's own spec and batch flag, as the lincheck checker passes them.
template <class Tag>
void expect_linearizable() {
  run_options o;
  o.scenarios = STEALCHECK_TEST_SCALE < 100 ? 20 : 100;
  o.runs = runs;
  o.seed = 7;
  o.batch = builtin_info<Tag>().batch_steal;
  o.spec = builtin_info<Tag>().spec;
  const outcome out = check_generated("correct", o, native_finder<Tag>(o.spec, o.runs, true));
  EXPECT_EQ(out.kind, verdict::linearizable)
      << out.failure << "\n"
      << out.timeline << "\nreplay: RC_PARAMS=\"" << out.reproduce << "\" (seed " << o.seed << ")";
  EXPECT_EQ(out.scenarios, o.scenarios);
}

TEST(LincheckNative, ChaseLevIsLinearizable) {
  expect_linearizable<chase_lev_tag>();
}
TEST(LincheckNative, LockedIsLinearizable) {
  expect_linearizable<locked_tag>();
}
TEST(LincheckNative, StealHalfIsLinearizable) {
  expect_linearizable<steal_half_tag>();
}
TEST(LincheckNative, SplitIsLinearizable) {
  expect_linearizable<split_tag>();
}
TEST(LincheckNative, TheIsLinearizable) {
  expect_linearizable<the_tag>();
}
TEST(LincheckNative, AbpIsLinearizable) {
  expect_linearizable<abp_tag>();
}
TEST(LincheckNative, FjpIsLinearizable) {
  expect_linearizable<fjp_tag>();
}
TEST(LincheckNative, DotnetIsLinearizable) {
  expect_linearizable<dotnet_tag>();
}
TEST(LincheckNative, IdempotentIsLinearizableAtLeastOnce) {
  expect_linearizable<idempotent_tag>();
}
TEST(LincheckNative, TokioIsLinearizableUnordered) {
  expect_linearizable<tokio_tag>();
}
TEST(LincheckNative, GoIsLinearizableUnordered) {
  expect_linearizable<go_tag>();
}
TEST(LincheckNative, CrossbeamLifoIsLinearizable) {
  expect_linearizable<crossbeam_lifo_tag>();
}
TEST(LincheckNative, CrossbeamFifoIsLinearizableFifoOwner) {
  expect_linearizable<crossbeam_fifo_tag>();
}

TEST(LincheckNative, CatchesStealFromTheBottomWithAShrunkScenario) {
  run_options o;
  o.scenarios = 100;
  o.runs = runs;
  o.seed = 7;
  const outcome out = check_generated(
      "known_bad", o,
      native_finder<locked_steal_bottom_tag>(spec::spec_kind::lifo_owner, o.runs, true));
  ASSERT_EQ(out.kind, verdict::not_linearizable) << out.failure;
  EXPECT_NE(out.reproduce.find("reproduce="), std::string::npos);
  EXPECT_NE(out.timeline.find("steal ->"), std::string::npos) << out.timeline;
  // Shrunk: two pushes and one steal suffice (steal must take the older one).
  EXPECT_LE(out.scenario_text.size(), 80u) << out.scenario_text;
  // Replaying the reproduce string fails again, on the same shrunk scenario (native runs are
  // not deterministic: the replay tries several rounds of runs, as the CLI's does).
  run_options replay = o;
  replay.reproduce = out.reproduce;
  replay.replay_rounds = native_replay_rounds;
  const outcome again = check_generated(
      "known_bad", replay,
      native_finder<locked_steal_bottom_tag>(spec::spec_kind::lifo_owner, o.runs, true));
  EXPECT_EQ(again.kind, verdict::not_linearizable);
  EXPECT_EQ(again.scenario_text, out.scenario_text);
}

TEST(LincheckNative, ConservationStressDoesNotCatchStealFromTheBottom) {
  stress::config c;
  c.ops = 20000;
  const stress::result r = stress::run<locked_steal_bottom_tag>(stress::scenario_kind::mixed, c);
  EXPECT_TRUE(r.ok) << r.failure;  // values are conserved: only an order check can see it
}

// The same property through RapidCheck's GoogleTest integration (on failure it prints the
// RC_PARAMS reproduce string).
RC_GTEST_PROP(LincheckNativeRc, ChaseLevScenariosAreLinearizable, ()) {
  const scenario s = *gen_scenario(false);
  const auto bad = native_finder<chase_lev_tag>(spec::spec_kind::lifo_owner, runs, true)(s, 99);
  RC_ASSERT(!bad.has_value());
}

// A steal from a thief's own deque (steal@N) runs natively too: what the others take there
// joins that thief's batch, so the history is judged whole. Go's run queue passes; the same
// queue whose thieves' deques (capacity 64 here, the owner's 4) answer a steal that finds
// nothing with the value their owner popped last (a stale slot) is caught, which only that
// batch shows. Whether it shows in a run follows the thread timing (a steal there must come
// after that thief's pops), so the broken queue runs until its first failing run, up to 20
// times the correct one's runs: a loaded machine that serializes the threads differently
// needs more runs, not another verdict.
template <class D>
std::size_t failing_runs(const scenario& s, int n, bool to_the_first = false) {
  std::size_t failing = 0;
  for (int i = 0; i < n && !(to_the_first && failing > 0); ++i)
    if (!check(run_native<D>(s, 40 + static_cast<std::uint64_t>(i), true), builtin::go.spec)
             .linearizable)
      ++failing;
  return failing;
}

using go_native = go_tag::deque<std::uint64_t, native_memory>;

struct go_thief_deque_steals_stale : sized<go_native> {
  using base = sized<go_native>;
  explicit go_thief_deque_steals_stale(std::int64_t capacity)
      : base(capacity), thiefs_(capacity == 64) {}
  std::optional<std::uint64_t> pop() {
    auto v = base::pop();
    if (thiefs_ && v) last_popped_.store(*v, std::memory_order_relaxed);  // a test's flag
    return v;
  }
  steal_result<std::uint64_t> steal() {
    auto r = base::steal();
    const std::uint64_t stale = last_popped_.load(std::memory_order_relaxed);  // a test's flag
    if (thiefs_ && !r.has_value() && stale != none) return steal_result<std::uint64_t>::item(stale);
    return r;
  }

 private:
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  bool thiefs_;
  std::atomic<std::uint64_t> last_popped_{none};
};

// Thief 1 takes a batch and steals once more while thieves 2 and 3 steal from its deque.
std::optional<scenario> stolen_from_thief_1() {
  std::string error;
  return parse_scenario(
      "prefix [ push push push push push push push push ] owner [ push pop push ] "
      "thief1 [ steal_batch steal ] thief2 [ steal@1 steal@1 steal@1 ] thief3 [ steal@1 steal ]",
      error);
}

TEST(LincheckNative, StealsFromAThiefJoinItsBatch) {
  const std::optional<scenario> s = stolen_from_thief_1();
  ASSERT_TRUE(s.has_value());
  const int n = STEALCHECK_TEST_SCALE < 100 ? 50 : 200;
  EXPECT_EQ(failing_runs<sized<go_native>>(*s, n), 0U);
  EXPECT_GT(failing_runs<go_thief_deque_steals_stale>(*s, 20 * n, true), 0U);
}

// A report shows a steal from a thief's deque in its thread's lane, "steal@1 -> v", beside the
// minimized history, while the history judged (and written to a file) has no such step: its
// value is judged inside thief 1's batch, which the minimized history keeps.
TEST(LincheckNative, AReportShowsAStealFromAThiefInItsThreadsLane) {
  const std::optional<scenario> s = stolen_from_thief_1();
  ASSERT_TRUE(s.has_value());
  for (std::uint64_t seed = 40; seed < 4040; ++seed) {
    history aside;
    const history h = run_native<go_thief_deque_steals_stale>(*s, seed, true, &aside);
    for (const operation& op : h)
      ASSERT_EQ(op.from_thief, 0U) << describe(op);
    if (check(h, builtin::go.spec).linearizable) continue;
    const history minimal = minimize(h, builtin::go.spec);
    EXPECT_EQ(timeline_text(minimal).find("steal@"), std::string::npos);
    const std::string shown = timeline_text(with_steals_from_thieves(minimal, aside));
    EXPECT_NE(shown.find("steal@1 -> "), std::string::npos) << shown;
    return;
  }
  FAIL() << "no run of the broken queue failed";
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
