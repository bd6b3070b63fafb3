// deques/overflow_queue.hpp: the mutex-protected FIFO that a bounded run queue spills into
// when full (Tokio's inject queue, tokio/src/runtime/scheduler/inject; Go's global run queue,
// runtime/proc.go globrunqput and globrunqget under sched.lock), for the variants that model
// one (deques/tokio.hpp, deques/go.hpp).
//
// Thread role: any. push and push_locked by the deque's owner; pop and steal by whoever takes.
// Values: the deque's stored form (its Codec: a value, or a box pointer), decoded on the way
// out; the queue's own storage is a std::deque under the lock (Mem::nonatomic, so the model
// checker checks that every access is under it). Complexity: O(1) amortised plus the lock;
// blocking.
#pragma once

#include <deque>
#include <mutex>
#include <optional>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::detail {

template <class T, class Mem, class Codec>
class overflow_queue {
 public:
  using stored = typename Codec::stored;

  overflow_queue() = default;
  overflow_queue(const overflow_queue&) = delete;
  overflow_queue& operator=(const overflow_queue&) = delete;
  /// Requires: no operation is running. Destroys the values still queued.
  ~overflow_queue() {
    for (const stored s : items_.read())
      Codec::discard(s);
  }

  /// The lock, not yet taken (std::defer_lock): a deque that must hold it across more than one
  /// push (a spill of a batch) takes it and calls push_locked.
  std::unique_lock<typename Mem::mutex> guard() { return {mutex_, std::defer_lock}; }

  /// Requires: the caller holds guard().
  void push_locked(stored s) { items_.write().push_back(s); }

  /// Appends one value under the lock.
  void push(stored s) {
    std::scoped_lock lock(mutex_);
    push_locked(s);
  }

  /// The oldest value, or nullopt when empty.
  std::optional<T> pop() {
    std::scoped_lock lock(mutex_);
    std::optional<stored> s = take_locked();
    if (!s) return std::nullopt;
    return Codec::decode(*s);
  }

  /// The oldest value as a steal; when the queue is empty, `ring_empty()` is called while the
  /// lock is still held (nothing can enter the queue meanwhile): empty if it returns true,
  /// else abort (the deque's ring gained an item since the caller looked).
  template <class RingEmpty>
  steal_result<T> steal(RingEmpty ring_empty) {
    std::scoped_lock lock(mutex_);
    if (std::optional<stored> s = take_locked()) return steal_result<T>::item(Codec::decode(*s));
    return ring_empty() ? steal_result<T>::empty() : steal_result<T>::abort();
  }

 private:
  std::optional<stored> take_locked() {
    auto& items = items_.write();
    if (items.empty()) return std::nullopt;
    const stored s = items.front();
    items.pop_front();
    return s;
  }

  typename Mem::mutex mutex_{"overflow_mutex"};
  typename Mem::template nonatomic<std::deque<stored>> items_{named{"overflow"}};
};

}  // namespace stealcheck::detail
// SPDX-License-Identifier: Apache-2.0
