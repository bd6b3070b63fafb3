// The litmus parser: well-formed tests come out resolved; malformed ones give the exact
// `file:line:col: message` of the offending token.
#include "litmus/parser.hpp"

#include <gtest/gtest.h>

#include <string>

namespace stealcheck::litmus {
namespace {

const char* const sb_text = R"(C SB+rel+acq
(* Store buffering.
   Expected: rc11=Sometimes execs=4; sc=Never execs=3
   Source: docs/rc11-oracle.md *)
{ [x] = 0; y = 0; }

P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_release);
  int r0 = atomic_load_explicit(y, memory_order_acquire);
}

P1 (atomic_int* y, atomic_int* x) {
  atomic_store_explicit(y, 1, memory_order_release);
  int r0 = atomic_load_explicit(x, memory_order_acquire);
}

exists (0:r0=0 /\ 1:r0=0)
)";

test parse_ok(const std::string& text) {
  auto r = parse_litmus(text, "t.litmus");
  if (auto* e = std::get_if<parse_error>(&r)) ADD_FAILURE() << e->str();
  return std::holds_alternative<test>(r) ? std::get<test>(std::move(r)) : test{};
}

std::string error_of(const std::string& text) {
  auto r = parse_litmus(text, "bad.litmus");
  if (auto* e = std::get_if<parse_error>(&r)) return e->str();
  return "(parsed)";
}

TEST(LitmusParser, StoreBufferingResolves) {
  const test t = parse_ok(sb_text);
  EXPECT_EQ(t.name, "SB+rel+acq");
  ASSERT_EQ(t.threads.size(), 2u);
  ASSERT_EQ(t.locations.size(), 2u);
  EXPECT_EQ(t.locations[0].name, "x");
  EXPECT_EQ(t.locations[1].name, "y");
  // P1 lists y before x: indices come from the sorted location table, not parameter order.
  const stmt& store = t.threads[1].body[0];
  ASSERT_TRUE(store.call.has_value());
  EXPECT_EQ(store.call->k, atomic_call::kind::store);
  EXPECT_EQ(store.call->loc_index, 1);
  EXPECT_EQ(store.call->order, mem_order::release);
  const stmt& load = t.threads[1].body[1];
  EXPECT_EQ(load.k, stmt::kind::declare);
  EXPECT_EQ(load.call->loc_index, 0);
  EXPECT_EQ(load.target_index, 0);
  EXPECT_EQ(t.quant, quantifier::exists);
  EXPECT_EQ(t.condition.k, prop::kind::and_);
  ASSERT_EQ(t.observed.size(), 2u);
  EXPECT_EQ(t.observed[1].thread, 1);
  EXPECT_EQ(t.observed[1].name, "r0");
}

TEST(LitmusParser, ExpectationLineIsRead) {
  const test t = parse_ok(sb_text);
  ASSERT_EQ(t.expect.models.size(), 2u);
  EXPECT_EQ(t.expect.models[0].model, model_kind::rc11);
  EXPECT_EQ(t.expect.models[0].result, verdict::sometimes);
  EXPECT_EQ(t.expect.models[0].execs, 4u);
  EXPECT_EQ(t.expect.models[1].model, model_kind::sc);
  EXPECT_EQ(t.expect.models[1].result, verdict::never);
  EXPECT_EQ(t.expect.models[1].execs, 3u);
  EXPECT_EQ(t.expect.source, "docs/rc11-oracle.md");
}

