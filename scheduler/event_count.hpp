// scheduler/event_count.hpp: where idle workers sleep, and how they are woken without a lost
// wake-up.
//
// One 32-bit word, so std::atomic<uint32_t>::wait/notify map straight onto a futex in
// libstdc++ 12: bits 0-7 count registered sleepers, bit 8 says "a throttled wake is in flight"
// (at most one hint_one() wake-up outstanding), bits 9-31 are an epoch that every wake-up bumps.
//
// Protocol (Vyukov's event count; folly::EventCount has the same shape):
//   sleeper:  key = prepare_wait();  if (condition visible) cancel_wait(); else wait(key);
//   waker:    make the condition true;  notify_one() / notify_all()
// Both prepare_wait() and the notify_* calls are read-modify-writes of the same word with
// acq_rel order, so they are totally ordered in its modification order:
//   - if the waker's RMW comes first, the sleeper's RMW reads from it (or a later RMW of its
//     release sequence) and synchronizes with it: the condition the waker made true before its
//     RMW is visible to the sleeper's check, which then does not sleep;
//   - if the sleeper's RMW comes first, the waker's RMW sees the sleeper counted and bumps the
//     epoch after it, so the word differs from `key` and wait(key) returns or is woken.
// Either way no sleeper misses a notify_one()/notify_all() issued after its condition became
// true. hint_one() is the cheap variant for the hot path: a relaxed load, and a wake-up only if a
// sleeper is registered and no throttled wake is already in flight; it may miss a sleeper that
// registers concurrently (callers only use it where a miss costs parallelism, not progress; see
// scheduler/pool.hpp).
// Limits: at most 255 sleepers; the 23-bit epoch wraps after 8M wake-ups, so a sleeper that sits
// between prepare_wait() and the futex call while exactly 2^23 wake-ups happen could sleep once
// more than needed (not a correctness issue for the pool, whose waits are re-checked).
//
// Thread role: any. Complexity: O(1) plus one futex system call when a sleeper is woken.
// Source: D. Vyukov, "Eventcount" (comp.programming.threads, 2008); C++20 [atomics.wait].
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>

namespace stealcheck::scheduler {

class event_count {
 public:
  static constexpr std::uint32_t waiter_one = 1;
  static constexpr std::uint32_t waiter_mask = 0xff;
  static constexpr std::uint32_t signalled = 0x100;
  static constexpr std::uint32_t epoch_one = 0x200;
  static constexpr std::uint32_t epoch_mask = ~(epoch_one - 1);

  /// Thread role: the would-be sleeper. Registers it; returns the key to pass to wait().
  std::uint32_t prepare_wait() noexcept {
    // acq_rel: pairs with the RMW of notify_*(): see the file comment (either order is safe).
    const std::uint32_t old = word_.fetch_add(waiter_one, std::memory_order_acq_rel);
    assert((old & waiter_mask) != waiter_mask && "event_count: more than 255 sleepers");
    return old + waiter_one;
  }

  /// Thread role: the registered sleeper, if the condition became visible. Unregisters.
  void cancel_wait() noexcept { leave(); }

  /// Thread role: the registered sleeper. Blocks until the word differs from `key` (a wake-up
  /// was issued after prepare_wait()): returns only once the epoch moved, then unregisters. The
  /// caller still re-checks its condition (a wake-up may be meant for another sleeper).
  void wait(std::uint32_t key) noexcept {
    // Only an epoch change is a wake-up: another sleeper registering or leaving changes the low
    // bits, and returning on that would let two idle workers wake each other forever (each
    // return means another spin before the next park).
    std::uint32_t seen = key;
    do {
      // relaxed (both): the wait only decides when to look again; what the sleeper then reads
      // is ordered by the deques' and the injection queue's own synchronization.
      word_.wait(seen, std::memory_order_relaxed);
      seen = word_.load(std::memory_order_relaxed);
    } while ((seen & epoch_mask) == (key & epoch_mask));
    leave();
  }

  /// Thread role: any. Wakes one sleeper if any is registered (strict: never misses a sleeper
  /// whose prepare_wait() precedes this call in the word's modification order).
  void notify_one() noexcept { notify(false); }
  /// Thread role: any. Wakes every registered sleeper (strict, as notify_one()).
  void notify_all() noexcept { notify(true); }

  /// Thread role: any; the hot path after a push. Wakes one sleeper if one is registered and no
  /// throttled wake-up is in flight. Not strict: see the file comment.
  void hint_one() noexcept {
    // relaxed: a hint; a stale value only delays a wake-up until the next hint (see file comment).
    std::uint32_t v = word_.load(std::memory_order_relaxed);
    if ((v & waiter_mask) == 0 || (v & signalled) != 0) return;
    // relaxed: the CAS only throttles; strictness is not claimed for hint_one().
    if (word_.compare_exchange_strong(v, (v + epoch_one) | signalled, std::memory_order_relaxed)) {
      word_.notify_one();
    }
  }

  /// Thread role: any. The raw word (a snapshot; for tests and diagnostics).
  std::uint32_t snapshot() const noexcept {
    return word_.load(std::memory_order_relaxed);  // relaxed: a snapshot
  }

  /// Thread role: any. Registered sleepers right now (a snapshot).
  std::uint32_t sleepers() const noexcept {
    return word_.load(std::memory_order_relaxed) & waiter_mask;  // relaxed: a snapshot
  }

 private:
  void notify(bool all) noexcept {
    // acq_rel: the release half publishes the condition the caller made true to a sleeper whose
    // prepare_wait() RMW comes later; the acquire half orders this RMW after an earlier
    // prepare_wait() (see the file comment). A plain load here could miss a sleeper.
    const std::uint32_t old = word_.fetch_add(epoch_one, std::memory_order_acq_rel);
    if ((old & waiter_mask) == 0) return;
    if (all) {
      word_.notify_all();
    } else {
      word_.notify_one();
    }
  }
  void leave() noexcept {
    // relaxed: unregistering (and clearing the throttle bit) publishes nothing; a waker that
    // still counts this sleeper only issues a spurious wake-up.
    std::uint32_t v = word_.load(std::memory_order_relaxed);
    while (
        !word_.compare_exchange_weak(v, (v - waiter_one) & ~signalled, std::memory_order_relaxed)) {
    }
  }

  std::atomic<std::uint32_t> word_{0};
};

}  // namespace stealcheck::scheduler
