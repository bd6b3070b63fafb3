// stress/ledger.hpp: the conservation check of a native stress run, judged as values are pushed
// and taken, and forgotten once judged: its memory does not grow with the length of the run.
//
// Values are unique ids 0, 1, 2, ... in the order the owner pushes them. A `value_ledger`
// holds the state of each value (pushed and live, or taken and by whom) in a *window* of
// slots indexed by id modulo its size; a value whose slot still holds an older live value
// waits in a side table until taken. Each thread's `take_log` records what the thread took:
// its count, a fingerprint of the ids (a sum of a 64-bit mix of each id), the highest id, and
// the few takes that found no state to judge against. So a run needs memory for the window
// (8 MB by default), the live values beyond it and one log per thread, however long it runs.
//
// What is judged, and when:
// - As a take returns, where the verdict is certain: a value taken a second time (its first
//   taker's mark is seen in its slot), and a value the owner takes that it has not pushed yet.
//   The first such verdict is kept and written to the operation board (stress/oplog.hpp), so
//   a deque that goes on to loop or crash is reported by its first wrong result.
// - After the threads join and the deque is drained (`check`): a value taken above the ids
//   pushed (invented), a value still live (lost; named exactly: a live value keeps its state
//   until taken), and, for the values whose state was forgotten, the count and the fingerprint
//   of all takes against those of all pushes: they differ when some value was taken twice or
//   never, and match for a different multiset of ids with probability 2^-64.
// Two takes of one value that race past each other's mark are found by the count.
//
// Marks are read and written with relaxed loads and stores, plain moves on every target, so
// judging adds no fence between a thread's deque operations (the side table takes a lock, only
// for values beyond the window).
//
// Thread role: pushing()/pushed() on the owner, before and after each push; take_log::record()
// on the thread that owns the log; check() after all threads joined. Complexity: O(1) per push
// and take (the side table: O(1) expected under its lock); check() O(window + live values).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "stealcheck/detail/harness/verdict.hpp"

namespace stealcheck::stress {

/// How a value was taken, for the failure message.
enum class taker_kind : std::uint8_t { pop, steal, steal_into, drain };

struct take_record {
  std::uint64_t id;
  std::uint32_t thread;  // 0 = owner, 1.. = thieves
  taker_kind how;
};

std::string describe(const take_record& r);

class take_log;

/// The state of one run's values. See the top of this file.
class value_ledger {
 public:
  /// No bound known to the taker (thieves: what the owner pushed is not ordered before them).
  static constexpr std::uint64_t no_bound = std::numeric_limits<std::uint64_t>::max();
  /// Slots in the window by default: 2^20 (8 MB).
  static constexpr std::size_t default_window = std::size_t{1} << 20;

  /// `window` is rounded up to a power of two (at least 2). `duplicates_allowed`: the
  /// at_least_once spec (deques/spec.hpp) accepts a value taken more than once.
  explicit value_ledger(bool duplicates_allowed, std::size_t window = default_window);
  value_ledger(const value_ledger&) = delete;
  value_ledger& operator=(const value_ledger&) = delete;
  ~value_ledger();

  /// Owner, before the push that offers `id` (again, if an earlier push of it was refused).
  void pushing(std::uint64_t id);
  /// Owner, after the push of `id` succeeded.
  void pushed(std::uint64_t id) noexcept;

  /// The first verdict judged as a take returned ("" while none), e.g. "value 3 was taken twice:
  /// owner pop, then thief 1 steal (judged as it returned)". Thread role: after the join.
  const std::string& verdict() const noexcept { return verdict_; }
  /// The kind of that verdict (a value taken twice or invented). Thread role: after the join.
  failure_kind verdict_kind() const noexcept { return verdict_kind_; }

  /// Judges the takes recorded in `l` from now on. Thread role: before the takers start.
  void attach(take_log& l);
  /// Owner: how many of the `pushed` values no thread has taken yet, as far as the owner sees
  /// (each log publishes its count of takes with a relaxed store, so this may run behind).
  std::uint64_t live(std::uint64_t pushed) const noexcept;

  /// After the join: nullopt if every pushed id was taken exactly once (at least once when
  /// duplicates are allowed) and nothing else was taken; else one line naming the offending
  /// value, e.g. "value 4711 was lost: pushed, never taken, not in the final drain".
  std::optional<harness::fault> check(std::uint64_t pushed);

  /// The memory the ledger holds now, in bytes (the window and the side table).
  std::size_t bytes() const;

 private:
  friend class take_log;
  void judge(const take_record& r, std::uint64_t pushed_bound, take_log& log);
  void set_verdict(const harness::fault& found);
  std::atomic<std::uint64_t>& slot(std::uint64_t id) noexcept { return slots_[id & mask_]; }

  std::vector<take_log*> logs_;
  std::vector<std::atomic<std::uint64_t>> slots_;
  std::uint64_t mask_;
  bool duplicates_allowed_;
  std::mutex side_mutex_;
  std::unordered_map<std::uint64_t, std::uint64_t> side_;  // id -> live word, beyond the window
  std::uint64_t pushes_ = 0, push_fingerprint_ = 0;        // owner only
  std::size_t reported_bytes_ = 0;                         // on the operation board
  std::atomic<bool> judged_{false};
  std::string verdict_;
  failure_kind verdict_kind_ = failure_kind::wrong_result;
};

/// One thread's record of what it took, judged by the ledger it is attached to.
class take_log {
 public:
  /// At most this many takes a log keeps that found no state to judge against (a deque that
  /// hands out values it did not get from a push); beyond them only the count and fingerprint.
  static constexpr std::size_t max_unresolved = std::size_t{1} << 16;

  take_log() = default;
  take_log(const take_log&) = delete;
  take_log& operator=(const take_log&) = delete;
  value_ledger* ledger() const noexcept { return ledger_; }
  /// `pushed_bound`: ids at or above it are not pushed as far as the taker knows (the owner:
  /// its own count of pushes), else value_ledger::no_bound.
  void record(std::uint64_t id, std::uint32_t thread, taker_kind how,
              std::uint64_t pushed_bound = value_ledger::no_bound);
  std::uint64_t takes() const noexcept { return takes_; }

 private:
  friend class value_ledger;
  value_ledger* ledger_ = nullptr;
  std::uint64_t takes_ = 0, fingerprint_ = 0;
  std::atomic<std::uint64_t> published_takes_{0};  // takes_, for value_ledger::live()
  std::optional<take_record> highest_;             // the take of the highest id
  std::vector<take_record> unresolved_;   // takes whose state was not in the window or side
  std::uint64_t unresolved_dropped_ = 0;  // beyond max_unresolved
};

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
