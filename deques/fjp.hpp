// deques/fjp.hpp: the work queue of Java's ForkJoinPool (OpenJDK 17,
// java/util/concurrent/ForkJoinPool.java, class WorkQueue: push, pop, tryPoll, growArray, and
// the null-slot test of ForkJoinPool.scan), with Java's access modes as C11 orders.
//
// Thread role: push and pop by the owner only; steal by any thread; size_hint by any thread.
// Names: Java's `base` (the thieves' end) is `top` here, Java's `top` (the owner's next free
// slot) is `bottom`.
//
// The protocol. Items are decided by the slots, not by the indices: the owner's pop takes the
// bottom item by exchanging its slot with null (Java's getAndClearSlot), a thief takes the top
// item by a CAS of its slot from the value it read to null (casSlotToNull) and only then
// advances top with a plain store. The two RMWs on the same slot are ordered in mo, so exactly
// one of them gets the value: no seq_cst fence, no CAS on an index, and top and bottom are
// written by one thread each. A thief re-reads top after reading the slot (tryPoll's
// `base == b`): a top that moved means another thief took the slot, and the value read may be
// a later item stored in the same position after the ring wrapped (proofs/fjp.md).
//
// Orders. Java's plain fields are relaxed atomics here (C++ makes every racing access atomic),
// its getAcquire an acquire load, setOpaque a relaxed store, setSlotVolatile and the VarHandle
// RMWs seq_cst. Two accesses differ from the source: a thief loads `array` with acquire, where
// Java reads the field plainly and relies on the address dependency to its releaseFence in
// growArray (C++ has no dependency ordering); and a thief that finds the top slot empty reads
// bottom to tell empty from a lost race (Java's scan revisits when the next slot is full;
// stealcheck's contract separates empty from abort). Java's orders are kept where C11 needs
// less; each such site says "not needed" with the mutation verdict (stealcheck mutate fjp).
//
// Growth (growArray). When a push fills the ring, the owner moves the items from the bottom
// down into a ring twice the size, each with an exchange against null (a thief's CAS on the
// same slot decides who has it), stops at the first empty slot, and publishes the new ring
// after a release fence. The old ring is retired, not freed (Java's garbage collector frees
// it): thieves may still be reading it. Java's int indices wrap modulo 2^32; here they are
// signed 64-bit and never wrap.
//
// Values: an empty slot holds null, so every T but a pointer is boxed (deques/slot.hpp); a
// pointer T must not be null. Returns: pop gives nullopt when empty or when a thief took the
// last item; steal gives item, empty, or abort when its CAS lost or top moved meanwhile.
// Complexity: push amortised O(1) (O(n) on growth), pop and steal O(1); lock-free.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck {

