// event_count.hpp: a user's event count, the sleep protocol of an idle worker (as in
// folly::EventCount and the parking of Tokio's and Go's schedulers), templated on stealcheck's
// memory backend so the same source runs natively and under the model checker.
//
// A waiter that found no work announces itself (prepare_wait), checks its condition once more,
// then either cancels or sleeps until the epoch moves (wait). A notifier first makes the
// condition true, then wakes the waiters (notify) -- and skips the wake-up when nobody has
// announced, which is what makes the protocol cheap. The two sides are a store-buffering pair:
// the waiter writes `waiters` and reads the condition, the notifier writes the condition and
// reads `waiters`. A seq_cst fence on each side between its write and its read makes at least
// one of them see the other (RC11: the fences are ordered in psc); without the notifier's,
// both can miss -- the waiter sleeps with nobody left to wake it (a lost wake-up).
// event_count_no_fence is that bug: the "fast path" notify that loads `waiters` unfenced.
//
// Thread role: prepare_wait/cancel_wait/wait by a waiting thread (any number), notify by any
// thread. Units: none (counts). Errors: none; wait returns only after a notify that followed
// its prepare_wait (or spuriously, natively, as std::atomic::wait may). Complexity: O(1) each.
#pragma once

#include <atomic>
#include <cstdint>
#include <stealcheck/deque.hpp>

namespace example {

template <class Mem = stealcheck::native_memory, bool FenceInNotify = true>
class event_count {
  template <class U>
  using atomic = typename Mem::template atomic<U>;

 public:
  using key = std::uint32_t;

  /// Announces a waiter; returns the epoch to wait on. The caller re-checks its condition next.
  key prepare_wait() {
    waiters_.fetch_add(1, std::memory_order_relaxed);  // ordered by the fence below
    Mem::fence(std::memory_order_seq_cst);  // partner: notify's fence (SB: one side sees the other)
    return epoch_.load(std::memory_order_acquire);  // pairs with notify's release fetch_add
  }
  /// The condition held after all: withdraw the announcement.
  void cancel_wait() {
    // relaxed: a count; a notifier that still sees this waiter only moves the epoch for nothing
    waiters_.fetch_sub(1, std::memory_order_relaxed);
  }
  /// Sleeps until the epoch is no longer k (a notify after prepare_wait moved it).
  void wait(key k) {
    epoch_.wait(k, std::memory_order_acquire);         // pairs with notify's release fetch_add
    waiters_.fetch_sub(1, std::memory_order_relaxed);  // a count, as in cancel_wait
  }
  /// Wakes every announced waiter; call after making the condition true.
  void notify() {
    // partner: prepare_wait's fence; without it the load of waiters below may miss a waiter
    // whose own load missed the condition (the lost wake-up of event_count_no_fence)
    if constexpr (FenceInNotify) Mem::fence(std::memory_order_seq_cst);
    if (waiters_.load(std::memory_order_relaxed) == 0) return;  // ordered by the fence above
    epoch_.fetch_add(1, std::memory_order_release);  // pairs with prepare_wait's, wait's acquire
    epoch_.notify_all();
  }

 private:
  atomic<key> epoch_{0};
  atomic<std::uint32_t> waiters_{0};
};

/// The bug: notify reads `waiters` without the fence.
template <class Mem = stealcheck::native_memory>
using event_count_no_fence = event_count<Mem, false>;

}  // namespace example
// SPDX-License-Identifier: Apache-2.0
