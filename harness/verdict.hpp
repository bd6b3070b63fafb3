// harness/verdict.hpp: the one wording of a value that a deque did not conserve, which every
// checker uses (the stress ledger, the model checker's histories and clients, lincheck), so that
// a user reads the same line whichever checker found it and a test can ask which fault it was.
//
// Three faults, whatever the spec: a value returned by two takes (not a fault under the
// at_least_once spec, deques/spec.hpp), a value returned that no push pushed, and a value pushed
// that no take returned and the owner's final drain did not find.
//
// Thread role: any (pure functions). Complexity: O(length of the text).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace stealcheck::harness {

enum class value_fault : std::uint8_t {
  taken_twice,  ///< returned by two takes
  invented,     ///< returned, never pushed
  lost,         ///< pushed, never returned, not in the final drain
};

/// The fault's words after "value V was ": "taken twice", "never pushed (invented)", "lost".
constexpr std::string_view value_fault_words(value_fault f) noexcept {
  switch (f) {
    case value_fault::taken_twice:
      return "taken twice";
    case value_fault::invented:
      return "never pushed (invented)";
    case value_fault::lost:
      return "lost";
  }
  return "?";
}

/// "value V was taken twice", "value V was never pushed (invented)" or "value V was lost",
/// then ": " and `how` when `how` is not empty (who took it, or where it was looked for).
template <std::integral V>
std::string value_fault_text(value_fault f, V v, std::string_view how = {}) {
  std::string s = "value " + std::to_string(v) + " was " + std::string(value_fault_words(f));
  if (!how.empty()) s.append(": ").append(how);
  return s;
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
