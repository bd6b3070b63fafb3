// scheduler/event_count.hpp: where idle workers sleep, and how they are woken without a lost
// wake-up. basic_event_count<Mem, Sites> is written against a memory backend (deques/memory.hpp)
// with every memory order a named site (event_count_sites), so the same source runs in the pool
// (event_count = basic_event_count<native_memory>: std::atomic, the same code as hand-written)
// and under the model checker (scheduler/model_clients.hpp: `stealcheck model sched`).
//
// One 32-bit word, so std::atomic<uint32_t>::wait/notify map straight onto a futex in
// libstdc++ 12: bits 0-7 count registered sleepers, bit 8 says "a throttled wake is in flight"
// (at most one hint_one() wake-up outstanding), bits 9-31 are an epoch that every wake-up bumps.
//
// Protocol (Vyukov's event count; folly::EventCount has the same shape):
//   sleeper:  key = prepare_wait();  if (condition visible) cancel_wait(); else wait(key);
//   waker:    make the condition true;  notify_one() / notify_all()
// Both prepare_wait() (an acquire RMW) and the notify_* calls (release RMWs) are
// read-modify-writes of the same word, so they are totally ordered in its modification order:
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
// Thread role: any. Memory ordering: the acquire and the release RMW above (event_count_sites says,
// site by site, what each order pairs with). Complexity: O(1) plus one futex system call when a
// sleeper is woken. Under the model checker a wait is a blocking read (models/runtime/memory.hpp):
// a lost wake-up ends an execution with a thread blocked on a word that never changes, a deadlock.
// Source: D. Vyukov, "Eventcount" (comp.programming.threads, 2008); C++20 [atomics.wait].
#pragma once

#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <string_view>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::scheduler {

/// The memory-order sites of the event count (deques/memory.hpp, "site").
struct event_count_sites {
  static constexpr std::string_view variant = "event_count";
  using mo = std::memory_order;
  static constexpr site prepare_rmw{
      "event_count::prepare_wait.rmw", mo::acquire, site_kind::rmw,
      "pairs with notify.rmw: reads the condition a waker made true before an earlier notify; "
      "relaxed lets a sleeper miss it and sleep forever (killed in shutdown_parking.chase_lev: "
      "deadlock); no release: a waker reads nothing of the sleeper's but its count in the word"};
  static constexpr site notify_rmw{
      "event_count::notify.rmw", mo::release, site_kind::rmw,
      "pairs with prepare_wait.rmw: publishes the condition to a later sleeper; relaxed lets "
      "that sleeper miss it and sleep forever (killed in shutdown_parking.chase_lev: deadlock); "
      "no acquire: a waker reads nothing of a sleeper's but its count in the word"};
  static constexpr site wait_wait{
      "event_count::wait.wait", mo::relaxed, site_kind::load,
      "only decides when to look again: what the sleeper then reads is ordered by the deques' "
      "and the injection queue's own synchronization"};
  static constexpr site wait_load{"event_count::wait.load", mo::relaxed, site_kind::load,
                                  "as wait.wait: an epoch change is all it looks for"};
  static constexpr site leave_load{"event_count::leave.load", mo::relaxed, site_kind::load,
                                   "the CAS below re-reads the word"};
  static constexpr site leave_cas{
      "event_count::leave.cas", mo::relaxed, site_kind::rmw,
      "unregistering publishes nothing; a waker that still counts this sleeper only issues a "
      "spurious wake-up"};
  static constexpr site leave_cas_failure{"event_count::leave.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "retried with the value read"};
  static constexpr site hint_load{
      "event_count::hint_one.load", mo::relaxed, site_kind::load,
      "a hint: a stale value only delays a wake-up until the next hint (not strict)"};
  static constexpr site hint_cas{"event_count::hint_one.cas", mo::relaxed, site_kind::rmw,
                                 "only throttles wake-ups; hint_one() claims no strictness"};
  static constexpr site hint_cas_failure{"event_count::hint_one.cas_failure", mo::relaxed,
                                         site_kind::cas_failure, "a lost race skips the wake-up"};
  static constexpr site snapshot_load{"event_count::snapshot.load", mo::relaxed, site_kind::load,
                                      "a snapshot for tests and statistics"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::prepare_rmw, &S::notify_rmw,       &S::wait_wait,         &S::wait_load,
                      &S::leave_load,  &S::leave_cas,        &S::leave_cas_failure, &S::hint_load,
                      &S::hint_cas,    &S::hint_cas_failure, &S::snapshot_load};
  }
};

/// The event count of the file comment, on memory backend Mem with the orders of Sites.
template <class Mem = native_memory, class Sites = event_count_sites>
class basic_event_count {
 public:
  static constexpr std::uint32_t waiter_one = 1;
  static constexpr std::uint32_t waiter_mask = 0xff;
  static constexpr std::uint32_t signalled = 0x100;
  static constexpr std::uint32_t epoch_one = 0x200;
  static constexpr std::uint32_t epoch_mask = ~(epoch_one - 1);

