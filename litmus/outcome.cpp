// litmus/outcome.cpp: outcomes, verdicts, expectations (see outcome.hpp).
#include "litmus/outcome.hpp"

namespace stealcheck::litmus {

outcome observe(const test& t, const std::vector<thread_state>& threads,
                const std::vector<value_t>& memory) {
  outcome o;
  o.reserve(t.observed.size());
  for (const observed_var& v : t.observed) {
    const auto i = static_cast<std::size_t>(v.index);
    if (v.thread >= 0) {
      o.push_back(threads[static_cast<std::size_t>(v.thread)].locals[i]);
    } else if (v.plain) {
      o.push_back(threads[static_cast<std::size_t>(t.plains[i].owner)].plains[i]);
    } else {
      o.push_back(memory[i]);
    }
  }
  return o;
}

bool holds(const prop& p, const outcome& o) {
  switch (p.k) {
    case prop::kind::atom:
      return o[static_cast<std::size_t>(p.index)] == p.value;
    case prop::kind::not_:
      return !holds(p.args[0], o);
    case prop::kind::and_:
      return holds(p.args[0], o) && holds(p.args[1], o);
    case prop::kind::or_:
      return holds(p.args[0], o) || holds(p.args[1], o);
    case prop::kind::true_:
      return true;
    case prop::kind::false_:
      return false;
  }
  return false;
}

std::string format_outcome(const test& t, const outcome& o) {
  std::string s;
  for (std::size_t i = 0; i < o.size(); ++i) {
    const observed_var& v = t.observed[i];
    if (v.thread >= 0) s += std::to_string(v.thread) + ":";
    s += v.name + "=" + std::to_string(o[i]) + ";";
    if (i + 1 < o.size()) s += " ";
  }
  return s;
}

verdict verdict_of(const test& t, const run_result& r) {
  bool some = false, all = true;
  for (const auto& [o, n] : r.outcomes) {
    const bool h = satisfies(t, o);
    some = some || h;
    all = all && h;
  }
  if (!some) return verdict::never;
  return all ? verdict::always : verdict::sometimes;
}

check check_expectation(const test& t, model_kind m, const run_result& r) {
  check c;
  c.got = verdict_of(t, r);
  if (!r.error.empty()) {
    c.match = false;
    c.mismatch = "run failed: " + r.error;
  }
  for (const model_expectation& e : t.expect.models) {
    if (e.model != m) continue;
    c.has_expectation = true;
    c.expected = e.result;
    c.expected_execs = e.execs;
    if (e.result != c.got) {
      c.match = false;
      c.mismatch += std::string(c.mismatch.empty() ? "" : "; ") + "verdict " + to_string(c.got) +
                    ", expected " + to_string(e.result);
    }
    if (e.execs && *e.execs != r.complete) {
      c.match = false;
      c.mismatch += std::string(c.mismatch.empty() ? "" : "; ") + "execs " +
                    std::to_string(r.complete) + ", expected " + std::to_string(*e.execs);
    }
  }
  if (r.blocked != 0) {
    c.match = false;
    c.mismatch += std::string(c.mismatch.empty() ? "" : "; ") + std::to_string(r.blocked) +
                  " blocked executions (litmus tests have no loops)";
  }
  return c;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
