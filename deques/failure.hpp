// deques/failure.hpp: the closed list of ways a deque can fail a check, whichever checker finds
// it. Every failing check result carries one (harness/checker.hpp, check_cell::kind), so a
// known-bad variant can declare the failure it must show (variant_info::must_show) and `verify`
// counts it as caught only when a checker shows that failure, not any failure: a known-bad that
// trips over a bug of the harness, or the wrong one of its own, is not caught.
//
// Thread role: any (plain values). Complexity: O(1).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace stealcheck {

/// What went wrong. The first three are conservation (the one wording of harness/verdict.hpp);
/// the next two what a spec forbids with every value conserved; the rest what the model checker
/// and the native runs see beyond the values.
enum class failure_kind : std::uint8_t {
  value_taken_twice,  ///< a value returned by two takes (the spec allows no duplicates)
  value_invented,     ///< a value returned that no push pushed, or more takes than pushes
  value_lost,         ///< a value pushed that no take returned and the final drain did not find
  not_linearizable,   ///< every value conserved, but no order of the operations meets the spec
  wrong_result,       ///< another check of a result failed (a size hint, a count, a flag)
  data_race,          ///< two plain accesses, one a write, not ordered by happens-before
  use_after_free,     ///< an access to freed memory, or one racing with the free
  double_free,        ///< memory freed twice, or never allocated
  leak,               ///< memory or a value never freed or destroyed
  deadlock,           ///< every thread waits: a mutex held, or a wait whose value never changes
  no_progress,        ///< a loop that may never end, or a run that stopped making progress
  exception,          ///< an exception escaped a thread
  crash,              ///< the run died (a signal, or the child process exited abnormally)
};

inline constexpr std::size_t failure_kinds = 13;

/// The kind's name as the CLI and the JSON print it: "value_lost", "data_race", ...
constexpr std::string_view failure_name(failure_kind k) noexcept {
  constexpr std::array<std::string_view, failure_kinds> names{"value_taken_twice",
                                                              "value_invented",
                                                              "value_lost",
                                                              "not_linearizable",
                                                              "wrong_result",
                                                              "data_race",
                                                              "use_after_free",
                                                              "double_free",
                                                              "leak",
                                                              "deadlock",
                                                              "no_progress",
                                                              "exception",
                                                              "crash"};
  const auto i = static_cast<std::size_t>(k);
  return i < names.size() ? names[i] : "?";
}

/// The kind named `name`, or nullopt.
constexpr std::optional<failure_kind> failure_from_name(std::string_view name) noexcept {
  for (std::size_t i = 0; i < failure_kinds; ++i)
    if (failure_name(static_cast<failure_kind>(i)) == name) return static_cast<failure_kind>(i);
  return std::nullopt;
}

/// A set of kinds (a known-bad's declaration: any one of them shown counts). Empty by default.
class failure_set {
 public:
  constexpr failure_set() noexcept = default;
  constexpr failure_set(std::initializer_list<failure_kind> ks) noexcept {
    for (const failure_kind k : ks)
      bits_ |= bit(k);
  }
  constexpr bool contains(failure_kind k) const noexcept { return (bits_ & bit(k)) != 0; }
  constexpr bool empty() const noexcept { return bits_ == 0; }
  /// The kinds' names joined with " or ", in the enum's order ("value_lost or data_race").
  std::string text() const {
    std::string s;
    for (std::size_t i = 0; i < failure_kinds; ++i) {
      if (!contains(static_cast<failure_kind>(i))) continue;
      if (!s.empty()) s += " or ";
      s += failure_name(static_cast<failure_kind>(i));
    }
    return s;
  }

 private:
  static constexpr std::uint32_t bit(failure_kind k) noexcept {
    return std::uint32_t{1} << static_cast<unsigned>(k);
  }
  std::uint32_t bits_ = 0;
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