  /// Thread role: the would-be sleeper. Registers it; returns the key to pass to wait().
  std::uint32_t prepare_wait() {
    // acquire (prepare_wait.rmw): pairs with notify.rmw; see the file comment.
    const std::uint32_t old = word_.fetch_add(waiter_one, Mem::order(Sites::prepare_rmw));
    assert((old & waiter_mask) != waiter_mask && "event_count: more than 255 sleepers");
    return old + waiter_one;
  }

  /// Thread role: the registered sleeper, if the condition became visible. Unregisters.
  void cancel_wait() { leave(); }

  /// Thread role: the registered sleeper. Blocks until the word differs from `key` (a wake-up
  /// was issued after prepare_wait()): returns only once the epoch moved, then unregisters. The
  /// caller still re-checks its condition (a wake-up may be meant for another sleeper).
  void wait(std::uint32_t key) {
    // Only an epoch change is a wake-up: another sleeper registering or leaving changes the low
    // bits, and returning on that would let two idle workers wake each other forever (each
    // return means another spin before the next park).
    std::uint32_t seen = key;
    do {
      // relaxed (wait.wait, wait.load): pairs with nothing; the wait only decides when to look
      // again (see the sites).
      word_.wait(seen, Mem::order(Sites::wait_wait));
      seen = word_.load(Mem::order(Sites::wait_load));
    } while ((seen & epoch_mask) == (key & epoch_mask));
    leave();
  }

  /// Thread role: the would-be sleeper. The sleeper's side of the protocol in one call:
  /// registers, returns false at once if ready() holds (checked after registering, so a waker
  /// that made it true before its notify is seen), else calls on_sleep() and waits for a
  /// wake-up (true). The caller re-checks its condition either way.
  template <class Ready, class OnSleep>
  bool sleep_unless(Ready&& ready, OnSleep&& on_sleep) {
    const std::uint32_t key = prepare_wait();
    if (ready()) {
      cancel_wait();
      return false;
    }
    on_sleep();
    wait(key);
    return true;
  }

  /// Thread role: any. Wakes one sleeper if any is registered (strict: never misses a sleeper
  /// whose prepare_wait() precedes this call in the word's modification order).
  void notify_one() { notify(false); }
  /// Thread role: any. Wakes every registered sleeper (strict, as notify_one()).
  void notify_all() { notify(true); }

  /// Thread role: any; the hot path after a push. Wakes one sleeper if one is registered and no
  /// throttled wake-up is in flight. Not strict: see the file comment.
  void hint_one() {
    // relaxed (hint_one.load): a hint; a stale value only delays a wake-up (see the site).
    std::uint32_t v = word_.load(Mem::order(Sites::hint_load));
    if ((v & waiter_mask) == 0 || (v & signalled) != 0) [[likely]]
      return;
    wake_one_hinted(v);
  }

  /// Thread role: any. The raw word (a snapshot; for tests and diagnostics).
  std::uint32_t snapshot() const {
    return word_.load(Mem::order(Sites::snapshot_load));  // relaxed: a snapshot
  }

  /// Thread role: any. Registered sleepers right now (a snapshot).
  std::uint32_t sleepers() const { return snapshot() & waiter_mask; }

 private:
  // hint_one()'s wake-up, out of line: the hot path is the load and the test.
  [[gnu::noinline]] void wake_one_hinted(std::uint32_t v) {
    // relaxed (hint_one.cas): only throttles; strictness is not claimed for hint_one().
    if (word_.compare_exchange_strong(v, (v + epoch_one) | signalled, Mem::order(Sites::hint_cas),
                                      Mem::order(Sites::hint_cas_failure))) {
      word_.notify_one();
    }
  }

  void notify(bool all) {
    // release (notify.rmw): publishes the condition the caller made true to a sleeper whose
    // prepare_wait() RMW comes later; an earlier prepare_wait() is seen by atomicity alone (the
    // RMW reads its count; see the file comment). A plain load here could miss a sleeper.
    const std::uint32_t old = word_.fetch_add(epoch_one, Mem::order(Sites::notify_rmw));
    if ((old & waiter_mask) == 0) return;
    if (all) {
      word_.notify_all();
    } else {
      word_.notify_one();
    }
  }
  void leave() {
    // relaxed (leave.load, leave.cas): unregistering (and clearing the throttle bit) publishes
    // nothing; a waker that still counts this sleeper only issues a spurious wake-up. A strong
    // CAS: under the model checker a weak one's spurious failures would each be an execution.
    std::uint32_t v = word_.load(Mem::order(Sites::leave_load));
    while (!word_.compare_exchange_strong(v, (v - waiter_one) & ~signalled,
                                          Mem::order(Sites::leave_cas),
                                          Mem::order(Sites::leave_cas_failure))) {
    }
  }

  typename Mem::template atomic<std::uint32_t> word_{0, "event_count"};
};

/// The pool's event count: std::atomic, orders as written.
using event_count = basic_event_count<>;

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
