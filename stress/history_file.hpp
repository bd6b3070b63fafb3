// stress/history_file.hpp: deque histories as files, so that a history recorded by any program
// (a deque in Rust, Go, Java or C, with its own test harness) is checked by stealcheck's
// linearizability search, and a history stealcheck recorded can be kept and shared.
//
// Format: JSON Lines, version 1 (docs/history-format.md). An optional first line
//   {"stealcheck_history": 1, "spec": "lifo_owner"}
// names the version and, optionally, the sequential spec; then one completed operation per line:
//   {"thread": 0, "op": "push", "value": 3, "invoke": 10, "response": 11}
//   {"thread": 0, "op": "pop", "result": 3, "invoke": 12, "response": 13}
//   {"thread": 1, "op": "steal", "result": "empty", "invoke": 4, "response": 9}
//   {"thread": 2, "op": "steal_batch", "result": [5, 6], "invoke": 14, "response": 20}
// thread 0 is the owner (push, pop), threads 1.. are thieves (steal, steal_batch); a result is
// a value, "empty", or (steal, steal_batch) "abort"; values are unsigned 64-bit integers, each
// pushed at most once; invoke <= response are integer stamps of one clock whose order is real
// time (docs/history-format.md says how to stamp on weak hardware). Blank lines are skipped.
//
// Thread role: any thread, on its own streams. Errors: read_history throws harness::usage_error
// "FILE:LINE: what is wrong". Complexity: O(lines).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/stress/history.hpp"

namespace stealcheck::stress::lincheck {

inline constexpr int history_format_version = 1;

struct history_file {
  history ops;
  std::optional<spec::spec_kind> spec;  ///< from the header line, if it names one
};

/// Parses a history; `name` is the file name used in error messages.
history_file read_history(std::istream& in, const std::string& name);

/// Writes h in the format above, header first (with `kind`).
void write_history(std::ostream& out, const history& h, spec::spec_kind kind);

/// The spec kind called `name` ("lifo_owner", "fifo_owner", "unordered", "at_least_once").
std::optional<spec::spec_kind> spec_by_name(std::string_view name);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
