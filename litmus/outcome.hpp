// litmus/outcome.hpp: final outcomes, the condition's verdict, and comparing with the
// expectation.
//
// An outcome is the tuple of final values of the condition's variables (test::observed), as
// herd7 lists them. The verdict follows herd7: Never / Always / Sometimes according to whether
// no, every, or some reachable outcome satisfies the condition's proposition.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "litmus/ast.hpp"
#include "litmus/interpreter.hpp"

namespace stealcheck::litmus {

using outcome = std::vector<value_t>;

/// The outcome of a finished execution: `threads` are the final thread states (registers and
/// plain locations), `memory[i]` the final value of test::locations[i].
outcome observe(const test& t, const std::vector<thread_state>& threads,
                const std::vector<value_t>& memory);

/// Whether the proposition holds in an outcome.
bool holds(const prop& p, const outcome& o);

/// Whether the outcome satisfies the proposition of the test's condition.
inline bool satisfies(const test& t, const outcome& o) {
  return holds(t.condition, o);
}

/// `1:r0=0; x=2;` (herd7's state notation).
std::string format_outcome(const test& t, const outcome& o);

/// What a run of a test under a model found.
struct run_result {
  std::map<outcome, std::uint64_t> outcomes;  ///< reachable outcome -> number of executions
  std::uint64_t complete = 0;                 ///< consistent complete executions
  std::uint64_t blocked = 0;                  ///< executions cut by a bound (none expected)
  std::string error;                          ///< nonempty if the run could not be completed
};

/// herd7's verdict of the proposition over the reachable outcomes. An empty set is `Never`.
verdict verdict_of(const test& t, const run_result& r);

/// One test checked against its expectation for one model.
struct check {
  bool has_expectation = false;
  bool match = true;
  verdict got = verdict::never;
  std::optional<std::uint64_t> expected_execs;
  verdict expected = verdict::never;
  std::string mismatch;  ///< empty on match: "verdict Sometimes, expected Never; ..."
};
check check_expectation(const test& t, model_kind m, const run_result& r);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
