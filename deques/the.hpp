// deques/the.hpp: the THE protocol of Cilk-5 (Frigo, Leiserson, Randall, "The Implementation of
// the Cilk-5 Multithreaded Language", PLDI 1998, Section 5 and Figure 5), with C11 orders.
//
// Thread role: push and pop by the owner only; steal by any thread; size_hint by any thread.
// Names: the paper's head H is `top` (thieves' end), its tail T is `bottom` (owner's end).
//
// The protocol. The owner pushes and pops without a lock in the common case: pop decrements
// bottom, then (after a store-load fence) compares with top; only when the two may have met
// (top > bottom) does it take the lock and decide again with thieves shut out. Thieves always
// take the lock, so at most one thief runs at a time; a thief increments top, fences, compares
// with bottom, and backs off (top--) when it overshot. The fences make the owner's store of
// bottom and its load of top, and the thief's store of top and its load of bottom, an SB+scfs
// pair: at least one of the two sees the other's store, so the owner and a thief never both
// take the last item (proofs/the.md).
//
// One change to Figure 5: on conflict the owner keeps bottom decremented while it waits for
// the lock (Figure 5 first restores it with T++ and decrements again under the lock). With the
// restore, a thief can read the transient T-- of a pop that will back off, report empty, and a
// later thief then steals the item through the restored bottom: that history, push(1), steal
// -> empty, steal -> 1 on one thief, is not linearizable (the lincheck model finds it with the
// restore put back). Cilk-5 reads a failed steal as "try elsewhere", which the paper's protocol
// meets; stealcheck's contract separates empty from abort. Without the restore, every thief
// that reads the decremented bottom backs off until the owner decides under the lock.
//
// Growth (not in the paper, whose deque has a fixed maximal depth). The ring doubles when push
// finds `bottom - top >= capacity - 1`; the owner grows under the lock, copies [top, bottom)
// and frees the old ring at once: thieves touch the ring only while holding the lock. The one
// slot of slack in the test covers a thief's transient top++ of a failed steal, which push
// may read (top is then at most one above its value at rest).
// A thief may read bottom from a store of it outside the lock and then take a slot pushed
// earlier: push's store and pop's decrement are release stores (under C++20 release sequences
// a relaxed store would carry nothing). Stores under the lock reach thieves through the lock.
//
// Values: see deques/slot.hpp. Indices: signed 64-bit, never wrap. Returns: pop gives nullopt
// when empty or when the last item went to a thief; steal gives item or empty, never abort (it
// waits for the lock). Complexity: push amortised O(1) (O(n) on growth), pop O(1) without the
// lock unless the deque holds at most one item, steal O(1) under the lock. Blocking for thieves.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

