// stress/ledger.hpp: the conservation check of a native stress run.
//
// Values are unique ids 0..pushed-1. Every thread appends what it took to its own log; after all
// threads join and the deque is drained, `check_conservation` verifies that every pushed id was
// taken exactly once and that no id was invented, and names the first offending value and who
// took it. While the run is hot, a `live_judge` attached to the logs judges each take as it
// returns, where it can do so without a false report: a value taken a second time (its first
// taker's mark is seen) and a value the owner takes that it has not pushed yet. The first such
// verdict is kept and written to the operation board (stress/oplog.hpp), so a deque that goes
// on to loop or crash is reported by its first wrong result.
//
// Thread role: record() on a log owned by the calling thread; check_conservation() after all
// threads join. Complexity: O(1) per record, O(pushed + taken) for check_conservation.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
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

std::string describe(const take_record& r);

/// Judges takes as they return. Each id below `ids` has a mark: 0, or who took it first. The
/// marks are read and written with relaxed loads and stores, plain moves on every target, so
/// judging adds no fence between a thread's deque operations; two takes of one value that race
/// past each other's mark are left to check_conservation. A verdict is only given when it is
/// certain: the second taker saw the first one's mark, or the owner took an id at or above
/// the count it pushed itself. The first verdict is kept (and set on the operation board).
class live_judge {
 public:
  /// No bound known to the taker (thieves: what the owner pushed is not ordered before them).
  static constexpr std::uint64_t no_bound = std::numeric_limits<std::uint64_t>::max();
  live_judge(std::uint64_t ids, bool duplicates_allowed)
      : marks_(static_cast<std::size_t>(ids)), duplicates_allowed_(duplicates_allowed) {}
  /// Thread role: the taker. `pushed_bound`: ids below it are pushed as far as the taker
  /// knows (the owner: its own count of pushes), else no_bound.
  void judge(const take_record& r, std::uint64_t pushed_bound);
  /// The first verdict ("" while none), e.g. "value 3 taken twice: owner pop, then thief 1
  /// steal (judged as it returned)". Thread role: after the takers joined.
  const std::string& verdict() const noexcept { return verdict_; }

 private:
  std::vector<std::atomic<std::uint32_t>> marks_;
  bool duplicates_allowed_;
  std::atomic<bool> judged_{false};
  std::string verdict_;
};

/// One thread's log of taken values, judged as they are recorded when a judge is attached.
class take_log {
 public:
  void attach(live_judge* j) noexcept { judge_ = j; }
  /// `pushed_bound`: see live_judge::judge.
  void record(std::uint64_t id, std::uint32_t thread, taker_kind how,
              std::uint64_t pushed_bound = live_judge::no_bound) {
    records_.push_back({id, thread, how});
    if (judge_ != nullptr) judge_->judge(records_.back(), pushed_bound);
  }
  const std::vector<take_record>& records() const noexcept { return records_; }
  void reserve(std::size_t n) { records_.reserve(n); }

 private:
  std::vector<take_record> records_;
  live_judge* judge_ = nullptr;
};

/// Checks conservation: each id in [0, pushed) taken exactly once (at least once when
/// `duplicates_allowed`: the at_least_once spec, deques/spec.hpp), nothing else taken.
/// Returns nullopt if conserved, else one line naming the offending value, e.g.
/// "value 4711 taken twice: owner pop and thief 2 steal".
std::optional<std::string> check_conservation(std::uint64_t pushed,
                                              const std::vector<const take_log*>& logs,
                                              bool duplicates_allowed = false);

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
