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
#include <string_view>

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

/// Draws scenario s again (`per_scenario` times from `seed`); when the bug comes back, minimizes
/// it unless not `minimize_it` and explores the result exhaustively when it has at most 12
/// steps; when not, returns `found` with repeated = false. Cost: one draw of s, then at most
/// 400 draws of smaller scenarios.
shrunk_bug shrink(const scenario_runner& run, const lincheck::scenario& s, std::uint64_t seed,
                  std::uint64_t per_scenario, bool minimize_it, drawn_bug found);

/// The words a report puts before a bug that did not come back when drawn again from its seed
/// (the run is not deterministic), followed by the failure as first found.
inline constexpr std::string_view not_repeated_note =
    "NOT REPEATED: drawn again from its seed, it showed no bug (the run is not deterministic: a "
    "deque or check that depends on addresses, time or a random source of its own); the failure "
    "as first found:";

/// Whether a bug found in a round of built-in client `c` (arguments `with`, from
/// client_round_args, and model `m`) comes back when the round is drawn again from `seed`.
bool client_bug_repeats(const model::clients::client_entry& c, const fuzz_args& with,
                        model::memory_model m, std::uint64_t seed);

/// A bug found in scenario s (drawn from `seed`): minimized, explored exhaustively when small,
/// printed with the command that repeats it. Returns the bug as --json writes it.
nlohmann::json report_bug(const fuzz_args& a, const scenario_runner& run,
                          const lincheck::scenario& s, std::uint64_t seed, std::string found);

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