/// The memory-order sites of the THE deque (Frigo et al. 1998, Figure 5).
struct the_sites {
  static constexpr std::string_view variant = "the";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  // push (Fig. 5 push: T++ after writing the frame)
  static constexpr site push_load_bottom{"the::push.load_bottom", mo::relaxed, site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_load_top{"the::push.load_top", mo::relaxed, site_kind::load,
                                      "room check only: a stale top underestimates the room "
                                      "(an early growth), a thief's transient top++ is the "
                                      "one slot of slack"};
  static constexpr site push_load_array{"the::push.load_array", mo::relaxed, site_kind::load,
                                        "only the owner stores array"};
  static constexpr site push_store_slot{"the::push.store_slot", mo::relaxed, site_kind::store,
                                        "published by push.store_bottom"};
  static constexpr site push_store_bottom{
      "the::push.store_bottom", mo::release, site_kind::store,
      "pairs with steal.load_bottom (MP): the thief's slot read sees the pushed value "
      "(killed in push_pop_steal2)"};
  // pop (Fig. 5 pop)
  static constexpr site pop_load_bottom{"the::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_load_array{"the::pop.load_array", mo::relaxed, site_kind::load,
                                       "only the owner stores array"};
  static constexpr site pop_store_bottom{
      "the::pop.store_bottom", mo::release, site_kind::store,
      "T--: a thief that reads it takes a slot pushed earlier, which only a release store "
      "carries (C++20 release sequences end at a plain store; killed in push2_pop_steal2)"};
  static constexpr site pop_fence{
      "the::pop.fence", mo::seq_cst, site_kind::fence,
      "the store-load fence of Sec. 5: with steal.fence orders T-- before the load of H "
      "(SB+scfs); without it owner and thief both take the last item (killed in "
      "push2_pop_steal2)"};
  static constexpr site pop_load_top{"the::pop.load_top", mo::relaxed, site_kind::load,
                                     "ordered after the store of bottom by pop.fence"};
  static constexpr site pop_load_slot{"the::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site pop_locked_restore_bottom{
      "the::pop.locked_restore_bottom", mo::relaxed, site_kind::store,
      "T++ under the lock when a thief took the item: a thief reads bottom only while holding "
      "the lock, after this unlock"};
  static constexpr site pop_locked_load_top{"the::pop.locked_load_top", mo::relaxed,
                                            site_kind::load,
                                            "under the lock: every store of top is too"};
  // steal (Fig. 5 steal)
  static constexpr site steal_load_top{"the::steal.load_top", mo::relaxed, site_kind::load,
                                       "under the lock: only thieves store top, under it"};
  static constexpr site steal_store_top{"the::steal.store_top", mo::relaxed, site_kind::store,
                                        "H++: ordered before the load of bottom by steal.fence"};
  static constexpr site steal_fence{
      "the::steal.fence", mo::seq_cst, site_kind::fence,
      "pairs with pop.fence (SB+scfs on top/bottom): without it a thief and the owner both "
      "take the last item (killed in push2_pop_steal2)"};
  static constexpr site steal_load_bottom{
      "the::steal.load_bottom", mo::acquire, site_kind::load,
      "pairs with push.store_bottom (MP): the slot read below sees the pushed value (killed "
      "in push_pop_steal2)"};
  static constexpr site steal_restore_top{"the::steal.restore_top", mo::relaxed, site_kind::store,
                                          "H--: the owner reads top only to compare"};
  static constexpr site steal_load_array{"the::steal.load_array", mo::relaxed, site_kind::load,
                                         "under the lock: grow stores array under it"};
  static constexpr site steal_load_slot{"the::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_bottom"};
  // grow (not in the paper; see the file comment)
  static constexpr site grow_load_top{"the::grow.load_top", mo::relaxed, site_kind::load,
                                      "under the lock: exact"};
  static constexpr site grow_load_slot{"the::grow.load_slot", mo::relaxed, site_kind::load,
                                       "owner reads its own stores"};
  static constexpr site grow_store_slot{"the::grow.store_slot", mo::relaxed, site_kind::store,
                                        "thieves read the new ring under the lock"};
  static constexpr site grow_store_array{"the::grow.store_array", mo::relaxed, site_kind::store,
                                         "under the lock: thieves load array under it"};
  // size_hint
  static constexpr site size_load{"the::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (this struct or one derived from it that shadows a site, as
  /// the known-bad variant below does), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_bottom,
                      &S::push_load_top,
                      &S::push_load_array,
                      &S::push_store_slot,
                      &S::push_store_bottom,
                      &S::pop_load_bottom,
                      &S::pop_load_array,
                      &S::pop_store_bottom,
                      &S::pop_fence,
                      &S::pop_load_top,
                      &S::pop_load_slot,
                      &S::pop_locked_restore_bottom,
                      &S::pop_locked_load_top,
                      &S::steal_load_top,
                      &S::steal_store_top,
                      &S::steal_fence,
                      &S::steal_load_bottom,
                      &S::steal_restore_top,
                      &S::steal_load_array,
                      &S::steal_load_slot,
                      &S::grow_load_top,
                      &S::grow_load_slot,
                      &S::grow_store_slot,
                      &S::grow_store_array,
                      &S::size_load};
  }
};

/// THE deque (see the file comment). `Sites` selects the memory orders; `Lock` is the deque's
/// lock L (BasicLockable, constructed from its name), by default the backend's mutex.
template <class T, class Mem = native_memory, class Sites = the_sites,
          class Lock = typename Mem::mutex>
class the_deque {
  using ring = detail::growing_ring<T, Mem>;
  using codec = typename ring::codec;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: initial_capacity >= 1 (rounded up to a power of two, at least 2).
  explicit the_deque(std::int64_t initial_capacity = 64)
      : array_(ring::initial(initial_capacity, 2, source_loc::current()), "array") {}

