// harness/checker.hpp: the interface every checker implements (stress, model, lincheck, and
// any a user adds), and the result cells `stealcheck verify` and the GoogleTest suite print.
//
// A checker splits its work on one variant into *units*: one model client, one stress
// scenario, one linearizability mode. `stealcheck verify` runs a checker's units in order and
// stops at the first failure (one cell of its table); the GoogleTest conformance suite
// (include/stealcheck/testing.hpp) makes each unit one test.
//
// Thread role: units run on the calling thread (they may start and join threads of their own).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::harness {

struct verify_options {
  std::uint64_t seed = 1;  ///< for randomized checkers; printed with every failure
  bool quick = false;      ///< smaller bounds (the test suite's smoke run)
  /// The command's status line (harness/progress.hpp), labelled with the unit that runs and
  /// counting the units done; null when there is none (tests, a user's GoogleTest run).
  status_line* progress = nullptr;
  int scale = 100;  ///< percent of the full iteration counts (sanitizer builds lower it)
  /// Re-run one failure instead of searching: a model replay token (`--replay`) or a lincheck
  /// reproduce string (`--reproduce`) from a failure's replay line; "" = search as usual.
  std::string replay;
};

enum class cell_verdict : std::uint8_t {
  pass,     ///< ran and found no bug
  fail,     ///< found a bug (`failure` says which, naming the offending value)
  skipped,  ///< not applicable to this variant (`detail` says why)
};

std::string_view verdict_name(cell_verdict v) noexcept;

/// The result of one unit, or of a whole checker on one variant.
struct check_cell {
  cell_verdict verdict = cell_verdict::skipped;
  std::string detail;   ///< short: counts ("3 clients, 1234 execs"), or why skipped
  std::string failure;  ///< the bug, naming the offending value (may span lines)
  /// What failed (fail only; deques/failure.hpp). nullopt: a failure that is no fault of the
  /// code under test (a client that is not deterministic, a replay that does not fit).
  std::optional<failure_kind> kind;
  std::optional<command_line> replay;  ///< replays the failure (see harness/replay.hpp)
  double seconds = 0;
  std::map<std::string, std::uint64_t> counts;  ///< summed over units ("execs", "values", ...)
};

/// One self-contained check of one variant.
struct check_unit {
  std::string name;  ///< unique within its checker, e.g. "push2_pop_steal2.rc11"
  std::function<check_cell(const verify_options&)> run;
};

struct checker {
  std::string name;  ///< column header and test-name prefix: "stress", "model", "lincheck"
  /// The units this checker runs on `v` (a unit that does not apply returns a skipped cell).
  std::function<std::vector<check_unit>(const variant& v)> units;
  /// One line from the counts of the units that ran ("3 clients, 1234 execs, 0 blocked").
  std::function<std::string(std::size_t units, const std::map<std::string, std::uint64_t>&)>
      summarize;
  /// The width of this checker's column in `verify`'s table, which prints each row as soon as
  /// its variant is done: about its widest cell (0: the header's width). A wider cell pushes
  /// the rest of its row to the right.
  std::size_t cell_width = 0;
};

/// Runs c's units on v in order, stopping at the first failure: one verify cell. A checker
/// without units for v gives a skipped cell.
check_cell run_checker(const checker& c, const variant& v, const verify_options& o);

/// From now on, a fatal signal of the calling process (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
/// SIGABRT: a crash of stealcheck itself, not of a checked deque in a child process) first
/// writes one line to stderr naming the variant, checker and unit run_checker was running:
///   stealcheck: error: died of SIGABRT while running lincheck/native on chase_lev
/// and then ends the process with the signal as before. Idempotent; a no-op under the
/// sanitizers, which report such faults themselves. Thread role: any thread, once or more.
void note_fatal_signals();

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
