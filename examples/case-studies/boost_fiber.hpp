// boost_fiber.hpp: boost::fibers::detail::context_spmc_queue, the run queue of Boost.Fiber's
// work_stealing scheduler when Boost.Fiber is built with BOOST_FIBERS_USE_SPMC_QUEUE
// (otherwise it uses a spin-locked queue), transcribed onto stealcheck's memory backend as it
// ships.
//
// Source: github.com/boostorg/fiber, commit 238487b543e8863c647d31a82ccfc3fa11a960d9,
// include/boost/fiber/detail/context_spmc_queue.hpp: array (push, pop, resize) and
// context_spmc_queue (constructor, push, pop, steal, destructor). Every load, store, fence and
// compare-exchange keeps the order written there, and the indices stay std::size_t (unsigned)
// as there. Left out: BOOST_ASSERT(nullptr != ctx) in pop and steal (compiled out in release
// builds) and steal's refusal of a pinned context (`ctx->is_context(type::pinned_context)`
// returns nullptr before the compare-exchange: a policy on what the value points to, not part
// of the deque's protocol). A context pointer is an 8-byte value here; what pop and steal
// return is told by the path they take, as Boost's callers tell it by nullptr.
//
// Thread role: push/pop the owner (the scheduler's thread) only; steal any thread. pop:
// nullopt on the paths where Boost returns nullptr (empty, or a thief won the last item).
// steal: `empty` when top < bottom does not hold, `abort` when it lost the compare-exchange
// (Boost returns nullptr for both). A slot that was never written reads 0 (nullptr).
// Complexity: O(1), push amortized O(1) (a resize copies the live items into an array twice
// as large).
//
// Fixes (a bit mask; 0 is the code as it ships, docs/case-studies/boost-fiber.md says why):
//   boost_fiber_fix::release_array   push publishes a resized array with a release store
//                                    (Boost: relaxed);
//   boost_fiber_fix::signed_indices  top, bottom and the index arithmetic are std::int64_t
//                                    (Boost: std::size_t, so pop on a queue that never held
//                                    an item computes bottom - 1 as SIZE_MAX).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <type_traits>
#include <vector>

namespace case_studies {

namespace boost_fiber_fix {
inline constexpr unsigned release_array = 1;
inline constexpr unsigned signed_indices = 2;
}  // namespace boost_fiber_fix

template <class T, class Mem = stealcheck::native_memory, unsigned Fixes = 0>
class boost_fiber_spmc_queue {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr bool release_array = (Fixes & boost_fiber_fix::release_array) != 0;
  using index =
      std::conditional_t<(Fixes & boost_fiber_fix::signed_indices) != 0, std::int64_t, std::size_t>;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto consume = std::memory_order_consume;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  // context_spmc_queue::array: `capacity` atomic slots indexed modulo the capacity.
  class array {
   public:
    explicit array(std::size_t capacity)
        : capacity_(capacity),
          storage_(Mem::template create_array<atomic<T>>(capacity, "storage")) {}
    ~array() { Mem::destroy_array(storage_, capacity_); }
    array(const array&) = delete;
    array& operator=(const array&) = delete;

    std::size_t capacity() const { return capacity_; }
    // relaxed: push's release fence publishes it
    void push(index bottom, T ctx) { storage_[slot(bottom)].store(ctx, relaxed); }
    // relaxed: ordered by the loads before it (steal: bottom acquire, array_ consume)
    T pop(index top) const { return storage_[slot(top)].load(relaxed); }
    array* resize(index bottom, index top) const {
      array* tmp = Mem::template create<array>(2 * capacity_);
      for (index i = top; i != bottom; ++i)
        tmp->push(i, pop(i));
      return tmp;
    }

   private:
    std::size_t slot(index i) const { return static_cast<std::size_t>(i) % capacity_; }
    std::size_t capacity_;
    atomic<T>* storage_;
  };

 public:
  using value_type = T;

  explicit boost_fiber_spmc_queue(std::int64_t capacity = 4096)
      : array_(Mem::template create<array>(static_cast<std::size_t>(capacity)), "array_") {}
  ~boost_fiber_spmc_queue() {
    for (array* a : old_arrays_)
      Mem::destroy(a);
    Mem::destroy(array_.load(seq_cst));  // Boost: `delete array_.load()`
  }
  boost_fiber_spmc_queue(const boost_fiber_spmc_queue&) = delete;
  boost_fiber_spmc_queue& operator=(const boost_fiber_spmc_queue&) = delete;

  void push(T ctx) {
    const index bottom = bottom_.load(relaxed);  // relaxed: the owner's own last store
    // acquire: pairs with the CAS of top in pop/steal (a slot is read before it is reused)
    const index top = top_.load(acquire);
    array* a = array_.load(relaxed);  // relaxed: only the owner stores array_
    if (static_cast<index>(a->capacity() - 1) < bottom - top) {
      array* tmp = a->resize(bottom, top);
      old_arrays_.push_back(a);
      a = tmp;
      // Boost: relaxed. Partner: steal's consume load of array_, which is meant to see the
      // copies resize made; relaxed gives that load nothing to synchronize with
      array_.store(a, release_array ? release : relaxed);
    }
    a->push(bottom, ctx);
    // release: pairs with steal's acquire load of bottom; publishes the slot stored above
    Mem::fence(release);
    bottom_.store(bottom + 1, relaxed);  // relaxed: ordered after the slot by the fence above
  }

  std::optional<T> pop() {
    const index bottom = bottom_.load(relaxed) - 1;  // relaxed: the owner's own last store
    array* a = array_.load(relaxed);                 // relaxed: only the owner stores array_
    bottom_.store(bottom, relaxed);  // relaxed: ordered before the load of top by the fence
    // seq_cst: with steal's seq_cst fence, the owner and a thief cannot both miss each other
    Mem::fence(seq_cst);
    index top = top_.load(relaxed);  // relaxed: ordered by the fence above
    std::optional<T> ctx;            // Boost: a context pointer, nullptr when nothing was taken
    if (top <= bottom) {
      ctx = a->pop(bottom);
      if (top == bottom) {
        // seq_cst: one total order with steal's CAS decides who takes the last item
        if (!top_.compare_exchange_strong(top, top + 1, seq_cst, relaxed)) ctx.reset();
        bottom_.store(bottom + 1, relaxed);  // relaxed: thieves only compare it with top
      }
    } else {
      bottom_.store(bottom + 1, relaxed);  // relaxed: thieves only compare it with top
    }
    return ctx;
  }

  stealcheck::steal_result<T> steal() {
    index top = top_.load(acquire);  // acquire: pairs with the previous taker's CAS
    // seq_cst: with pop's seq_cst fence, orders the load of top before the load of bottom
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence: the slot read below holds the pushed value
    const index bottom = bottom_.load(acquire);
    if (top < bottom) {
      // consume: meant to pair with push's store of array_ (relaxed as shipped)
      array* a = array_.load(consume);
      const T ctx = a->pop(top);
      // seq_cst: one total order with pop's CAS; relaxed failure: a lost race uses nothing
      if (!top_.compare_exchange_strong(top, top + 1, seq_cst, relaxed))
        return stealcheck::steal_result<T>::abort();
      return stealcheck::steal_result<T>::item(ctx);
    }
    return stealcheck::steal_result<T>::empty();
  }

 private:
  atomic<index> top_{0, "top_"};
  atomic<index> bottom_{0, "bottom_"};
  atomic<array*> array_;
  std::vector<array*> old_arrays_;  // owner only: replaced arrays, freed with the queue
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
