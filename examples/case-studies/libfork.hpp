// libfork.hpp: lf::ext::deque, libfork's Chase-Lev deque, transcribed onto stealcheck's memory
// backend as it ships.
//
// Source: github.com/ConorWilliams/libfork, commit 2f359cdab8150c2624bbe1f904a663180ed52109,
// include/libfork/core/ext/deque.hpp: impl::atomic_ring_buf (store, load, resize) and deque
// (constructor, push, pop, steal, destructor); impl::thread_fence_seq_cst
// (include/libfork/core/impl/atomics.hpp) is a seq_cst fence (a locked RMW on a stack slot
// under clang on x86, std::atomic_thread_fence(seq_cst) otherwise). Every load, store, fence
// and compare-exchange keeps the order written there. Left out: size(), ssize(), capacity(),
// empty() (relaxed reads no operation uses), the `when_empty` callback of pop (the default,
// returning nullopt, is kept) and the cache-line alignment.
//
// Thread role: push/pop the owner only; steal any thread. Values: T trivially copyable and
// lock-free as std::atomic<T> (here: 8-byte values). pop: nullopt when empty or when a thief
// won the last item. steal: libfork's err::lost is `abort`, err::empty is `empty`.
// Complexity: O(1), push amortized O(1) (a resize copies the live items into a ring twice as
// large).
//
// Fix (docs/case-studies/libfork.md says why): ReleaseBuffer = true publishes a resized ring
// with a release store (libfork: relaxed).
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <stealcheck/deque.hpp>
#include <vector>

namespace case_studies {

template <class T, class Mem = stealcheck::native_memory, bool ReleaseBuffer = false>
class libfork_deque {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto consume = std::memory_order_consume;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  // impl::atomic_ring_buf: a power-of-two ring of relaxed atomics.
  class atomic_ring_buf {
   public:
    explicit atomic_ring_buf(std::ptrdiff_t cap)
        : cap_(cap), mask_(cap - 1), buf_(Mem::template create_array<atomic<T>>(size(), "buf")) {}
    ~atomic_ring_buf() { Mem::destroy_array(buf_, size()); }
    atomic_ring_buf(const atomic_ring_buf&) = delete;
    atomic_ring_buf& operator=(const atomic_ring_buf&) = delete;

    std::ptrdiff_t capacity() const { return cap_; }
    // relaxed: push's release fence publishes it
    void store(std::ptrdiff_t index, T val) { buf_[index & mask_].store(val, relaxed); }
    // relaxed: ordered by the loads before it (steal: bottom acquire, m_buf consume)
    T load(std::ptrdiff_t index) const { return buf_[index & mask_].load(relaxed); }
    // A new ring twice as large holding the items of [top, bot).
    atomic_ring_buf* resize(std::ptrdiff_t bot, std::ptrdiff_t top) const {
      atomic_ring_buf* ptr = Mem::template create<atomic_ring_buf>(2 * cap_);
      for (std::ptrdiff_t i = top; i != bot; ++i)
        ptr->store(i, load(i));
      return ptr;
    }

   private:
    std::size_t size() const { return static_cast<std::size_t>(cap_); }
    std::ptrdiff_t cap_;
    std::ptrdiff_t mask_;
    atomic<T>* buf_;
  };

 public:
  using value_type = T;

  explicit libfork_deque(std::ptrdiff_t cap = 1024)
      : buf_(Mem::template create<atomic_ring_buf>(cap), "m_buf") {}
  ~libfork_deque() {
    Mem::destroy(buf_.load(seq_cst));  // libfork: `delete m_buf.load()`
    for (atomic_ring_buf* r : garbage_)
      Mem::destroy(r);
  }
  libfork_deque(const libfork_deque&) = delete;
  libfork_deque& operator=(const libfork_deque&) = delete;

  void push(T val) {
    const std::ptrdiff_t bottom = bottom_.load(relaxed);  // relaxed: the owner's own store
    // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
    const std::ptrdiff_t top = top_.load(acquire);
    atomic_ring_buf* buf = buf_.load(relaxed);  // relaxed: only the owner stores m_buf
    if (buf->capacity() < (bottom - top) + 1) {
      garbage_.push_back(buf);
      buf = buf->resize(bottom, top);
      // libfork: relaxed. Partner: steal's consume load of m_buf, which is meant to see the
      // copies resize made; relaxed gives that load nothing to synchronize with
      buf_.store(buf, ReleaseBuffer ? release : relaxed);
    }
    buf->store(bottom, val);
    // release: pairs with steal's acquire load of bottom; publishes the slot stored above
    Mem::fence(release);
    bottom_.store(bottom + 1, relaxed);  // relaxed: ordered after the slot by the fence above
  }

  std::optional<T> pop() {
    const std::ptrdiff_t bottom = bottom_.load(relaxed) - 1;  // relaxed: the owner's own store
    atomic_ring_buf* buf = buf_.load(relaxed);  // relaxed: only the owner stores m_buf
    bottom_.store(bottom, relaxed);  // relaxed: ordered before the load of top by the fence
    // seq_cst (thread_fence_seq_cst): with steal's, the owner and a thief cannot both miss
    // each other's index
    Mem::fence(seq_cst);
    std::ptrdiff_t top = top_.load(relaxed);  // relaxed: ordered by the fence above
    if (top <= bottom) {
      if (top == bottom) {
        // seq_cst: one total order with steal's CAS decides who takes the last item
        if (!top_.compare_exchange_strong(top, top + 1, seq_cst, relaxed)) {
          bottom_.store(bottom + 1, relaxed);  // relaxed: thieves only compare it with top
          return std::nullopt;
        }
        bottom_.store(bottom + 1, relaxed);  // relaxed: thieves only compare it with top
      }
      return buf->load(bottom);
    }
    bottom_.store(bottom + 1, relaxed);  // relaxed: thieves only compare it with top
    return std::nullopt;
  }

  stealcheck::steal_result<T> steal() {
    std::ptrdiff_t top = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst (thread_fence_seq_cst): with pop's, orders the load of top before bottom's
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence: the slot read below holds the pushed value
    const std::ptrdiff_t bottom = bottom_.load(acquire);
    if (top < bottom) {
      // consume: meant to pair with push's store of m_buf (relaxed as shipped)
      T tmp = buf_.load(consume)->load(top);
      // seq_cst: one total order with pop's CAS; relaxed failure: a lost race uses nothing
      if (!top_.compare_exchange_strong(top, top + 1, seq_cst, relaxed))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(tmp);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<std::ptrdiff_t> top_{0, "m_top"};
  atomic<std::ptrdiff_t> bottom_{0, "m_bottom"};
  atomic<atomic_ring_buf*> buf_;
  std::vector<atomic_ring_buf*> garbage_;  // owner only: old rings, freed with the deque
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
