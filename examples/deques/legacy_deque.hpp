// deques/legacy_deque.hpp: a deque written as much existing code is, with plain atomics and no
// memory backend: a bounded Chase-Lev ring (Arora, Blumofe and Plaxton's deque with Chase and Lev's
// indices; the C11 orders of Le et al., PPoPP 2013). The only edit that makes it checkable is
// std::atomic -> stealcheck::atomic and std::atomic_thread_fence -> stealcheck::atomic_thread_fence
// (stealcheck/atomic.hpp): natively they are std::'s; compiled with -DSTEALCHECK_MODEL=1 they
// are the model checker's. One source, two test binaries (tests/legacy_test.cpp).
//
// Thread role: push/pop the owner only; steal any thread. Values: T trivially copyable, at
// most 8 bytes. push returns false when the ring is full. pop: nullopt when empty; steal: item,
// empty, or abort (lost a race). Complexity: O(1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stealcheck/atomic.hpp>
#include <stealcheck/deque.hpp>

#include "deques/deque.hpp"

namespace example {

template <class T, std::int64_t Capacity = 8>
class legacy_deque {
  static_assert(is_pow2(Capacity), "Capacity must be a power of two");

 public:
  using value_type = T;

  bool push(T v) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);  // only the owner stores it
    const std::int64_t t =
        top_.load(std::memory_order_acquire);  // pairs with steal's CAS: slot t-1 was read
    if (b - t >= Capacity) return false;
    slots_[b & (Capacity - 1)].store(v, std::memory_order_relaxed);  // published by the fence below
    stealcheck::atomic_thread_fence(
        std::memory_order_release);                   // pairs with steal's acquire load of bottom
    bottom_.store(b + 1, std::memory_order_relaxed);  // ordered after the slot by the fence above
    return true;
  }

  std::optional<T> pop() {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    bottom_.store(b, std::memory_order_relaxed);  // ordered before the load of top by the fence
    stealcheck::atomic_thread_fence(
        std::memory_order_seq_cst);  // SB with steal's fence: both see each other
    std::int64_t t = top_.load(std::memory_order_relaxed);  // ordered by the fence above
    if (t > b) {
      bottom_.store(b + 1, std::memory_order_relaxed);
      return std::nullopt;
    }
    const T v = slots_[b & (Capacity - 1)].load(std::memory_order_relaxed);  // the owner wrote it
    if (t == b) {
      // seq_cst: one total order with steal's CAS on top decides who takes the last item
      const bool won = top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                                    std::memory_order_relaxed);
      bottom_.store(b + 1, std::memory_order_relaxed);
      if (!won) return std::nullopt;
    }
    return v;
  }

  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(std::memory_order_acquire);  // pairs with other thieves' CAS of top
    stealcheck::atomic_thread_fence(std::memory_order_seq_cst);  // SB with pop's fence
    const std::int64_t b =
        bottom_.load(std::memory_order_acquire);  // pairs with push's release fence
    if (t >= b) return stealcheck::steal_result<T>::empty();
    const T v =
        slots_[t & (Capacity - 1)].load(std::memory_order_relaxed);  // published by push's fence
    // seq_cst: one total order with pop's CAS on top; relaxed on failure: nothing is read
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed))
      return stealcheck::steal_result<T>::abort();
    return stealcheck::steal_result<T>::item(v);
  }

 private:
  stealcheck::atomic<std::int64_t> top_{0};
  stealcheck::atomic<std::int64_t> bottom_{0};
  std::array<stealcheck::atomic<T>, Capacity> slots_{};
};

}  // namespace example
// SPDX-License-Identifier: Apache-2.0
