// The conformance suite on stealcheck's own deques: chase_lev registered with the one-line
// macro a user writes (its tests are listed and run like any others), and the suite's units on
// a known-bad deque, which must fail naming the offending value with a replay command.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <stealcheck/testing.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "stealcheck/detail/deques/registry.hpp"
#include "testing/checkers.hpp"

namespace {
template <class T, class Mem>
using chase_lev = stealcheck::chase_lev<T, Mem>;
}  // namespace

STEALCHECK_CONFORMANCE_SUITE(ChaseLevConformance, chase_lev, stealcheck::builtin::chase_lev);

namespace stealcheck::testing {
namespace {

// Every unit of every conformance checker on v; returns the failures' text.
std::string failures_of(const harness::variant& v, std::size_t& units) {
  harness::verify_options o;
  o.scale = STEALCHECK_TEST_SCALE;
  std::string text;
  for (const harness::checker& c : conformance_checkers()) {
    for (const harness::check_unit& u : c.units(v)) {
      ++units;
      const harness::check_cell cell = u.run(o);
      if (cell.verdict != harness::cell_verdict::fail) continue;
      EXPECT_TRUE(cell.replay.has_value()) << u.name;
      const std::string kind = cell.kind ? std::string(failure_name(*cell.kind)) : "?";
      text += c.name + "_" + u.name + " [" + kind + "]: " + cell.failure +
              "\n  replay: " + (cell.replay ? cell.replay->str() : "") + "\n";
    }
  }
  return text;
}

TEST(ConformanceSuite, CatchesAKnownBadDequeNamingTheValue) {
  const variant_handle bad =
      make_variant<chase_lev_no_push_fence_tag::deque>(builtin::chase_lev_no_push_fence);
  std::size_t units = 0;
  const std::string text = failures_of(detail::bound_variant(bad), units);
  EXPECT_GT(units, 10u);
  // the model clients under RC11 read a slot the push did not publish: a value never pushed
  EXPECT_NE(text.find("model_push2_pop_steal2_rc11 [value_invented]: "), std::string::npos) << text;
  EXPECT_NE(text.find("never pushed"), std::string::npos) << text;
  EXPECT_NE(text.find("--replay"), std::string::npos) << text;
  // under SC every execution is sequentially consistent: the missing fence cannot show
  EXPECT_EQ(text.find("_sc ["), std::string::npos) << text;
  // fuzz_rc11 draws it first in a built-in client's round (a quarter of a scenario's
  // executions), with the command that repeats that round
  EXPECT_NE(text.find("fuzz_rc11 [value_invented]: in execution"), std::string::npos) << text;
  EXPECT_NE(text.find("client push2_pop_steal2:"), std::string::npos) << text;
  EXPECT_NE(text.find("fuzz chase_lev_no_push_fence --client push2_pop_steal2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("--per-scenario 25 "), std::string::npos) << text;
}

// fuzz_rc11 on a deep known-bad, whose bug needs a growth that no model client makes: drawn in
// a generated scenario, minimized, with the command that repeats the minimized scenario.
TEST(ConformanceSuite, FuzzUnitMinimizesABugOfAGeneratedScenario) {
  const variant_handle bad =
      make_variant<chase_lev_grow_relaxed_tag::deque>(builtin::chase_lev_grow_relaxed);
  const unit_outcome u = run_unit(bad, "fuzz", "rc11");
  EXPECT_TRUE(u.found);
  EXPECT_FALSE(u.passed) << u.report;
  EXPECT_NE(u.report.find("minimized to prefix ["), std::string::npos) << u.report;
  EXPECT_EQ(u.report.find("client "), std::string::npos) << u.report;
}

// A deque that puts back the first value it pops, once per process (state kept outside the
// model's memory): the model checker, re-running the owner to reach a branch, sees it diverge
// and names the nondeterminism (no kind: no fault the spec judges); drawn again from its seed,
// the scenario shows no bug, which the report says instead of minimizing.
template <class T, class Mem>
class pops_one_value_twice : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() {
    std::optional<T> v = locked_deque<T, Mem>::pop();
    if constexpr (std::is_copy_constructible_v<T>)
      if (v && !spent.exchange(true)) locked_deque<T, Mem>::push(*v);
    return v;
  }
  static inline std::atomic<bool> spent{false};
};

TEST(ConformanceSuite, FuzzUnitSaysABugThatDoesNotRepeatFromItsSeed) {
  variant_info info = builtin::locked;
  info.name = "pops_one_value_twice";
  info.values = value_support::scalar;
  const variant_handle h = make_variant<pops_one_value_twice, value_support::scalar>(info);
  const unit_outcome u = run_unit(h, "fuzz", "rc11");
  EXPECT_TRUE(u.found);
  EXPECT_FALSE(u.passed) << u.report;
  EXPECT_FALSE(u.kind.has_value()) << u.report;
  EXPECT_NE(u.report.find("nondeterminism: re-execution of thread 0 diverged"), std::string::npos)
      << u.report;
  EXPECT_NE(u.report.find("NOT REPEATED: drawn again from its seed"), std::string::npos)
      << u.report;
  EXPECT_EQ(u.report.find("minimized to"), std::string::npos) << u.report;
}

// run_unit, the suite's units one at a time without GoogleTest: what a unit finds on a
// known-bad deque (its kind and its report), the same unit passing on the correct deque, and
// names that are no unit.
TEST(ConformanceSuite, RunUnitGivesOneUnitsOutcome) {
  const variant_handle bad =
      make_variant<chase_lev_no_push_fence_tag::deque>(builtin::chase_lev_no_push_fence);
  const variant_handle good = make_variant<chase_lev_tag::deque>(builtin::chase_lev);
  EXPECT_EQ(bad.name(), "chase_lev_no_push_fence");
  EXPECT_TRUE(bad.info().known_bad);
  const std::vector<std::string> units = unit_names(bad, "model");
  EXPECT_NE(std::find(units.begin(), units.end(), "push2_pop_steal2_rc11"), units.end());
  EXPECT_TRUE(unit_names(bad, "no_such_checker").empty());

  const unit_outcome found = run_unit(bad, "model", "push2_pop_steal2_rc11");
  EXPECT_TRUE(found.found);
  EXPECT_FALSE(found.passed);
  EXPECT_EQ(found.kind, failure_kind::value_invented);
  EXPECT_NE(found.report.find("never pushed"), std::string::npos) << found.report;

  const unit_outcome under_sc = run_unit(bad, "model", "push2_pop_steal2_sc");
  EXPECT_TRUE(under_sc.found && under_sc.passed) << under_sc.report;
  const unit_outcome fixed = run_unit(good, "model", "push2_pop_steal2_rc11");
  EXPECT_TRUE(fixed.found && fixed.passed && !fixed.kind) << fixed.report;
  EXPECT_NE(fixed.detail.find("execs"), std::string::npos) << fixed.detail;

  const unit_outcome none = run_unit(good, "model", "no_such_unit");
  EXPECT_FALSE(none.found);
  EXPECT_FALSE(none.passed);
}

// A deque whose steal throws: a user's deque misbehaving instead of returning a wrong value.
template <class T, class Mem>
class throwing_deque : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() { throw std::runtime_error("steal is not implemented"); }
};

TEST(ConformanceSuite, ADequeThatThrowsOnAThreadIsAFailureNamingTheException) {
  variant_info info = builtin::locked;
  info.name = "throwing_deque";
  const variant_handle h = make_variant<throwing_deque>(info);
  const harness::variant& v = detail::bound_variant(h);
  for (const harness::checker& c : {stress::checker(), stress::lincheck::checker()}) {
    const harness::check_unit u = c.units(v).front();  // stress mixed; lincheck native
    harness::verify_options o;
    o.scale = 10;
    const harness::check_cell cell = u.run(o);
    EXPECT_EQ(cell.verdict, harness::cell_verdict::fail) << c.name;
    EXPECT_NE(cell.failure.find("threw std::runtime_error: steal is not implemented"),
              std::string::npos)
        << c.name << ": " << cell.failure;
    EXPECT_EQ(cell.kind, failure_kind::exception) << c.name;  // through the isolated child
  }
}

TEST(ConformanceSuite, ScalarOnlyDequeSkipsBoxedScenarios) {
  variant_info info = builtin::locked;
  info.values = value_support::scalar;
  const variant_handle h = make_variant<locked_tag::deque, value_support::scalar>(info);
  const harness::variant& v = detail::bound_variant(h);
  for (const harness::check_unit& u : stress::checker().units(v)) {
    if (u.name != "destructors") continue;
    const harness::check_cell cell = u.run(harness::verify_options{});
    EXPECT_EQ(cell.verdict, harness::cell_verdict::skipped);
    EXPECT_NE(cell.detail.find("destructors"), std::string::npos) << cell.detail;
  }
}

}  // namespace
}  // namespace stealcheck::testing
// SPDX-License-Identifier: Apache-2.0
