// ws_deque.hpp: a user's work-stealing deque, as a runtime would write it: Chase-Lev with the
// C11 orders of Le, Pop, Cohen and Zappa Nardelli (PPoPP 2013, Fig. 1), task values kept in
// atomics, growing by doubling. It is templated on stealcheck's memory backend (`Mem`), so the
// same source runs natively and under the model checker.
//
// ws_deque_relaxed_array is the same deque with the bug CDSChecker found in the published C11
// version (Norris and Demsky, OOPSLA 2013): steal loads the array pointer with a relaxed load.
// A thief can then read the new array, installed by a resize it has no happens-before with,
// and take a slot of it before the copied value is visible to it.
//
// Thread role: push/pop the owner only; steal any thread. Values: T trivially copyable, at
// most 8 bytes (a task pointer, an integer). pop: nullopt when empty; steal: item, empty, or
// abort (lost a race). Complexity: O(1), push amortized O(1) (a resize copies the live items).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <vector>

namespace example {

template <class T, class Mem = stealcheck::native_memory, bool RelaxedArrayLoad = false>
class ws_deque {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

  struct ring {
    std::int64_t mask;
    atomic<T>* slots;
    explicit ring(std::int64_t capacity)
        : mask(capacity - 1), slots(Mem::template create_array<atomic<T>>(size(), "ring")) {}
    ~ring() { Mem::destroy_array(slots, size()); }
    ring(const ring&) = delete;
    ring& operator=(const ring&) = delete;
    std::size_t size() const { return static_cast<std::size_t>(mask + 1); }
    atomic<T>& at(std::int64_t i) const { return slots[i & mask]; }
  };

 public:
  using value_type = T;

  explicit ws_deque(std::int64_t capacity = 64)
      : array_(Mem::template create<ring>(pow2(capacity)), "array") {}
  ~ws_deque() {
    Mem::destroy(array_.load(relaxed));  // relaxed: no other thread runs in the destructor
    for (ring* r : retired_)
      Mem::destroy(r);
  }
  ws_deque(const ws_deque&) = delete;
  ws_deque& operator=(const ws_deque&) = delete;

  void push(T v) {
    const std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    // acquire: pairs with the CAS of top in steal/pop (a slot is read before it is reused)
    const std::int64_t t = top_.load(acquire);
    ring* a = array_.load(relaxed);  // relaxed: only the owner stores array_
    if (b - t > a->mask) a = grow(a, t, b);
    a->at(b).store(v, relaxed);  // relaxed: published by the release fence below
    // release: pairs with steal's acquire load of bottom; publishes the slot stored above (MP)
    Mem::fence(release);
    bottom_.store(b + 1, relaxed);  // relaxed: ordered after the slot by the fence above
  }

  std::optional<T> pop() {
    // relaxed: the owner reads its own last stores of bottom and array_
    const std::int64_t b = bottom_.load(relaxed) - 1;
    ring* a = array_.load(relaxed);
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by the fence below
    // seq_cst: with steal's seq_cst fence, orders this store of bottom before the load of top
    // (SB): the owner and a thief cannot both miss each other and take the same item
    Mem::fence(seq_cst);
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by the fence above
    if (t > b) {
      bottom_.store(b + 1, relaxed);  // relaxed: empty; thieves only compare it with top
      return std::nullopt;
    }
    T v = a->at(b).load(relaxed);  // relaxed: the owner stored this slot itself
    if (t == b) {                  // the last item: race the thieves for it with a CAS on top
      // seq_cst success: one total order with steal's CAS decides who takes index t;
      // relaxed failure: a lost race uses nothing it read
      const bool won = top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed);
      bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      if (!won) return std::nullopt;
    }
    return v;
  }

  stealcheck::steal_result<T> steal() {
    // acquire: pairs with the CAS of the previous taker of top
    std::int64_t t = top_.load(acquire);
    // seq_cst: with pop's seq_cst fence, orders the load of top before the load of bottom (SB)
    Mem::fence(seq_cst);
    // acquire: pairs with push's release fence: the slot read below holds the pushed value
    const std::int64_t b = bottom_.load(acquire);
    if (t >= b) return stealcheck::steal_result<T>::empty();
    // acquire: pairs with grow's release store of array_: the copied slots are visible
    // (RelaxedArrayLoad: the bug)
    ring* a = array_.load(RelaxedArrayLoad ? relaxed : acquire);
    T v = a->at(t).load(relaxed);  // relaxed: ordered by the acquire loads above
    // seq_cst success: one total order with pop's CAS; relaxed failure: abort uses nothing
    if (!top_.compare_exchange_strong(t, t + 1, seq_cst, relaxed))
      return stealcheck::steal_result<T>::abort();
    return stealcheck::steal_result<T>::item(v);
  }

 private:
  static std::int64_t pow2(std::int64_t n) {
    std::int64_t c = 1;
    while (c < n)
      c *= 2;
    return c;
  }

  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    ring* a = Mem::template create<ring>(2 * (old->mask + 1));
    // relaxed: the owner reads its own slots; the copies are published by the release below
    for (std::int64_t i = t; i < b; ++i)
      a->at(i).store(old->at(i).load(relaxed), relaxed);
    array_.store(a, release);  // release: pairs with steal's acquire load of array_
    retired_.push_back(old);   // a thief may still read the old ring: freed with the deque
    return a;
  }

  // Names for the model checker's reports ("top", "ring#1[0]"); natively no cost.
  atomic<std::int64_t> top_{0, "top"};
  atomic<std::int64_t> bottom_{0, "bottom"};
  atomic<ring*> array_;
  std::vector<ring*> retired_;  // owner only
};

/// The same deque with steal's load of the array pointer relaxed (the bug).
template <class T, class Mem = stealcheck::native_memory>
using ws_deque_relaxed_array = ws_deque<T, Mem, true>;

}  // namespace example
// SPDX-License-Identifier: Apache-2.0
