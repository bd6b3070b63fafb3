// The interpreter on a memory backend, the generated native code, and the reference
// enumerator: each checked against an independent statement of what it must compute.
#include "litmus/interpreter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "litmus/hw_test.hpp"
#include "litmus/parser.hpp"
#include "litmus/reference.hpp"
#include "litmus/run_model.hpp"
#include "litmus/value.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::litmus {
namespace {

test parse_ok(std::string_view text) {
  auto r = parse_litmus(text, "t.litmus");
  if (auto* e = std::get_if<parse_error>(&r)) ADD_FAILURE() << e->str();
  return std::holds_alternative<test>(r) ? std::get<test>(std::move(r)) : test{};
}

/// An "explorer" that runs the threads one after the other, in the order given: one
/// execution, the interleaving T[0]; T[1]; ... Enough to test the adapter's plumbing.
explorer sequential(const std::vector<std::size_t>& order) {
  return [order](model_kind, const explorer_client& c) {
    c.setup();
    for (std::size_t t : order)
      c.thread_body(t);
    c.finish();
    c.commit();
    return explorer_stats{1, 0, {}};
  };
}

TEST(LitmusValue, ArithmeticIsTotal) {
  EXPECT_EQ(arith::div(7, 0), 0);
  EXPECT_EQ(arith::mod(7, 0), 0);
  EXPECT_EQ(arith::div(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(arith::add(INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(arith::shr(-8, 1), -4);
  EXPECT_EQ(arith::shr(-1, 63), -1);
  EXPECT_EQ(arith::shl(1, 65), 2);
  EXPECT_EQ(arith::div(-7, 2), -3);
}

const char* const cas_text = R"(C t
{ x = 5; e = 3; }
P0 (atomic_int* x, int* e) {
  int a = atomic_compare_exchange_strong_explicit(x, e, 9, memory_order_seq_cst,
                                                  memory_order_relaxed);
  int b = atomic_compare_exchange_strong_explicit(x, e, 9, memory_order_seq_cst,
                                                  memory_order_relaxed);
  int c = atomic_fetch_sub_explicit(x, 2, memory_order_relaxed);
  int d = atomic_exchange_explicit(x, c * 10 + *e, memory_order_relaxed);
  int f = 0;
  if (a == 0 && b == 1) { f = -(d % 4) << 2; } else f = 99;
}
exists (0:a=0 /\ 0:b=1 /\ 0:c=9 /\ 0:d=7 /\ 0:f=-12 /\ x=95 /\ e=5)
)";

TEST(LitmusInterpreter, RunsOnTheNativeBackendWithHerdCasConvention) {
  const test t = parse_ok(cas_text);
  const program p = compile(t);
  // The first CAS fails (x=5, expected 3) and loads 5 into e; the second succeeds.
  const run_result r = run_on_explorer<native_memory>(p, model_kind::sc, sequential({0}));
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_TRUE(satisfies(t, r.outcomes.begin()->first))
      << format_outcome(t, r.outcomes.begin()->first);
  EXPECT_EQ(r.complete, 1u);
}

TEST(LitmusInterpreter, ExplorerOrderDecidesTheOutcome) {
  const test t = parse_ok(R"(C MP
{ }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_release);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (1:r0=1 /\ 1:r1=1)
)");
  const program p = compile(t);
  const run_result a = run_on_explorer<native_memory>(p, model_kind::sc, sequential({0, 1}));
  const run_result b = run_on_explorer<native_memory>(p, model_kind::sc, sequential({1, 0}));
  EXPECT_EQ(verdict_of(t, a), verdict::always);
  EXPECT_EQ(verdict_of(t, b), verdict::never);
}

/// Runs a generated test's threads one after the other on fresh cells, like `sequential`.
outcome run_native_sequentially(const hw_test& h, const test& t) {
  std::vector<hw_cell> cells(t.locations.size());
  for (std::size_t l = 0; l < t.locations.size(); ++l)
    cells[l].v.store(t.locations[l].init);
  std::vector<thread_state> st(h.threads);
  for (std::size_t th = 0; th < h.threads; ++th) {
    st[th].locals.assign(t.threads[th].locals.size(), 0);
    for (const location& pl : t.plains)
      st[th].plains.push_back(pl.init);
    h.bodies[th](cells.data(), st[th].locals.data(), st[th].plains.data());
  }
  std::vector<value_t> memory;
  memory.reserve(cells.size());
  for (const hw_cell& c : cells)
    memory.push_back(c.v.load());
  return observe(t, st, memory);
}

TEST(LitmusHardwareCode, GeneratedCodeAgreesWithTheInterpreterOnEverySuiteTest) {
  ASSERT_GE(hw_tests_count, 40u);
  for (std::size_t i = 0; i < hw_tests_count; ++i) {
    const hw_test& h = hw_tests[i];
    const test t = parse_ok(h.source);
    const program p = compile(t);
    std::vector<std::size_t> forward(h.threads), backward(h.threads);
    for (std::size_t k = 0; k < h.threads; ++k)
      forward[k] = k, backward[k] = h.threads - 1 - k;
    const run_result r = run_on_explorer<native_memory>(p, model_kind::sc, sequential(forward));
    EXPECT_EQ(r.outcomes.begin()->first, run_native_sequentially(h, t)) << h.name;
    // The sequential outcome (and its reverse) is an SC execution: the reference must reach it.
    const run_result sc = enumerate_reference(p, model_kind::sc);
    EXPECT_EQ(sc.outcomes.count(r.outcomes.begin()->first), 1u) << h.name;
    const run_result rb = run_on_explorer<native_memory>(p, model_kind::sc, sequential(backward));
    EXPECT_EQ(sc.outcomes.count(rb.outcomes.begin()->first), 1u) << h.name;
  }
}

TEST(LitmusReference, ScOutcomesAreRc11OutcomesAndScCountsAreSmaller) {
  for (std::size_t i = 0; i < hw_tests_count; ++i) {
    const test t = parse_ok(hw_tests[i].source);
    const program p = compile(t);
    const run_result sc = enumerate_reference(p, model_kind::sc);
    const run_result rc = enumerate_reference(p, model_kind::rc11);
    ASSERT_TRUE(sc.error.empty() && rc.error.empty()) << t.name;
    EXPECT_LE(sc.complete, rc.complete) << t.name;
    for (const auto& [o, n] : sc.outcomes) {
      ASSERT_EQ(rc.outcomes.count(o), 1u) << t.name << " " << format_outcome(t, o);
      EXPECT_LE(n, rc.outcomes.at(o)) << t.name;
    }
  }
}

TEST(LitmusReference, TooManyEventsIsAReportedLimitNotACrash) {
  std::string body;
  for (int i = 0; i < 70; ++i)
    body += "  atomic_store_explicit(x, " + std::to_string(i % 2) + ", memory_order_relaxed);\n";
  const test t = parse_ok("C big\n{}\nP0 (atomic_int* x) {\n" + body + "}\nexists (x=1)\n");
  const run_result r = enumerate_reference(compile(t), model_kind::rc11);
  EXPECT_NE(r.error.find("more than 64 events"), std::string::npos) << "[" << r.error << "]";
  EXPECT_EQ(r.complete, 0u);
}

}  // namespace
}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
