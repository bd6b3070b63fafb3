// stress/tests/history_file_test.cpp: history files (stress/history_file.hpp): what is written
// reads back as the same operations, and every malformed line is one error naming the file,
// the line and what is wrong, while the lines around it would be accepted.
#include "stealcheck/detail/stress/history_file.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::stress::lincheck {
namespace {

operation make(std::uint32_t thread, spec::op_kind kind, std::uint64_t invoke,
               std::uint64_t response) {
  operation op;
  op.thread = thread;
  op.kind = kind;
  op.invoke = invoke;
  op.response = response;
  return op;
}

TEST(HistoryFile, WhatIsWrittenReadsBack) {
  history h;
  h.push_back(make(0, spec::op_kind::push, 0, 1));
  h.back().has_value = true;
  h.back().value = 7;
  h.push_back(make(0, spec::op_kind::pop, 2, 3));  // empty
  h.push_back(make(1, spec::op_kind::steal, 1, 4));
  h.back().status = steal_status::abort;
  h.push_back(make(2, spec::op_kind::steal_batch, 5, 9));
  h.back().status = steal_status::item;
  h.back().has_value = true;
  h.back().batch = {7, 8};
  h.back().value = 7;
  std::stringstream s;
  write_history(s, h, spec::spec_kind::fifo_owner);
  const history_file back = read_history(s, "mem");
  ASSERT_EQ(back.spec, spec::spec_kind::fifo_owner);
  ASSERT_EQ(back.ops.size(), h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    EXPECT_EQ(back.ops[i].thread, h[i].thread) << i;
    EXPECT_EQ(back.ops[i].kind, h[i].kind) << i;
    EXPECT_EQ(back.ops[i].has_value, h[i].has_value) << i;
    EXPECT_EQ(back.ops[i].invoke, h[i].invoke) << i;
    EXPECT_EQ(back.ops[i].response, h[i].response) << i;
    if (h[i].has_value) {
      EXPECT_EQ(back.ops[i].value, h[i].value) << i;
    }
    if (h[i].kind == spec::op_kind::steal || h[i].kind == spec::op_kind::steal_batch) {
      EXPECT_EQ(back.ops[i].status, h[i].status) << i;
    }
    EXPECT_EQ(back.ops[i].batch, h[i].batch) << i;
  }
}

// The error for a file whose line 2 is `bad` (line 1 is a correct push).
std::string error_of(const std::string& bad) {
  std::stringstream s(R"({"thread": 0, "op": "push", "value": 1, "invoke": 0, "response": 1})"
                      "\n" +
                      bad + "\n");
  try {
    (void)read_history(s, "h.jsonl");
  } catch (const harness::usage_error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(HistoryFile, AMalformedLineIsNamedWithFileAndLine) {
  const std::string ok = R"({"thread": 1, "op": "steal", "result": 1, "invoke": 2, "response": 3})";
  EXPECT_EQ(error_of(ok), "(accepted)");
  const std::pair<std::string, std::string> cases[] = {
      {R"({"thread": 1, "op": "pop", "result": 1, "invoke": 2, "response": 3})",
       "h.jsonl:2: pop on thread 1: thread 0 (the owner) pushes and pops, threads 1.. steal"},
      {R"({"thread": 1, "op": "steal", "result": -1, "invoke": 2, "response": 3})",
       "h.jsonl:2: result must be an unsigned integer, not -1"},
      {R"({"thread": 1, "op": "steal", "result": "lost", "invoke": 2, "response": 3})",
       "h.jsonl:2: steal's result \"lost\" is not a value, \"empty\" or \"abort\""},
      {R"({"thread": 0, "op": "pop", "result": "abort", "invoke": 2, "response": 3})",
       "h.jsonl:2: pop's result \"abort\" is not a value, \"empty\""},
      {R"({"thread": 1, "op": "steal", "result": 1, "invoke": 3, "response": 2})",
       "h.jsonl:2: response 2 before invoke 3"},
      {R"({"thread": 1, "op": "steal", "result": 1, "invoke": 2})",
       "h.jsonl:2: missing \"response\""},
      {R"({"thread": 0, "op": "push", "value": 1, "invoke": 2, "response": 3})",
       "h.jsonl:2: value 1 pushed twice (values must be unique)"},
      {R"({"thread": 1, "op": "peek", "invoke": 2, "response": 3})",
       "h.jsonl:2: unknown op \"peek\" (push, pop, steal, steal_batch)"},
      {R"({"thread": 1, "op": "steal", "result": 1, "invoke": 2, "response": 3, "x": 0})",
       "h.jsonl:2: unknown field \"x\""},
      {R"({"thread": 2, "op": "steal_batch", "result": [], "invoke": 2, "response": 3})",
       "h.jsonl:2: steal_batch's result [] is not a non-empty list of values, \"empty\" or "
       "\"abort\""},
      {"[1, 2]", "h.jsonl:2: not a JSON object"},
  };
  for (const auto& [line, error] : cases)
    EXPECT_EQ(error_of(line), error) << line;
  EXPECT_EQ(error_of("{oops").rfind("h.jsonl:2: not JSON: ", 0), 0U) << error_of("{oops");
  // nlohmann throws out_of_range, not parse_error, for a number too large for a double
  const std::string overflow = error_of(R"({"thread": 1E8888})");
  EXPECT_EQ(overflow.rfind("h.jsonl:2: not JSON: number overflow parsing '1E8888'", 0), 0U)
      << overflow;
}

// Porcupine's operations (an array of ClientId, Input, Call, Output, Return) read as the same
// history as the lines; what is wrong is named by the operation's position.
TEST(HistoryFile, PorcupineOperationsReadAsLines) {
  std::stringstream porcupine(R"([
    {"ClientId": 0, "Input": {"op": "push", "value": 4}, "Call": 0, "Output": null, "Return": 1},
    {"ClientId": 1, "Input": {"op": "steal"}, "Call": 2, "Output": "abort", "Return": 3},
    {"ClientId": 2, "Input": {"op": "steal_batch"}, "Call": 2, "Output": [4], "Return": 5}])");
  std::stringstream lines(R"({"thread": 0, "op": "push", "value": 4, "invoke": 0, "response": 1}
{"thread": 1, "op": "steal", "result": "abort", "invoke": 2, "response": 3}
{"thread": 2, "op": "steal_batch", "result": [4], "invoke": 2, "response": 5})");
  const history a = read_history(porcupine, "p.json").ops, b = read_history(lines, "l").ops;
  ASSERT_EQ(a.size(), 3U);
  ASSERT_EQ(b.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a[i].thread, b[i].thread) << i;
    EXPECT_EQ(a[i].kind, b[i].kind) << i;
    EXPECT_EQ(a[i].has_value, b[i].has_value) << i;
    EXPECT_EQ(a[i].value, b[i].value) << i;
    EXPECT_EQ(a[i].status, b[i].status) << i;
    EXPECT_EQ(a[i].batch, b[i].batch) << i;
    EXPECT_EQ(a[i].invoke, b[i].invoke) << i;
    EXPECT_EQ(a[i].response, b[i].response) << i;
  }
  std::stringstream bad(R"([{"ClientId": 0, "Input": {"op": "push", "value": 4}, "Call": 0,
    "Output": null, "Return": 1}, {"ClientId": 1, "Input": "steal", "Call": 2, "Output": 1,
    "Return": 3}])");
  try {
    (void)read_history(bad, "p.json");
    FAIL() << "accepted";
  } catch (const harness::usage_error& e) {
    EXPECT_STREQ(e.what(),
                 "p.json: operation 2: Input must be an object such as {\"op\": \"steal\"}");
  }
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
