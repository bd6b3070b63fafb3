// stress/fuzz/history_fuzz.cpp: libFuzzer target for history files (stress/history_file.hpp).
//
// Property: for any text, read_history either throws harness::usage_error with one line
// "fuzz.jsonl:LINE: what" (or "fuzz.jsonl: ..."), or returns operations that keep the format's
// rules (thread 0 pushes and pops, threads 1.. steal; invoke <= response; every value pushed
// once; a batch steal's value is its first one), and writing them with write_history reads back
// as the same operations. No crash, no undefined behaviour (built with
// -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/stress/history_file.hpp"

namespace {

using namespace stealcheck;
using stress::lincheck::history;

void check_rules(const history& h) {
  std::set<std::uint64_t> pushed;
  for (const auto& op : h) {
    const bool owner_op = op.kind == spec::op_kind::push || op.kind == spec::op_kind::pop;
    if (owner_op != (op.thread == 0) || op.response < op.invoke) std::abort();
    if (op.kind == spec::op_kind::push && !pushed.insert(op.value).second) std::abort();
    if (op.kind == spec::op_kind::steal_batch && op.has_value &&
        (op.batch.empty() || op.batch.front() != op.value))
      std::abort();
  }
}

bool same(const history& a, const history& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto &x = a[i], &y = b[i];
    if (x.thread != y.thread || x.kind != y.kind || x.invoke != y.invoke ||
        x.response != y.response || x.has_value != y.has_value || x.batch != y.batch)
      return false;
    if (x.has_value && x.value != y.value) return false;
    if (!x.has_value && x.kind != spec::op_kind::pop && x.kind != spec::op_kind::push &&
        x.status != y.status)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  stress::lincheck::history_file file;
  try {
    file = stress::lincheck::read_history(in, "fuzz.jsonl");
  } catch (const harness::usage_error& e) {
    const std::string what = e.what();
    if (what.rfind("fuzz.jsonl:", 0) != 0 || what.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  check_rules(file.ops);
  std::stringstream out;
  stress::lincheck::write_history(out, file.ops, file.spec.value_or(spec::spec_kind::lifo_owner));
  const auto back = stress::lincheck::read_history(out, "written");
  if (!same(file.ops, back.ops)) std::abort();
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
