// stress/history_file.cpp: see history_file.hpp.
#include "stealcheck/detail/stress/history_file.hpp"

#include <fmt/format.h>

#include <array>
#include <istream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <utility>

#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::stress::lincheck {
namespace {

using json = nlohmann::json;

constexpr std::array<spec::spec_kind, 4> all_specs = {
    spec::spec_kind::lifo_owner, spec::spec_kind::fifo_owner, spec::spec_kind::unordered,
    spec::spec_kind::at_least_once};

// One line's parser: every complaint is "FILE:LINE: what".
class line_reader {
 public:
  /// `where`: "FILE:LINE" (JSON Lines) or "FILE: operation K" (Porcupine's array).
  line_reader(std::string where, const json& j) : where_(std::move(where)), j_(j) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw harness::usage_error(fmt::format("{}: {}", where_, what));
  }
  const json& field(const char* key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) fail(fmt::format("missing \"{}\"", key));
    return *it;
  }
  std::uint64_t number(const json& v, const char* what) const {
    if (!v.is_number_unsigned())
      fail(fmt::format("{} must be an unsigned integer, not {}", what, v.dump()));
    return v.get<std::uint64_t>();
  }
  std::uint64_t number(const char* key) const { return number(field(key), key); }

  operation parse() const {
    for (const auto& [key, _] : j_.items())
      if (key != "thread" && key != "op" && key != "value" && key != "result" && key != "invoke" &&
          key != "response")
        fail(fmt::format("unknown field {}", json(key).dump()));
    operation op;
    const std::uint64_t thread = number("thread");
    if (thread >= 1u << 16) fail(fmt::format("thread {} out of range (0..65535)", thread));
    op.thread = static_cast<std::uint32_t>(thread);
    op.invoke = number("invoke");
    op.response = number("response");
    if (op.response < op.invoke)
      fail(fmt::format("response {} before invoke {}", op.response, op.invoke));
    const json& kind = field("op");
    const std::string k = kind.is_string() ? kind.get<std::string>() : kind.dump();
    if (k == "push") {
      op.kind = spec::op_kind::push;
      op.has_value = true;
      op.value = number("value");
    } else if (k == "pop" || k == "steal" || k == "steal_batch") {
      op.kind = k == "pop" ? spec::op_kind::pop
                           : (k == "steal" ? spec::op_kind::steal : spec::op_kind::steal_batch);
      result(op, field("result"), k);
    } else {
      fail(fmt::format("unknown op {} (push, pop, steal, steal_batch)", kind.dump()));
    }
    const bool owner_op = op.kind == spec::op_kind::push || op.kind == spec::op_kind::pop;
    if (owner_op != (op.thread == 0))
      fail(fmt::format("{} on thread {}: thread 0 (the owner) pushes and pops, threads 1.. steal",
                       k, op.thread));
    return op;
  }

 private:
  void result(operation& op, const json& r, const std::string& k) const {
    if (r.is_string()) {
      const std::string s = r.get<std::string>();
      if (s == "empty" || (s == "abort" && k != "pop")) {
        op.has_value = false;
        op.status = s == "empty" ? steal_status::empty : steal_status::abort;
        return;
      }
      fail(fmt::format("{}'s result {} is not a value, \"empty\"{}", k, r.dump(),
                       k == "pop" ? "" : " or \"abort\""));
    }
    op.status = steal_status::item;
    op.has_value = true;
    if (k != "steal_batch") {
      op.value = number(r, "result");
      return;
    }
    if (!r.is_array() || r.empty())
      fail(
          fmt::format("steal_batch's result {} is not a non-empty list of values, \"empty\" or "
                      "\"abort\"",
                      r.dump()));
    for (const json& v : r)
      op.batch.push_back(number(v, "a batch value"));
    op.value = op.batch.front();
  }

  std::string where_;
  const json& j_;
};

// Checks one operation's rules across the history (values pushed once) and appends it.
void append(history_file& out, std::set<std::uint64_t>& pushed, const line_reader& r) {
  operation op = r.parse();
  if (op.kind == spec::op_kind::push && !pushed.insert(op.value).second)
    r.fail(fmt::format("value {} pushed twice (values must be unique)", op.value));
  out.ops.push_back(std::move(op));
}

