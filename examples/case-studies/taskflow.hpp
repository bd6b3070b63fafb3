// taskflow.hpp: Taskflow's two work-stealing queues, transcribed onto stealcheck's memory
// backend as they ship: tf::UnboundedWSQ (a growable Chase-Lev ring, the executor's overflow
// queue) and tf::BoundedWSQ (a fixed ring, each worker's own queue).
//
// Source: github.com/taskflow/taskflow, commit 83f90a279aaab33fd4ce1deed00ca07819cbc8f8,
// taskflow/core/wsq.hpp: UnboundedWSQ (Array::push, pop, resize; constructor, push, pop,
// steal, _resize_array, destructor) and BoundedWSQ (try_push, pop, steal). Every load, store,
// fence and compare-exchange keeps the order written there. Left out: bulk_push and
// try_bulk_push (the conformance contract has no batch push), empty(), size() and capacity()
// (relaxed reads no operation uses), the resize by N of bulk_push, the cache-line alignment.
//
// Thread role: push/try_push/pop the owner only; steal any thread. Values: 8-byte values (a
// task pointer in Taskflow). pop: nullopt when empty or when a thief won the last item.
// steal: Taskflow returns its empty value both when the queue is empty and when the
// compare-exchange was lost; here the first is `empty`, the second `abort` (the same code
// path, told apart). Complexity: O(1); UnboundedWSQ::push amortized O(1) (a resize copies the
// live items into a ring twice as large); BoundedWSQ::try_push returns false when full.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <vector>

namespace case_studies {

template <class T, class Mem = stealcheck::native_memory>
class taskflow_unbounded_wsq {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto consume = std::memory_order_consume;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  // UnboundedWSQ::Array: C relaxed atomic slots, indexed with the mask M.
  struct Array {
    explicit Array(std::size_t c)
        : C(c), M(c - 1), S(Mem::template create_array<atomic<T>>(C, "S")) {}
    ~Array() { Mem::destroy_array(S, C); }
    Array(const Array&) = delete;
    Array& operator=(const Array&) = delete;
    std::size_t capacity() const { return C; }
    // relaxed: push's release fence publishes it
    void push(std::int64_t i, T o) { S[static_cast<std::size_t>(i) & M].store(o, relaxed); }
    // relaxed: ordered by the loads before it (steal: bottom acquire, _array consume)
    T pop(std::int64_t i) const { return S[static_cast<std::size_t>(i) & M].load(relaxed); }
    Array* resize(std::int64_t b, std::int64_t t) const {
      Array* ptr = Mem::template create<Array>(2 * C);
      for (std::int64_t i = t; i != b; ++i)
        ptr->push(i, pop(i));
      return ptr;
    }
    std::size_t C;
    std::size_t M;
    atomic<T>* S;
  };

 public:
  using value_type = T;

  explicit taskflow_unbounded_wsq(std::int64_t capacity = 1024)
      : array_(Mem::template create<Array>(static_cast<std::size_t>(capacity)), "_array") {}
  ~taskflow_unbounded_wsq() {
    for (Array* a : garbage_)
      Mem::destroy(a);
    Mem::destroy(array_.load(seq_cst));  // Taskflow: `delete _array.load()`
  }
  taskflow_unbounded_wsq(const taskflow_unbounded_wsq&) = delete;
  taskflow_unbounded_wsq& operator=(const taskflow_unbounded_wsq&) = delete;

  void push(T o) {
    const std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    Array* a = array_.load(relaxed);               // relaxed: only the owner stores _array
    if (a->capacity() < static_cast<std::size_t>(b - cached_top_ + 1)) {
      // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
      cached_top_ = top_.load(acquire);
      if (a->capacity() < static_cast<std::size_t>(b - cached_top_ + 1)) {
        // _resize_array
        Array* tmp = a->resize(b, cached_top_);
        garbage_.push_back(a);
        // release: pairs with steal's consume load of _array: the copies are visible
        array_.store(tmp, release);
        a = tmp;
      }
    }
    a->push(b, o);
    // release: pairs with steal's acquire load of _bottom; publishes the slot stored above
    Mem::fence(release);
    // release: Taskflow's, on top of the fence (the fence alone publishes the slot)
    bottom_.store(b + 1, release);
  }