/// The memory-order sites of ForkJoinPool's WorkQueue (OpenJDK 17).
struct fjp_sites {
  static constexpr std::string_view variant = "fjp";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  /// pop takes its slot by an exchange (Java's getAndClearSlot); the known-bad reads and clears.
  static constexpr bool pop_by_exchange = true;
  using mo = std::memory_order;
  // push (WorkQueue.push)
  static constexpr site push_load_bottom{"fjp::push.load_bottom", mo::relaxed, site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_load_top{"fjp::push.load_top", mo::relaxed, site_kind::load,
                                      "room check only (Java: plain read of base): a stale "
                                      "top says fuller, and the ring grows early"};
  static constexpr site push_load_array{"fjp::push.load_array", mo::relaxed, site_kind::load,
                                        "only the owner stores array"};
  static constexpr site push_store_bottom{"fjp::push.store_bottom", mo::relaxed, site_kind::store,
                                          "Java's top++ (plain): thieves read bottom only to "
                                          "tell empty from a lost race"};
  static constexpr site push_store_slot{
      "fjp::push.store_slot", mo::seq_cst, site_kind::store,
      "Java's setSlotVolatile; pairs with steal.load_slot (MP): the thief that reads the slot "
      "sees the boxed value (a data race on the box in push_pop_steal2); seq_cst over release "
      "not needed"};
  // pop (WorkQueue.pop)
  static constexpr site pop_load_bottom{"fjp::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_load_array{"fjp::pop.load_array", mo::relaxed, site_kind::load,
                                       "only the owner stores array"};
  static constexpr site pop_load_top{"fjp::pop.load_top", mo::relaxed, site_kind::load,
                                     "Java: plain read of base; a stale top only sends pop to "
                                     "the slot, whose exchange finds it empty"};
  static constexpr site pop_exchange{
      "fjp::pop.exchange", mo::seq_cst, site_kind::rmw,
      "Java's getAndClearSlot: RMW atomicity against steal.cas decides the last item, at any "
      "order; seq_cst not needed"};
  static constexpr site pop_store_bottom{"fjp::pop.store_bottom", mo::relaxed, site_kind::store,
                                         "Java's top = s (plain): thieves read bottom only to "
                                         "tell empty from a lost race"};
  // steal (WorkQueue.tryPoll, ForkJoinPool.scan)
  static constexpr site steal_load_top{
      "fjp::steal.load_top", mo::acquire, site_kind::load,
      "pairs with steal.store_top (Java: a plain read): a thief that reads a top another thief "
      "advanced also reads the bottom that thief saw, or it reports empty beside a pushed item "
      "(killed in push2_push2_steal_2thieves)"};
  static constexpr site steal_load_array{
      "fjp::steal.load_array", mo::acquire, site_kind::load,
      "pairs with grow.fence: the moved boxes are visible through the new ring (a data race "
      "in push3_pop2_2thieves; Java relies on the address dependency instead)"};
  static constexpr site steal_load_slot{
      "fjp::steal.load_slot", mo::acquire, site_kind::load,
      "Java's getSlot (getAcquire); pairs with push.store_slot (MP): steal.recheck_top then "
      "sees every top the pusher saw, or a value is lost (killed in push3_pop2_2thieves)"};
  static constexpr site steal_recheck_top{"fjp::steal.recheck_top", mo::relaxed, site_kind::load,
                                          "tryPoll's base == b; ordered after the slot by "
                                          "steal.load_slot"};
  static constexpr site steal_load_bottom{"fjp::steal.load_bottom", mo::relaxed, site_kind::load,
                                          "empty slot only: a stale bottom reports empty while "
                                          "a push is still in flight (not yet linearized)"};
  static constexpr site steal_cas{
      "fjp::steal.cas", mo::seq_cst, site_kind::rmw,
      "Java's casSlotToNull: RMW atomicity against pop.exchange and grow.exchange_slot decides "
      "each item, at any order; seq_cst not needed"};
  static constexpr site steal_cas_failure{"fjp::steal.cas_failure", mo::seq_cst,
                                          site_kind::cas_failure,
                                          "the failed CAS's value is dropped (steal aborts); "
                                          "seq_cst not needed"};
  static constexpr site steal_store_top{
      "fjp::steal.store_top", mo::release, site_kind::store,
      "pairs with steal.load_top (Java's setBaseOpaque): see there (killed in "
      "push2_push2_steal_2thieves)"};
  // grow (WorkQueue.growArray)
  static constexpr site grow_exchange_slot{
      "fjp::grow.exchange_slot", mo::seq_cst, site_kind::rmw,
      "Java's getAndClearSlot: RMW atomicity against steal.cas decides who has an item being "
      "moved, at any order; seq_cst not needed"};
  static constexpr site grow_store_slot{"fjp::grow.store_slot", mo::relaxed, site_kind::store,
                                        "published by grow.fence"};
  static constexpr site grow_fence{
      "fjp::grow.fence", mo::release, site_kind::fence,
      "Java's releaseFence; pairs with steal.load_array: a thief on the new ring reads the "
      "moved boxes (a data race in push3_pop2_2thieves)"};
  static constexpr site grow_store_array{"fjp::grow.store_array", mo::relaxed, site_kind::store,
                                         "ordered after the moved slots by grow.fence"};
  // size_hint (WorkQueue.queueSize)
  static constexpr site size_load{"fjp::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (this struct or one derived from it that shadows a site), in
  /// source order.
  template <class S>
  static constexpr auto list() {
    return std::array{
        &S::push_load_bottom,  &S::push_load_top,     &S::push_load_array,    &S::push_store_bottom,
        &S::push_store_slot,   &S::pop_load_bottom,   &S::pop_load_array,     &S::pop_load_top,
        &S::pop_exchange,      &S::pop_store_bottom,  &S::steal_load_top,     &S::steal_load_array,
        &S::steal_load_slot,   &S::steal_recheck_top, &S::steal_load_bottom,  &S::steal_cas,
        &S::steal_cas_failure, &S::steal_store_top,   &S::grow_exchange_slot, &S::grow_store_slot,
        &S::grow_fence,        &S::grow_store_array,  &S::size_load};
  }
};

/// ForkJoinPool's WorkQueue (see the file comment). `Sites` selects the memory orders.
template <class T, class Mem = native_memory, class Sites = fjp_sites>
class fjp_deque {
  using codec = detail::slot_codec<T, Mem, !std::is_pointer_v<T>>;  // null marks an empty slot
  using ring = detail::growing_ring<T, Mem, codec>;
  using stored = typename codec::stored;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: initial_capacity >= 1 (rounded up to a power of two, at least 2).
  explicit fjp_deque(std::int64_t initial_capacity = 64)
      : array_(ring::initial(initial_capacity, 2, source_loc::current()), "array") {}

  fjp_deque(const fjp_deque&) = delete;
  fjp_deque& operator=(const fjp_deque&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~fjp_deque() {
    ring* a = array_.load(std::memory_order_relaxed);  // quiescent: no concurrent access
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    for (std::int64_t i = top_.load(std::memory_order_relaxed); i < b; ++i)
      if (const stored x = a->at(i).load(std::memory_order_relaxed); x != nullptr)
        codec::discard(x);
    Mem::destroy(a);
    for (ring* r : retired_)
      Mem::destroy(r);
  }

  /// Thread role: owner. Always succeeds (grows when the push fills the ring). WorkQueue.push.
  /// Requires: a pointer T is not null.
  STEALCHECK_OWNER_INLINE void push(T v) {
    const std::int64_t b = bottom_.load(Mem::order(Sites::push_load_bottom));  // own store
    const std::int64_t t = top_.load(Mem::order(Sites::push_load_top));        // room only
    ring* a = array_.load(Mem::order(Sites::push_load_array));                 // own store
    bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));                // Java: top++ first
    const stored x = codec::encode(std::move(v));
    assert(x != nullptr && "fjp: a null pointer cannot be pushed (null marks an empty slot)");
    // seq_cst (push.store_slot) pairs with steal's acquire load of the slot: publishes it.
    a->at(b).store(x, Mem::order(Sites::push_store_slot));
    if (b - t == a->capacity - 1) grow(a, b + 1);  // the ring is now full
  }

  /// Thread role: owner. Takes the bottom value; nullopt when empty or when a thief took the
  /// last value. WorkQueue.pop.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::int64_t b = bottom_.load(Mem::order(Sites::pop_load_bottom));
    ring* a = array_.load(Mem::order(Sites::pop_load_array));
    if (top_.load(Mem::order(Sites::pop_load_top)) == b) return std::nullopt;  // Java: base != s
    stored x;
    if constexpr (Sites::pop_by_exchange) {
      // the exchange (pop.exchange) and a thief's CAS on this slot: exactly one gets the value
      x = a->at(b - 1).exchange(nullptr, Mem::order(Sites::pop_exchange));
    } else {
      x = a->at(b - 1).load(Mem::order(Sites::pop_exchange));  // KNOWN-BAD: read, then clear
      a->at(b - 1).store(nullptr, Mem::order(Sites::pop_exchange));
    }
    if (x == nullptr) return std::nullopt;  // a thief took it: the deque was empty
    bottom_.store(b - 1, Mem::order(Sites::pop_store_bottom));
    return codec::decode(x);
  }