// Porcupine's operations (github.com/anishathalye/porcupine, model.go, Operation: ClientId,
// Input, Call, Output, Return), the deque's operation in Input ({"op": "push", "value": 3} or
// {"op": "pop"}, "steal", "steal_batch") and its result in Output: the same fields as a line.
history_file read_porcupine(const json& all, const std::string& name) {
  history_file out;
  std::set<std::uint64_t> pushed;
  std::size_t k = 0;
  for (const json& p : all) {
    ++k;
    const std::string where = fmt::format("{}: operation {}", name, k);
    const line_reader outer(where, p);
    if (!p.is_object()) outer.fail("not a JSON object");
    for (const auto& [key, _] : p.items())
      if (key != "ClientId" && key != "Input" && key != "Call" && key != "Output" &&
          key != "Return")
        outer.fail(
            fmt::format("unknown field {} (Porcupine's: ClientId, Input, Call, Output, Return)",
                        json(key).dump()));
    const json& input = outer.field("Input");
    if (!input.is_object()) outer.fail("Input must be an object such as {\"op\": \"steal\"}");
    json line = {{"thread", p.value("ClientId", json(0))},
                 {"invoke", outer.field("Call")},
                 {"response", outer.field("Return")}};
    for (const auto& [key, v] : input.items()) {
      if (key != "op" && key != "value")
        outer.fail(fmt::format("unknown field {} in Input (op, value)", json(key).dump()));
      line[key] = v;
    }
    if (input.value("op", json()) != json("push")) line["result"] = outer.field("Output");
    append(out, pushed, line_reader(where, line));
  }
  return out;
}

}  // namespace

std::optional<spec::spec_kind> spec_by_name(std::string_view name) {
  for (spec::spec_kind k : all_specs)
    if (spec::spec_name(k) == name) return k;
  return std::nullopt;
}

history_file read_history(std::istream& in, const std::string& name) {
  if (std::ws(in).peek() == '[') {  // Porcupine's JSON array of operations
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    json all;
    try {
      all = json::parse(text);
    } catch (const json::exception& e) {
      throw harness::usage_error(
          fmt::format("{}: not JSON: {}", name, harness::json_error_text(e)));
    }
    return read_porcupine(all, name);
  }
  history_file out;
  std::set<std::uint64_t> pushed;
  std::string text;
  std::size_t line = 0;
  bool first = true;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number overflow
      std::string what = harness::json_error_text(e);  // "parse error at line 1, column 2: ..."
      if (const auto at = what.find("at line 1, "); at != std::string::npos) what.erase(at, 11);
      throw harness::usage_error(fmt::format("{}:{}: not JSON: {}", name, line, what));
    }
    const line_reader r(fmt::format("{}:{}", name, line), j);
    if (!j.is_object()) r.fail("not a JSON object");
    if (first && j.contains("stealcheck_history")) {
      first = false;
      const json& v = j["stealcheck_history"];
      if (!v.is_number_integer() || v.get<long long>() != history_format_version)
        r.fail(fmt::format("history format {} (this stealcheck reads {})", v.dump(),
                           history_format_version));
      if (const auto s = j.find("spec"); s != j.end()) {
        const auto kind = s->is_string() ? spec_by_name(s->get<std::string>()) : std::nullopt;
        if (!kind)
          r.fail(fmt::format("unknown spec {} (lifo_owner, fifo_owner, unordered, at_least_once)",
                             s->dump()));
        out.spec = kind;
      }
      continue;
    }
    first = false;
    append(out, pushed, r);
  }
  if (in.bad()) throw harness::usage_error(fmt::format("{}: read error", name));
  return out;
}

void write_history(std::ostream& out, const history& h, spec::spec_kind kind) {
  out << nlohmann::ordered_json{{"stealcheck_history", history_format_version},
                                {"spec", spec::spec_name(kind)}}
             .dump()
      << '\n';
  for (const operation& op : h) {
    nlohmann::ordered_json j = {{"thread", op.thread}, {"op", spec::op_name(op.kind)}};
    if (op.kind == spec::op_kind::push) {
      j["value"] = op.value;
    } else if (!op.has_value) {
      j["result"] = op.status == steal_status::abort ? "abort" : "empty";
    } else if (op.kind == spec::op_kind::steal_batch) {
      j["result"] = op.batch;
    } else {
      j["result"] = op.value;
    }
    j["invoke"] = op.invoke;
    j["response"] = op.response;
    out << j.dump() << '\n';
  }
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
