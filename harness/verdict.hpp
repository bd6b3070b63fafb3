// harness/verdict.hpp: the one wording of a value that a deque did not conserve, which every
// checker uses (the stress ledger, the model checker's histories and clients, lincheck), so that
// a user reads the same line whichever checker found it and a test can ask which fault it was.
//
// Three faults, whatever the spec (the first three kinds of deques/failure.hpp): a value returned
// by two takes (not a fault under the at_least_once spec, deques/spec.hpp), a value returned that
// no push pushed, and a value pushed that no take returned and the owner's final drain did not
// find.
//
// Thread role: any (pure functions). Complexity: O(length of the text).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "stealcheck/detail/deques/failure.hpp"

namespace stealcheck::harness {

/// The conservation kinds of deques/failure.hpp: value_taken_twice, value_invented, value_lost.
constexpr bool is_value_fault(failure_kind f) noexcept {
  return f == failure_kind::value_taken_twice || f == failure_kind::value_invented ||
         f == failure_kind::value_lost;
}

/// The fault's words after "value V was ": "taken twice", "never pushed (invented)", "lost".
constexpr std::string_view value_fault_words(failure_kind f) noexcept {
  switch (f) {
    case failure_kind::value_taken_twice:
      return "taken twice";
    case failure_kind::value_invented:
      return "never pushed (invented)";
    case failure_kind::value_lost:
      return "lost";
    default:
      return "?";
  }
}

/// "value V was taken twice", "value V was never pushed (invented)" or "value V was lost",
/// then ": " and `how` when `how` is not empty (who took it, or where it was looked for).
/// Requires: is_value_fault(f).
template <std::integral V>
std::string value_fault_text(failure_kind f, V v, std::string_view how = {}) {
  std::string s = "value " + std::to_string(v) + " was " + std::string(value_fault_words(f));
  if (!how.empty()) s.append(": ").append(how);
  return s;
}

/// A failure found: its kind (deques/failure.hpp) and its one line of text.
struct fault {
  failure_kind kind = failure_kind::wrong_result;
  std::string text;
};

/// value_fault_text as a fault of kind f. Requires: is_value_fault(f).
template <std::integral V>
fault value_fault(failure_kind f, V v, std::string_view how = {}) {
  return {f, value_fault_text(f, v, how)};
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