  the_deque(const the_deque&) = delete;
  the_deque& operator=(const the_deque&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~the_deque() {
    ring* a = array_.load(std::memory_order_relaxed);  // quiescent: no concurrent access
    const std::int64_t t = top_.load(std::memory_order_relaxed);
    a->discard(t, bottom_.load(std::memory_order_relaxed));
    Mem::destroy(a);
  }

  /// Thread role: owner. Always succeeds (grows when nearly full). Fig. 5 push.
  STEALCHECK_OWNER_INLINE void push(T v) {
    const std::int64_t b = bottom_.load(Mem::order(Sites::push_load_bottom));  // own store
    const std::int64_t t = top_.load(Mem::order(Sites::push_load_top));        // room only
    ring* a = array_.load(Mem::order(Sites::push_load_array));                 // own store
    if (b - t >= a->capacity - 1) a = grow(a, b);
    a->at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    // release (push.store_bottom) pairs with steal's acquire load of bottom: publishes the slot.
    bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));
  }

  /// Thread role: owner. Takes the bottom value; nullopt when empty or when a thief took the
  /// last value. Fig. 5 pop: lock-free unless top and bottom may have met.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::int64_t b = bottom_.load(Mem::order(Sites::pop_load_bottom)) - 1;
    ring* a = array_.load(Mem::order(Sites::pop_load_array));
    // release: a thief that reads this bottom takes a slot pushed earlier (see the file comment)
    bottom_.store(b, Mem::order(Sites::pop_store_bottom));
    // seq_cst fence (pop.fence) pairs with steal.fence: store of bottom before load of top.
    Mem::fence(Mem::order(Sites::pop_fence));
    const std::int64_t t = top_.load(Mem::order(Sites::pop_load_top));
    if (t > b) return pop_locked(a, b);  // a thief may hold the last item: decide under the lock
    return codec::decode(a->at(b).load(Mem::order(Sites::pop_load_slot)));
  }

  /// Thread role: any. Takes the top value under the lock: item or empty (never abort).
  /// Fig. 5 steal.
  steal_result<T> steal() {
    std::scoped_lock lock(mutex_);
    const std::int64_t t = top_.load(Mem::order(Sites::steal_load_top)) + 1;  // under the lock
    top_.store(t, Mem::order(Sites::steal_store_top));
    // seq_cst fence (steal.fence) pairs with pop.fence: store of top before load of bottom.
    Mem::fence(Mem::order(Sites::steal_fence));
    const std::int64_t b = bottom_.load(Mem::order(Sites::steal_load_bottom));  // pairs push
    if (t > b) {
      top_.store(t - 1, Mem::order(Sites::steal_restore_top));  // overshot: back off
      return steal_result<T>::empty();
    }
    ring* a = array_.load(Mem::order(Sites::steal_load_array));  // under the lock
    return steal_result<T>::item(
        codec::decode(a->at(t - 1).load(Mem::order(Sites::steal_load_slot))));
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::int64_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::int64_t t = top_.load(Mem::order(Sites::size_load));
    return b > t ? b - t : 0;
  }

 private:
  // Owner only, bottom already decremented to b. Fig. 5's conflict path (without its restore
  // before the lock: see the file comment): with thieves shut out, top is exact; take index b
  // unless a thief already took it.
  std::optional<T> pop_locked(ring* a, std::int64_t b) {
    std::scoped_lock lock(mutex_);
    if (top_.load(Mem::order(Sites::pop_locked_load_top)) > b) {
      bottom_.store(b + 1, Mem::order(Sites::pop_locked_restore_bottom));  // empty: undo T--
      return std::nullopt;
    }
    return codec::decode(a->at(b).load(Mem::order(Sites::pop_load_slot)));
  }

  // Owner only. Copies [top, b) into a ring twice the size under the lock and frees the old
  // one at once: thieves touch a ring only while holding the lock.
  ring* grow(ring* old, std::int64_t b) {
    std::scoped_lock lock(mutex_);
    const std::int64_t t = top_.load(Mem::order(Sites::grow_load_top));  // under the lock: exact
    ring* fresh =
        old->doubled(t, b, Mem::order(Sites::grow_load_slot), Mem::order(Sites::grow_store_slot));
    array_.store(fresh, Mem::order(Sites::grow_store_array));  // under the lock
    Mem::destroy(old);
    return fresh;
  }

  alignas(64) typename Mem::template atomic<std::int64_t> top_{0, "top"};
  alignas(64) typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
  typename Mem::template atomic<ring*> array_;
  mutable Lock mutex_{"lock"};
};

/// KNOWN-BAD: the THE deque without the store-load fence in pop (Sec. 5: "a memory barrier
/// between the decrement of T and the read of H"). The owner's store of bottom can then be
/// ordered after its load of top: owner and thief both take the last item.
struct the_sites_no_pop_fence : the_sites {
  static constexpr std::string_view variant = "the_no_pop_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "pop's store-load fence removed: owner and thief can both take the last item";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  static constexpr site pop_fence{"the::pop.fence", std::memory_order_relaxed, site_kind::fence,
                                  "KNOWN-BAD: removed (relaxed = no fence)"};
};

template <class T, class Mem = native_memory>
using the_no_pop_fence = the_deque<T, Mem, the_sites_no_pop_fence>;

