// stress/certify.hpp: `stealcheck certify`, every scenario up to a bound, each explored
// exhaustively: a statement about the variant that anyone can rerun.
//
//   stealcheck certify VARIANT [--owner N] [--thieves K] [--steals M] [--prefix P]
//                      [--steal-from-thieves] [--site NAME=ORDER]... [--model rc11|sc]
//                      [--capacity C] [--jobs J] [--shard I/S] [--json FILE] [--markdown FILE]
//
// The bound: every scenario (stress/scenario.hpp) whose owner runs a prefix of at most P pushes
// and pops alone, then at most N pushes and pops while at most K thieves each run 1 to M steals
// (on a batch-stealing variant each step a steal or a batch steal); the i-th push pushes i, the
// owner drains the deque after joining. Scenarios that differ only in the order of their
// thieves are one class (the thieves are the same code, started one after another: renaming
// them maps each execution of one onto an execution of the other; docs/certify.md), counted
// and run once. With --steal-from-thieves (batch-stealing variants) a thief step may also be a
// steal@N from thief N's own deque (stress/scenario.hpp; N takes exactly one batch), and a class
// is closed under renaming the thieves with their steal@N targets. --site NAME=ORDER certifies
// a mutant (the site's order replaced, as `stealcheck model --site` does). Each class is explored
// exhaustively under the memory model (every consistent execution, no cap), and every execution
// checked as the model clients check theirs (values, the spec by hb-linearizability, races, memory
// errors, the event bound). Scenarios run smallest first, so a violation is reported with a
// smallest failing scenario, its report and the command that explores it alone; exit 1. Otherwise
// the certificate: the variant, its sites (a fingerprint of their names and orders), the stealcheck
// version, the model, the bound, the scenarios (generated, and classes after symmetry), the
// executions (complete, blocked), the time and the command; exit 0. Bad input: one error line,
// exit 2.
//
// --shard I/S runs the classes whose index modulo S is I (smallest first within the shard);
// `stealcheck merge` adds the S shards' --json files up to the whole certificate.
//
// Thread role: the process's main thread (with --jobs, J threads it starts and joins).
// Complexity: the sum over the classes of their executions (exponential in the scenario size).
// Source: the small-scope hypothesis as TLA+'s TLC and Alloy check bounded models (Jackson,
// "Software Abstractions", 2006); the exploration is stealcheck's exhaustive one (models/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stealcheck/detail/stress/scenario.hpp"

namespace CLI {
class App;
}

namespace stealcheck::stress::certify {

/// The bound of a certificate.
struct bound {
  int owner = 3;                    ///< the owner's operations while the thieves run (at most)
  int thieves = 2;                  ///< thief threads (at most)
  int steals = 2;                   ///< each thief's steps (1 .. steals)
  int prefix = 0;                   ///< the owner's operations before the thieves start (at most)
  bool steal_from_thieves = false;  ///< batch stealers: steps may steal@N (another's deque)
};

/// The number of scenarios within b before symmetry (thieves in every order), saturating; with
/// steal_from_thieves (and `batch`) an upper bound: steal@N steps that valid_thief_steps
/// refuses are counted too.
std::uint64_t scenario_count(const bound& b, bool batch);

/// The scenarios within b, one per class of thief symmetry, smallest first (fewest steps, then
/// by their text); `generated`, when given, is set to the scenarios before symmetry. With
/// steal_from_thieves (and `batch`) only scenarios valid_thief_steps accepts are in the bound,
/// and a class is every renaming of its thieves (steal@N renamed with them). Complexity: the
/// classes' number times their size; with steal_from_thieves also every ordered tuple of thief
/// sequences times the thieves' permutations.
std::vector<lincheck::scenario> scenarios(const bound& b, bool batch,
                                          std::uint64_t* generated = nullptr);

void add_certify_command(CLI::App& app, int& exit_code);

}  // namespace stealcheck::stress::certify
// SPDX-License-Identifier: Apache-2.0