  std::optional<T> pop() {
    const std::int64_t b = bottom_.load(relaxed) - 1;  // relaxed: the owner's own last store
    Array* a = array_.load(relaxed);                   // relaxed: only the owner stores _array
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by the fence below
    // seq_cst: with steal's seq_cst fence, the owner and a thief cannot both miss each other
    Mem::fence(seq_cst);
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by the fence above
    std::optional<T> item;
    if (t <= b) {
      item = a->pop(b);
      if (t == b) {
        // seq_cst: one total order with steal's CAS decides who takes the last item
        if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed)) item.reset();
        bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      }
    } else {
      bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
    }
    return item;
  }

  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst: with pop's seq_cst fence, orders the load of top before the load of bottom
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence and store: the slot read below is published
    const std::int64_t b = bottom_.load(acquire);
    if (t < b) {
      Array* a = array_.load(consume);  // consume: pairs with push's release store of _array
      const T item = a->pop(t);
      // seq_cst: one total order with pop's CAS; relaxed failure: a lost race uses nothing
      if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(item);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<std::int64_t> top_{0, "_top"};
  atomic<std::int64_t> bottom_{0, "_bottom"};
  std::int64_t cached_top_ = 0;  // owner only: a lower bound of _top
  atomic<Array*> array_;
  std::vector<Array*> garbage_;  // owner only: replaced rings, freed with the queue
};

template <class T, class Mem = stealcheck::native_memory, std::size_t LogSize = 8>
class taskflow_bounded_wsq {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr std::size_t BufferSize = std::size_t{1} << LogSize;
  static constexpr std::size_t BufferMask = BufferSize - 1;
  static_assert(BufferSize >= 2 && (BufferSize & (BufferSize - 1)) == 0);
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

 public:
  using value_type = T;

  taskflow_bounded_wsq() : buffer_(Mem::template create_array<atomic<T>>(BufferSize, "_buffer")) {}
  ~taskflow_bounded_wsq() { Mem::destroy_array(buffer_, BufferSize); }
  taskflow_bounded_wsq(const taskflow_bounded_wsq&) = delete;
  taskflow_bounded_wsq& operator=(const taskflow_bounded_wsq&) = delete;

  bool push(T o) {                                 // try_push
    const std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
    const std::int64_t t = top_.load(acquire);
    if (static_cast<std::size_t>(b - t + 1) > BufferSize) return false;
    at(b).store(o, relaxed);  // relaxed: published by the release fence below
    // release: pairs with steal's acquire load of _bottom; publishes the slot stored above
    Mem::fence(release);
    // release: Taskflow's, on top of the fence (the fence alone publishes the slot)
    bottom_.store(b + 1, release);
    return true;
  }

  std::optional<T> pop() {
    const std::int64_t b = bottom_.load(relaxed) - 1;  // relaxed: the owner's own last store
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by the fence below
    // seq_cst: with steal's seq_cst fence, the owner and a thief cannot both miss each other
    Mem::fence(seq_cst);
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by the fence above
    std::optional<T> item;
    if (t <= b) {
      item = at(b).load(relaxed);  // relaxed: the owner stored this slot itself
      if (t == b) {
        // seq_cst: one total order with steal's CAS decides who takes the last item
        if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed)) item.reset();
        bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      }
    } else {
      bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
    }
    return item;
  }

  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst: with pop's seq_cst fence, orders the load of top before the load of bottom
    Mem::fence(seq_cst);
    // acquire: pairs with try_push's release fence and store: the slot read below is published
    const std::int64_t b = bottom_.load(acquire);
    if (t < b) {
      const T item = at(t).load(relaxed);  // relaxed: ordered by the acquire loads above
      // seq_cst: one total order with pop's CAS; relaxed failure: a lost race uses nothing
      if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(item);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<T>& at(std::int64_t i) const { return buffer_[static_cast<std::size_t>(i) & BufferMask]; }

  atomic<std::int64_t> top_{0, "_top"};
  atomic<std::int64_t> bottom_{0, "_bottom"};
  atomic<T>* buffer_;  // Taskflow: an array member; here allocated so the checker names it
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