/// A ticket lock (Mellor-Crummey and Scott, "Algorithms for Scalable Synchronization on
/// Shared-Memory Multiprocessors", TOCS 1991, Sec. 2.2) whose tickets are `Bits` bits wide: a
/// thread takes the next ticket and waits until the ticket served is its own. Mutual exclusion
/// holds while at most 2^Bits threads hold or wait for the lock at once; one more takes a
/// ticket equal to the holder's and enters beside it (the ticket spin locks of Linux had 8-bit
/// tickets and required fewer than 256 CPUs for that reason). Thread role: any. lock() waits
/// (a blocking wait under the model checker); unlock() by the holder. `Sites` names the orders
/// (the_sites_ticket2 below).
template <class Mem, class Sites, unsigned Bits>
class narrow_ticket_lock {
  static constexpr std::uint32_t mask = (std::uint32_t{1} << Bits) - 1;

 public:
  explicit narrow_ticket_lock(const char* /*name*/) {}
  void lock() {
    // acq_rel (lock.take_ticket) pairs with the earlier takers' RMWs: their unlocks before
    // them happen before this load of now_serving, so a stale value cannot equal the ticket
    const std::uint32_t mine = next_.fetch_add(1, Mem::order(Sites::lock_take_ticket)) & mask;
    for (;;) {
      // acquire (lock.load_serving) pairs with unlock.store_serving: the previous holder's
      // critical section happens before this one
      const std::uint32_t now = serving_.load(Mem::order(Sites::lock_load_serving));
      if (now == mine) return;
      Mem::spin_while_equal(serving_, now, Mem::order(Sites::lock_load_serving));
    }
  }
  void unlock() {
    const std::uint32_t now = serving_.load(Mem::order(Sites::unlock_load_serving));  // holder
    // release (unlock.store_serving) pairs with lock.load_serving: publishes the critical
    // section to the next holder
    serving_.store((now + 1) & mask, Mem::order(Sites::unlock_store_serving));
  }

 private:
  typename Mem::template atomic<std::uint32_t> next_{0, "next_ticket"};
  typename Mem::template atomic<std::uint32_t> serving_{0, "now_serving"};
};

/// KNOWN-BAD (deep): the THE deque whose lock is a ticket lock with 2-bit tickets. While at most
/// four parties hold or wait for the lock (the owner deciding a last item or growing, and three
/// thieves) it excludes; a fifth takes the holder's ticket and enters beside it, and a waiter
/// can see the ticket served wrap past its own and wait forever. The model clients have at
/// most three threads at the lock; fuzz's larger scenarios (four thieves or more) reach it.
struct the_sites_ticket2 : the_sites {
  static constexpr std::string_view variant = "the_ticket2";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "a ticket lock of 2-bit tickets: a fifth party at the lock shares the holder's ticket";
  static constexpr failure_set must_show{failure_kind::value_lost, failure_kind::value_taken_twice,
                                         failure_kind::deadlock};
  using fixed_in = the_sites;
  static constexpr std::string_view fixed_by =
      "the backend's mutex as the lock, not a ticket lock of 2-bit tickets";
  using mo = std::memory_order;
  static constexpr site lock_take_ticket{
      "the::lock.take_ticket", mo::acq_rel, site_kind::rmw,
      "a ticket taker sees every earlier taker's unlocks: with tickets that wrap, a stale "
      "now_serving equal to its ticket would let it in early (relaxed: with 1-bit tickets a "
      "one-thief client deadlocks; with 2-bit the clients' three threads do not reach it)"};
  static constexpr site lock_load_serving{
      "the::lock.load_serving", mo::acquire, site_kind::load,
      "pairs with unlock.store_serving: the previous critical section happens before "
      "(relaxed: killed in push2_pop_steal2)"};
  static constexpr site unlock_load_serving{"the::unlock.load_serving", mo::relaxed,
                                            site_kind::load, "the holder reads its own ticket"};
  static constexpr site unlock_store_serving{
      "the::unlock.store_serving", mo::release, site_kind::store,
      "pairs with lock.load_serving: publishes the critical section to the next holder "
      "(relaxed: killed in push2_pop_steal2)"};
  template <class S>
  static constexpr auto list() {
    return concat_sites(the_sites::list<S>(),
                        std::array{&S::lock_take_ticket, &S::lock_load_serving,
                                   &S::unlock_load_serving, &S::unlock_store_serving});
  }
};

template <class T, class Mem = native_memory>
using the_ticket2 =
    the_deque<T, Mem, the_sites_ticket2, narrow_ticket_lock<Mem, the_sites_ticket2, 2>>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