TEST(LitmusParser, CasFetchFenceIfElseAndPlainLocations) {
  const test t = parse_ok(R"(C cas
{ x = 2; e = 2; }
P0 (atomic_int* x, int* e) {
  int r0 = atomic_compare_exchange_strong_explicit(x, e, 5, memory_order_acq_rel,
                                                   memory_order_acquire);
  int r1 = atomic_fetch_xor_explicit(x, 3 * (r0 + 1), memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  int r2 = 0;
  if (r0 == 1 && !(r1 < 0)) { r2 = *e - 1; } else r2 = -7 % 3;
}
forall (0:r0=1 /\ [e]=2 \/ ~(x=6))
)");
  ASSERT_EQ(t.plains.size(), 1u);
  EXPECT_EQ(t.plains[0].name, "e");
  EXPECT_EQ(t.plains[0].init, 2);
  EXPECT_EQ(t.plains[0].owner, 0);
  const atomic_call& cas = *t.threads[0].body[0].call;
  EXPECT_EQ(cas.k, atomic_call::kind::cas);
  EXPECT_EQ(cas.expected_index, 0);
  EXPECT_EQ(cas.order, mem_order::acq_rel);
  EXPECT_EQ(cas.failure, mem_order::acquire);
  EXPECT_EQ(t.threads[0].body[1].call->op, rmw_op::bit_xor);
  EXPECT_EQ(t.threads[0].body[2].call->k, atomic_call::kind::fence);
  const stmt& iff = t.threads[0].body[4];
  EXPECT_EQ(iff.k, stmt::kind::if_);
  EXPECT_EQ(iff.value->bop, binary_op::log_and);
  ASSERT_EQ(iff.else_body.size(), 1u);
  EXPECT_EQ(t.quant, quantifier::forall);
  // `/\` binds tighter than `\/`.
  EXPECT_EQ(t.condition.k, prop::kind::or_);
  EXPECT_EQ(t.condition.args[0].k, prop::kind::and_);
  ASSERT_EQ(t.observed.size(), 3u);
  EXPECT_TRUE(t.observed[1].plain);
}

TEST(LitmusParser, NotExistsAndImplicitSeqCst) {
  const test t = parse_ok(
      "C t\n{ atomic_int x; }\nP0 (atomic_int* x) { atomic_store(x, 1); int r = atomic_load(x); }\n"
      "~exists (0:r=0)\n");
  ASSERT_EQ(t.locations.size(), 1u);
  EXPECT_EQ(t.locations[0].init, 0);
  EXPECT_EQ(t.quant, quantifier::not_exists);
  EXPECT_EQ(t.threads[0].body[0].call->order, mem_order::seq_cst);
  EXPECT_TRUE(t.expect.models.empty());
}

struct bad_case {
  const char* text;
  const char* error;
};

class LitmusParserErrors : public ::testing::TestWithParam<bad_case> {};

TEST_P(LitmusParserErrors, AreLocated) {
  EXPECT_EQ(error_of(GetParam().text), GetParam().error);
}

const char* const p0_head = "C t\n{ x = 0; }\nP0 (atomic_int* x) {\n";

INSTANTIATE_TEST_SUITE_P(
    Malformed, LitmusParserErrors,
    ::testing::Values(
        bad_case{"",
                 "bad.litmus:1:1: expected 'C <name>' (a C litmus test starts with its arch "
                 "'C')"},
        bad_case{"C t\n(* open", "bad.litmus:2:1: unterminated comment '(*'"},
        bad_case{"C t\n{ x = ; }", "bad.litmus:2:7: expected an integer, found ';'"},
        bad_case{"C t\n{ x 1; }", "bad.litmus:2:5: expected '=' or ';', found '1'"},
        bad_case{"C t\n{ x = 1; x = 2; }", "bad.litmus:2:10: location 'x' initialised twice"},
        bad_case{"C t\n{ }\nP1 (atomic_int* x) { }",
                 "bad.litmus:3:1: expected thread 'P0' (threads are numbered in order), found "
                 "'P1'"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) {\n  int r0 = atomic_load_explicit(x, "
                 "memory_order_acquire)\n}",
                 "bad.litmus:5:1: expected ';', found '}'"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) {\n  atomic_store_explicit(y, 1, "
                 "memory_order_relaxed);\n}\nexists (x=1)",
                 "bad.litmus:4:3: 'y' is not an 'atomic_int*' parameter of P0"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) {\n  r0 = 1;\n}\nexists (x=1)",
                 "bad.litmus:4:3: 'r0' is not a declared local of P0 (declare it with 'int r0')"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, "
                 "memory_order_acquire);\n}\nexists (x=1)",
                 "bad.litmus:4:3: a store cannot be memory_order_acquire"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) {\n  int r = 1 + atomic_load(x);\n}\nexists "
                 "(x=1)",
                 "bad.litmus:4:15: an atomic call must be a whole statement or a whole "
                 "right-hand side, found 'atomic_load'"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) { }\nexists (1:r0=1)",
                 "bad.litmus:4:9: no thread P1"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) { }\nexists (0:r0=1)",
                 "bad.litmus:4:9: 'r0' is not a local of P0"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) { }\nexists (x=1 /\\ )",
                 "bad.litmus:4:16: expected a condition atom 'N:reg=value' or '[loc]=value', "
                 "found ')'"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) { }\nexists (x=1) junk",
                 "bad.litmus:4:14: expected end of file after the final condition, found "
                 "'junk'"},
        bad_case{"C t\n{ }\nP0 (atomic_int* x) { }\n",
                 "bad.litmus:4:1: expected a final "
                 "condition 'exists', '~exists' or "
                 "'forall', found end of file"},
        bad_case{"C t\n{ }\nP0 (int* e) { }\nP1 (int* e) { }\nexists (e=0)",
                 "bad.litmus:4:5: plain location 'e' is used by two threads (P0 and P1): that is "
                 "a data race"},
        bad_case{"C t\n{ x = 99999999999999999999; }",
                 "bad.litmus:2:7: integer "
                 "'99999999999999999999' out of range"},
        bad_case{"C t\n{ x = 1 $ }", "bad.litmus:2:9: unexpected character '$'"},
        bad_case{"C t\n(*\n  Expected: rc11=Maybe\n  Source: me *)\n{}",
                 "bad.litmus:3:18: expected a verdict 'Sometimes', 'Never' or 'Always'"},
        bad_case{"C t\n(*\n  Expected: rc11=Never execs=3\n*)\n{}",
                 "bad.litmus:3:3: an 'Expected:' line needs a 'Source:' line saying where it "
                 "comes from"},
        bad_case{"C t\n(* Expected: rc11=Never; tso=Never\n Source: x *)",
                 "bad.litmus:2:26: expected a model 'rc11' or 'sc'"}));

TEST(LitmusParser, DeepNestingIsAnErrorNotACrash) {
  std::string text = std::string(p0_head) + "  int r = " + std::string(5000, '(') + "1" +
                     std::string(5000, ')') + ";\n}\nexists (x=1)";
  const std::string err = error_of(text);
  EXPECT_NE(err.find("nesting too deep"), std::string::npos) << err;
  std::string cond =
      "C t\n{ x = 0; }\nP0 (atomic_int* x) { }\nexists " + std::string(3000, '~') + "x=1";
  EXPECT_NE(error_of(cond).find("nesting too deep"), std::string::npos);
}

TEST(LitmusParser, ParseErrorFormatIsFileLineColMessage) {
  const parse_error e{"a/b.litmus", {3, 14}, "boom"};
  EXPECT_EQ(e.str(), "a/b.litmus:3:14: boom");
}

}  // namespace
}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
