// stress/ledger.hpp: the conservation check of a native stress run.
//
// Values are unique ids 0..pushed-1. Every thread appends what it took to its own log (no
// sharing while the run is hot); after all threads join and the deque is drained, `check`
// verifies that every pushed id was taken exactly once and that no id was invented, and names
// the first offending value and who took it.
//
// Thread role: record() on a log owned by the calling thread; check() after all threads join.
// Complexity: O(1) per record, O(pushed + taken) for check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stealcheck::stress {

/// How a value was taken, for the failure message.
enum class taker_kind : std::uint8_t { pop, steal, steal_into, drain };

struct take_record {
  std::uint64_t id;
  std::uint32_t thread;  // 0 = owner, 1.. = thieves
  taker_kind how;
};

/// One thread's log of taken values.
class take_log {
 public:
  void record(std::uint64_t id, std::uint32_t thread, taker_kind how) {
    records_.push_back({id, thread, how});
  }
  const std::vector<take_record>& records() const noexcept { return records_; }
  void reserve(std::size_t n) { records_.reserve(n); }

 private:
  std::vector<take_record> records_;
};

std::string describe(const take_record& r);

/// Checks conservation: each id in [0, pushed) taken exactly once (at least once when
/// `duplicates_allowed`: the at_least_once spec, deques/spec.hpp), nothing else taken.
/// Returns nullopt if conserved, else one line naming the offending value, e.g.
/// "value 4711 taken twice: owner pop and thief 2 steal".
std::optional<std::string> check_conservation(std::uint64_t pushed,
                                              const std::vector<const take_log*>& logs,
                                              bool duplicates_allowed = false);

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
