// julia.hpp: the work-stealing queue of Julia's parallel garbage collector (its mark queue),
// transcribed onto stealcheck's memory backend as it ships.
//
// Source: github.com/JuliaLang/julia, commit 034e0700f25c0e2601ed797a5276cdb74082b44c,
// src/work-stealing-queue.h: create_ws_array, ws_queue_push, ws_queue_pop,
// ws_queue_steal_from (C11 atomics through julia_atomics.h: jl_atomic_load_relaxed/_acquire,
// jl_atomic_store_relaxed/_release are those orders, jl_fence() is a seq_cst fence,
// jl_fence_release() a release fence, jl_atomic_cmpswap a seq_cst compare-exchange). Every
// load, store, fence and compare-exchange keeps the order written there. The ring holds
// elements of `eltsz` bytes copied with memcpy, plain memory: here slots of one 8-byte value,
// `Mem::nonatomic` (the GC's pointer queue; its chunk queue holds larger elements the same
// way). The ring's header (capacity, mask) is written before the ring is published and is a
// plain member here: the slots race first. ws_queue_push returns the ring it replaced and the
// GC frees it after the mark phase (gc_ptr_queue_push puts it in its reclaim_set): here the
// deque keeps it until it is destroyed.
//
// Thread role: push/pop the owner (the marking thread) only; steal any thread. Values: 8-byte
// values, 0 meaning none (Julia's dest is zeroed when nothing is taken). pop: nullopt when
// empty or when a thief won the last item. steal: `empty` when it saw no item, `abort` when it
// lost the compare-exchange (Julia leaves dest zeroed in both). Complexity: O(1), push
// amortized O(1) (a resize copies the ring into one twice as large).
//
// Fixes (a bit mask; 0 is the code as it ships, docs/case-studies/julia.md says why):
//   julia_fix::acquire_array  steal loads q->array with acquire (Julia: relaxed);
//   julia_fix::atomic_slots   the slots are relaxed atomics (Julia: memcpy of plain memory).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <type_traits>
#include <vector>

namespace case_studies {

namespace julia_fix {
inline constexpr unsigned acquire_array = 1;
inline constexpr unsigned atomic_slots = 2;
}  // namespace julia_fix

template <class T, class Mem = stealcheck::native_memory, unsigned Fixes = 0>
class julia_ws_queue {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr bool acquire_array = (Fixes & julia_fix::acquire_array) != 0;
  static constexpr bool atomic_slots = (Fixes & julia_fix::atomic_slots) != 0;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  // ws_array_t: `capacity` elements, indexed with `mask`.
  struct ws_array {
    using slot = std::conditional_t<atomic_slots, atomic<T>, typename Mem::template nonatomic<T>>;
    explicit ws_array(std::int32_t cap)
        : capacity(cap),
          mask(cap - 1),
          buffer(Mem::template create_array<slot>(size(), "buffer")) {}
    ~ws_array() { Mem::destroy_array(buffer, size()); }
    ws_array(const ws_array&) = delete;
    ws_array& operator=(const ws_array&) = delete;
    std::size_t size() const { return static_cast<std::size_t>(capacity); }
    // memcpy into / out of element i (relaxed with atomic_slots: ordered by the fences and
    // acquire loads around the accesses, as the plain ones are meant to be)
    void put(std::int64_t i, T v) {
      if constexpr (atomic_slots)
        buffer[i & mask].store(v, relaxed);
      else
        buffer[i & mask].write() = v;
    }
    T get(std::int64_t i) const {
      if constexpr (atomic_slots)
        return buffer[i & mask].load(relaxed);
      else
        return buffer[i & mask].read();
    }
    std::int32_t capacity;
    std::int32_t mask;
    slot* buffer;
  };

 public:
  using value_type = T;

  explicit julia_ws_queue(std::int64_t capacity = 1024)
      : array_(Mem::template create<ws_array>(static_cast<std::int32_t>(capacity)), "array") {}
  ~julia_ws_queue() {
    Mem::destroy(array_.load(seq_cst));
    for (ws_array* a : reclaim_set_)
      Mem::destroy(a);
  }
  julia_ws_queue(const julia_ws_queue&) = delete;
  julia_ws_queue& operator=(const julia_ws_queue&) = delete;

  // ws_queue_push
  void push(T elt) {
    const std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
    const std::int64_t t = top_.load(acquire);
    ws_array* ary = array_.load(relaxed);  // relaxed: only the owner stores q->array
    if (b - t > ary->capacity - 1) {
      ws_array* new_ary = Mem::template create<ws_array>(2 * ary->capacity);
      for (std::int32_t i = 0; i < ary->capacity; i++)
        new_ary->put(t + i, ary->get(t + i));
      // release: pairs with steal's load of q->array (relaxed as shipped): the copies above
      array_.store(new_ary, release);
      reclaim_set_.push_back(ary);
      ary = new_ary;
    }
    ary->put(b, elt);
    // release (jl_fence_release): pairs with steal's acquire load of bottom; publishes the slot
    Mem::fence(release);
    bottom_.store(b + 1, relaxed);  // relaxed: ordered after the slot by the fence above
  }

  // ws_queue_pop
  std::optional<T> pop() {
    const std::int64_t b = bottom_.load(relaxed) - 1;  // relaxed: the owner's own last store
    ws_array* ary = array_.load(relaxed);              // relaxed: only the owner stores it
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by the fence below
    // seq_cst (jl_fence): with steal's, the owner and a thief cannot both miss each other
    Mem::fence(seq_cst);
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by the fence above
    if (t <= b) {
      std::optional<T> dest = ary->get(b);
      if (t == b) {
        // seq_cst (jl_atomic_cmpswap): one total order with steal's CAS for the last item
        if (!top_.compare_exchange_strong(t, t + 1, seq_cst, seq_cst)) dest.reset();
        bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      }
      return dest;
    }
    bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
    return std::nullopt;
  }

  // ws_queue_steal_from
  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst (jl_fence): with pop's, orders the load of top before the load of bottom
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence: the slot read below holds the pushed value
    const std::int64_t b = bottom_.load(acquire);
    if (t < b) {
      // Julia: relaxed. Partner: push's release store of q->array, whose copies this thief
      // reads next; relaxed does not synchronize with it
      ws_array* ary = array_.load(acquire_array ? acquire : relaxed);
      const T dest = ary->get(t);
      // seq_cst (jl_atomic_cmpswap): one total order with pop's CAS
      if (!top_.compare_exchange_strong(t, t + 1, seq_cst, seq_cst))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(dest);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<std::int64_t> top_{0, "top"};
  atomic<std::int64_t> bottom_{0, "bottom"};
  atomic<ws_array*> array_;
  std::vector<ws_array*> reclaim_set_;  // owner only: replaced rings, freed with the queue
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
