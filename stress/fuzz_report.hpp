// stress/fuzz_report.hpp: what `stealcheck fuzz` does with a bug it found (stress/fuzz.hpp):
// the scenario minimized (a thief, an owner operation or a steal at a time, while the same
// draws still find a bug), explored exhaustively when small enough, and reported with the
// command that repeats exactly that bug; and the command that repeats a whole run.
//
// Thread role: the fuzz command's main thread (report_bug prints to stdout); shrink from any
// thread (the verify checker's unit). Complexity: shrink tries at most 400 smaller scenarios,
// each drawn `per_scenario` times, and explores at most exhaustive_cap executions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "stealcheck/detail/harness/replay.hpp"
#include "stealcheck/detail/stress/fuzz_campaign.hpp"
#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::stress::fuzz {

/// The command that repeats a run; with `scenario` set, that one generated scenario; with
/// `text`, a scenario written out (sampled from `scenario`'s seed, or with `exhaustive` all of
/// it).
harness::command_line repeat_command(const fuzz_args& a, std::optional<std::uint64_t> scenario,
                                     const std::string& text = {}, bool exhaustive = false);

/// A bug found in a scenario, as reported: the scenario minimized (or as found), the report,
/// and whether it comes from the exhaustive exploration of the minimized scenario.
struct shrunk_bug {
  lincheck::scenario scenario;
  std::string report;
  std::optional<failure_kind> kind;  ///< the kind of the bug `report` shows
  bool exhaustive = false;
  int checks = 0;  ///< smaller scenarios tried
  /// false: drawn again from its seed, the scenario as found showed no bug (the run is not
  /// deterministic); `report` is then the failure as first found, and `scenario` as found.
  bool repeated = true;
};

/// Minimizes the bug `found` in scenario s (drawn `per_scenario` times from `seed`) unless not
/// `minimize_it`, and explores the result exhaustively when it has at most 12 steps.
shrunk_bug shrink(const scenario_runner& run, const lincheck::scenario& s, std::uint64_t seed,
                  std::uint64_t per_scenario, bool minimize_it, drawn_bug found);

/// A bug found in scenario s (drawn from `seed`): minimized, explored exhaustively when small,
/// printed with the command that repeats it. Returns the bug as --json writes it.
nlohmann::json report_bug(const fuzz_args& a, const scenario_runner& run,
                          const lincheck::scenario& s, std::uint64_t seed, std::string found);

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