  /// Thread role: any. Takes the top value: item | empty | abort (the slot was taken, or top
  /// moved, between its reads). WorkQueue.tryPoll with scan's test of an empty slot.
  steal_result<T> steal() {
    // acquire (steal.load_top) pairs with the release store of top by the thief before: its
    // pushes seen are seen here, so an empty verdict below cannot miss them.
    const std::int64_t t = top_.load(Mem::order(Sites::steal_load_top));
    ring* a = array_.load(Mem::order(Sites::steal_load_array));    // pairs grow.fence
    stored x = a->at(t).load(Mem::order(Sites::steal_load_slot));  // pairs push.store_slot
    if (top_.load(Mem::order(Sites::steal_recheck_top)) != t) return steal_result<T>::abort();
    if (x == nullptr) {  // taken and top not yet advanced, a push in flight, or empty
      if (bottom_.load(Mem::order(Sites::steal_load_bottom)) <= t) return steal_result<T>::empty();
      return steal_result<T>::abort();
    }
    // the CAS (steal.cas) against pop.exchange and grow.exchange_slot: one of them gets x
    if (!a->at(t).compare_exchange_strong(x, nullptr, Mem::order(Sites::steal_cas),
                                          Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    // release (steal.store_top; Java: setBaseOpaque) pairs with the next thief's load of top.
    top_.store(t + 1, Mem::order(Sites::steal_store_top));
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::int64_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::int64_t t = top_.load(Mem::order(Sites::size_load));
    return b > t ? b - t : 0;
  }

 private:
  // Owner only; b is the new bottom. growArray: moves the items from b - 1 down into a ring
  // twice the size, stopping at the first slot a thief already emptied, then publishes it. The
  // old ring is retired (freed in the destructor): thieves may still be reading it.
  void grow(ring* old, std::int64_t b) {
    ring* fresh = Mem::template create<ring>(old->capacity * 2, source_loc::current());
    for (std::int64_t i = b - 1; i >= b - old->capacity; --i) {
      // the exchange (grow.exchange_slot) against a thief's CAS: one of them has the item
      const stored x = old->at(i).exchange(nullptr, Mem::order(Sites::grow_exchange_slot));
      if (x == nullptr) break;  // thieves took the rest
      fresh->at(i).store(x, Mem::order(Sites::grow_store_slot));
    }
    retired_.push_back(old);
    // release fence (grow.fence) pairs with steal's acquire load of array: moved slots visible.
    Mem::fence_then_store(array_, fresh, Mem::order(Sites::grow_fence),
                          Mem::order(Sites::grow_store_array));
  }

  alignas(64) typename Mem::template atomic<std::int64_t> top_{0, "top"};
  alignas(64) typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
  typename Mem::template atomic<ring*> array_;
  std::vector<ring*> retired_;  // owner-only; freed in the destructor
};

/// KNOWN-BAD: pop reads its slot and then stores null, instead of exchanging it (Java's
/// getAndClearSlot). A thief's CAS can take the value between the two: the owner and a thief
/// both take the last item.
struct fjp_sites_pop_no_rmw : fjp_sites {
  static constexpr std::string_view variant = "fjp_pop_no_rmw";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "pop reads and clears its slot without an RMW: owner and thief can both take the last "
      "item";
  static constexpr failure_set must_show{failure_kind::value_taken_twice,
                                         failure_kind::use_after_free, failure_kind::double_free};
  using fixed_in = fjp_sites;
  static constexpr std::string_view fixed_by =
      "pop_by_exchange = true (pop takes its slot with an exchange)";
  static constexpr bool pop_by_exchange = false;
};

template <class T, class Mem = native_memory>
using fjp_pop_no_rmw = fjp_deque<T, Mem, fjp_sites_pop_no_rmw>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
