// stress/fuzz.hpp: `stealcheck fuzz`, weak-memory sampling of scenarios larger than the
// exhaustive clients reach.
//
//   stealcheck fuzz VARIANT [--strategy greybox|random|pct|tree] [--thieves K] [--ops N]
//                   [--steals M] [--prefix P] [--executions E | --seconds S] [--per-scenario X]
//                   [--seed S] [--model M] [--client NAME] [--scenario-seed X] [--corpus DIR]
//                   [--jobs J] [--capacity C] [--site NAME=ORDER] [--no-clients]
//
// Each scenario is generated from the variant's declared shape (the owner's P pushes and pops
// alone, then N more while K thieves each steal M times, batch steals on a batch-stealing
// variant; unique values, a final drain), or with greybox (the default) mutated from a corpus
// of earlier scenarios that reached new reads-from coverage (greybox.hpp), and drawn X times
// by the model checker's sampling (model::options::sample: forward sampling by uniform choices
// or PCT, or random walks of the exploration tree; each execution consistent under RC11 or SC
// and checked as an exhaustive run checks it: values, the variant's spec by
// hb-linearizability, races, memory errors). Every second round samples one of the variant's
// built-in model clients instead, each in turn, with a quarter of a scenario's draws (shapes the
// generator does not make: a thief stealing from a thief's deque, size_hint, a deque destroyed
// under a thief; --no-clients: generated scenarios only); with --client, that client alone.
// --capacity sets the deque's initial capacity (default the variant's, else 4); --site runs a
// mutant (a site's order replaced, as `stealcheck model --site`). The run prints its seed and the
// command that repeats it; on a terminal, a status line (harness/progress.hpp). Exit 0 when the
// budget ends with no bug (not exhaustive), 1 on a bug (its scenario, minimized, its report and the
// command that repeats that scenario alone; stress/fuzz_report.hpp), 2 on bad input (one error
// line). docs/fuzzing.md says what each strategy guarantees.
//
// Thread role: the process's main thread (with --jobs, J threads it starts and joins).
// Source: C11Tester's sampling (Luo and Demsky, ASPLOS 2021), PCT (Burckhardt et al., ASPLOS
// 2010) as PCTWM adapts it (Gao et al., ASPLOS 2023), greybox fuzzing by reads-from coverage
// as RFF (Wolff et al., ASPLOS 2024), over stealcheck's own explorer (models/explore/).
#pragma once

#include <cstdint>
#include <optional>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/stress/scenario.hpp"

namespace CLI {
class App;
}

namespace stealcheck::stress::fuzz {

/// The size of a generated scenario.
struct sizes {
  int thieves = 4;  ///< thief threads (1 .. 7: the model runs at most 8 threads)
  int ops = 12;     ///< the owner's operations while the thieves run
  int steals = 4;   ///< each thief's steals
  int prefix = 4;   ///< the owner's operations before the thieves start
  /// the deque's initial capacity (0: the variant's variant_info::capacity, else 4)
  std::int64_t capacity = 0;
  /// thieves also steal from each other's own deques (steal@N steps): unset, on for a
  /// batch-stealing variant; set, as given (true only on batch-stealing variants)
  std::optional<bool> steal_from_thieves;
};

/// Whether generated scenarios of sizes `z` have steal@N steps: on a batch-stealing variant
/// (`batch`) unless z.steal_from_thieves is false (and only with two thieves or more).
inline bool steals_from_thieves(const sizes& z, bool batch) {
  return batch && z.steal_from_thieves.value_or(true) && z.thieves > 1;
}

/// The scenario of seed `seed`: pushes two times in three (the rest pops), each thief's step a
/// steal, or on a batch-stealing variant a batch steal one time in three; with
/// steals_from_thieves(z, batch), a steal is then a steal from another thief's
/// deque one time in four (a stream of its own: the rest of the scenario stays as without),
/// repaired to a valid scenario (lincheck::repair_thief_steps). The same seed and sizes give
/// the same scenario on every machine (splitmix64).
lincheck::scenario random_scenario(std::uint64_t seed, const sizes& z, bool batch);

void add_fuzz_command(CLI::App& app, int& exit_code);

/// The `fuzz` checker: one unit, `rc11` (the conformance suite's MyDeque.fuzz_rc11): generated
/// scenarios of the default sizes, drawn until STEALCHECK_FUZZ_EXECUTIONS executions (default
/// 2,000 times the scale in percent / 100, at least 100) from the seed of verify_options, so a
/// run is deterministic; a bug fails the unit with the minimized scenario's report and the
/// `fuzz --scenario` command that repeats it. Variants without a scenario binding or model
/// backend have no unit.
harness::checker checker();

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
