// stress/scenario.hpp: a concurrent scenario for linearizability checking.
//
// A scenario is: a sequential prefix run by the owner alone, then a parallel part where the
// owner runs its steps while each thief runs its own, then (after all threads join) a final
// drain by the owner (pop until empty), so that a lost value shows up as an illegal "empty".
// Values are assigned at run time: the i-th successful push pushes i. RapidCheck generates
// scenarios (stress/lincheck_run.hpp) on the main thread and shrinks failing ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stealcheck::stress::lincheck {

enum class owner_step : std::uint8_t { push, pop };
enum class thief_step : std::uint8_t { steal, steal_batch };

struct scenario {
  std::vector<owner_step> prefix;
  std::vector<owner_step> owner;
  std::vector<std::vector<thief_step>> thieves;
  friend bool operator==(const scenario&, const scenario&) = default;
};

/// The scenario's operations: the prefix's, the owner's and every thief's steps.
std::size_t steps(const scenario& s) noexcept;

/// "prefix [ push push ] owner [ pop push ] thief1 [ steal steal ] thief2 [ steal_batch ]"
std::string describe(const scenario& s);

/// The scenario `describe` wrote (spaces around the brackets optional; thieves numbered 1, 2,
/// ... in order), or nullopt with `error` naming the first word that does not fit.
std::optional<scenario> parse_scenario(std::string_view text, std::string& error);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
