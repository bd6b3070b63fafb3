// riften.hpp: riften::Deque, a widely copied C++20 Chase-Lev deque, transcribed onto
// stealcheck's memory backend as it ships.
//
// Source: github.com/ConorWilliams/ConcurrentDeque, commit
// 1552c895c60b2ca8986abd3f3e4fd38847687d25, include/riften/deque.hpp: detail::RingBuff
// (store, load, resize) and Deque (constructor, emplace, pop, steal, destructor). Every load,
// store, fence and compare-exchange keeps the order written there; the ring's slots are plain
// memory there (`std::unique_ptr<T[]>`) and are `Mem::nonatomic` here. Left out: size(),
// capacity(), empty() (relaxed reads no operation uses) and the cache-line alignment.
// `emplace(args...)` constructs the value first and is `push(v)` here.
//
// Thread role: push/pop the owner only; steal any thread. Values: T default-initializable and
// trivially destructible (here: 8-byte values). pop: nullopt when empty or when a thief won
// the last item. steal: riften returns nullopt both when empty and when it lost the CAS; here
// the first is `empty`, the second `abort` (the same code path, told apart). Complexity: O(1),
// push amortized O(1) (a resize copies the live items into a ring twice as large).
//
// Fixes (a bit mask; 0 is the code as it ships, docs/case-studies/riften.md says why):
//   riften_fix::release_buffer  emplace publishes a resized ring with a release store
//                               (riften: relaxed);
//   riften_fix::atomic_slots    the ring's slots are relaxed atomics (riften: plain memory).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <type_traits>
#include <vector>

namespace case_studies {

namespace riften_fix {
inline constexpr unsigned release_buffer = 1;
inline constexpr unsigned atomic_slots = 2;
}  // namespace riften_fix

template <class T, class Mem = stealcheck::native_memory, unsigned Fixes = 0>
class riften_deque {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr bool release_buffer = (Fixes & riften_fix::release_buffer) != 0;
  static constexpr bool atomic_slots = (Fixes & riften_fix::atomic_slots) != 0;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto consume = std::memory_order_consume;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  // detail::RingBuff: a power-of-two ring indexed modulo its capacity.
  class ring_buff {
    using slot = std::conditional_t<atomic_slots, atomic<T>, typename Mem::template nonatomic<T>>;

   public:
    explicit ring_buff(std::int64_t cap)
        : cap_(cap), mask_(cap - 1), buff_(Mem::template create_array<slot>(size(), "buff")) {}
    ~ring_buff() { Mem::destroy_array(buff_, size()); }
    ring_buff(const ring_buff&) = delete;
    ring_buff& operator=(const ring_buff&) = delete;

    std::int64_t capacity() const { return cap_; }
    void store(std::int64_t i, T x) {
      if constexpr (atomic_slots)
        buff_[i & mask_].store(x, relaxed);  // relaxed: published by emplace's release fence
      else
        buff_[i & mask_].write() = x;
    }
    T load(std::int64_t i) const {
      if constexpr (atomic_slots)
        return buff_[i & mask_].load(relaxed);  // relaxed: ordered by the loads before it
      else
        return buff_[i & mask_].read();
    }
    // A new ring twice as large holding the items of [t, b).
    ring_buff* resize(std::int64_t b, std::int64_t t) const {
      ring_buff* ptr = Mem::template create<ring_buff>(2 * cap_);
      for (std::int64_t i = t; i != b; ++i)
        ptr->store(i, load(i));
      return ptr;
    }

   private:
    std::size_t size() const { return static_cast<std::size_t>(cap_); }
    std::int64_t cap_;
    std::int64_t mask_;
    slot* buff_;
  };

 public:
  using value_type = T;

  explicit riften_deque(std::int64_t cap = 1024)
      : buffer_(Mem::template create<ring_buff>(cap), "buffer") {}
  ~riften_deque() {
    Mem::destroy(buffer_.load(seq_cst));  // riften: `delete _buffer.load()`
    for (ring_buff* r : garbage_)
      Mem::destroy(r);
  }
  riften_deque(const riften_deque&) = delete;
  riften_deque& operator=(const riften_deque&) = delete;

  void push(T object) {
    std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
    std::int64_t t = top_.load(acquire);
    ring_buff* buf = buffer_.load(relaxed);  // relaxed: only the owner stores buffer_
    if (buf->capacity() < (b - t) + 1) {
      garbage_.push_back(buf);
      buf = buf->resize(b, t);
      // riften: relaxed. Partner: steal's consume load of buffer_, which is meant to see the
      // copies resize made; relaxed gives that load nothing to synchronize with
      buffer_.store(buf, release_buffer ? release : relaxed);
    }
    buf->store(b, object);
    // release: pairs with steal's acquire load of bottom; publishes the slot stored above
    Mem::fence(release);
    bottom_.store(b + 1, relaxed);  // relaxed: ordered after the slot by the fence above
  }

  std::optional<T> pop() {
    std::int64_t b = bottom_.load(relaxed) - 1;  // relaxed: the owner's own last store
    ring_buff* buf = buffer_.load(relaxed);      // relaxed: only the owner stores buffer_
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by the fence below
    // seq_cst: with steal's seq_cst fence, the owner and a thief cannot both miss each other
    Mem::fence(seq_cst);
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by the fence above
    if (t <= b) {
      if (t == b) {
        // seq_cst: one total order with steal's CAS decides who takes index t
        if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed)) {
          bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
          return std::nullopt;
        }
        bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      }
      return buf->load(b);
    }
    bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
    return std::nullopt;
  }

  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst: with pop's seq_cst fence, orders the load of top before the load of bottom
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence: the slot read below holds the pushed value
    std::int64_t b = bottom_.load(acquire);
    if (t < b) {
      // consume: meant to pair with emplace's store of buffer_ (relaxed as shipped); riften
      // reads the slot before the CAS, a plain read that may race with the owner's reuse
      T x = buffer_.load(consume)->load(t);
      // seq_cst: one total order with pop's CAS; relaxed failure: a lost race uses nothing
      if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(x);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<std::int64_t> top_{0, "top"};
  atomic<std::int64_t> bottom_{0, "bottom"};
  atomic<ring_buff*> buffer_;
  std::vector<ring_buff*> garbage_;  // owner only: old rings, freed with the deque
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
