// deques/dotnet.hpp: the work-stealing queue of .NET's thread pool (dotnet/runtime,
// src/libraries/System.Private.CoreLib/src/System/Threading/ThreadPoolWorkQueue.cs, class
// ThreadPoolWorkQueue.WorkStealingQueue: LocalPush, LocalPopCore, TrySteal, Count), with .NET's
// memory model as C11 orders.
//
// Thread role: push and pop by the owner only; steal by any thread; size_hint by any thread.
// Names: .NET's m_headIndex (the thieves' end) is `top`, m_tailIndex (the owner's end) is
// `bottom`, m_foreignLock is the lock.
//
// The protocol. The owner pushes and pops without the lock while the deque holds enough items
// that no thief can reach the same slot: push takes the lock only when fewer than two slots
// are free (then it may grow the ring), pop only when its decrement of bottom may have met top.
// Every thief takes the lock, with a try-lock: a thief that finds it held gives up at once (a
// "missed steal", abort here) rather than wait. Under the lock a thief increments top, then
// reads bottom; pop decrements bottom, then reads top: each through an Interlocked.Exchange,
// whose full fence makes the two an SB pair (at least one sees the other), so the owner and a
// thief never both take the last item. A thief that overshot restores top and reports a
// missed steal; an owner that lost restores bottom under the lock.
//
// Orders. .NET's volatile reads are acquire loads here, its volatile writes release stores,
// plain fields relaxed atomics. Interlocked.Exchange is a full fence in .NET's memory model: it
// is a seq_cst exchange followed by a seq_cst fence here, since in C11 a seq_cst RMW followed
// by an acquire load is no store-load barrier (the fence sites are what the SB pair needs;
// stealcheck mutate dotnet). .NET's orders are kept where C11 needs less; each such site says
// "not needed" with the mutation verdict.
//
// One change to LocalPop. .NET returns empty at once when it reads top >= bottom. But top may
// be a thief's transient top++ over the last item, which the thief then gives back (it read
// the owner's earlier decrement): with that early return the model checker finds push(1),
// pop -> 1, push(2), pop -> empty while a thief's steal aborts (push_pop_push_pop_steal): the
// deque held 2 throughout. .NET's dispatch loop reads an empty local pop as "look elsewhere"
// and finds the item later; stealcheck's contract makes empty mean empty. So pop returns
// empty at once only when top > bottom (the deque is empty even if top is transient), and
// decides under the lock when top == bottom (pop_ambiguous). TrySteal's CanSteal has the same
// flaw (a thief's early empty beside another thief's transient top++: the lincheck model finds
// push(2), steal -> empty on a deque holding 2), and the same change: its early empty needs
// top > bottom. A thief that overshoots under the lock reports empty where .NET reports a
// missed steal: the deque is empty, or its last item belongs to an owner's pop that is past
// its decrement and takes it (proofs/dotnet.md).
//
// Left out. LocalFindAndPop (removing a given item from the middle: no operation of the
// contract) and with it the null slots it leaves, which LocalPopCore and TrySteal skip; the
// full barrier at the end of LocalPush (it orders the caller's check for a thread request).
// Indices are signed 64-bit and never wrap, so neither .NET's reset at int.MaxValue
// (LocalPush_HandleTailOverflow) nor its renumbering from 0 when the ring grows is needed:
// the ring keeps each item's index (deques/ring.hpp, growing_ring).
//
// Values: see deques/slot.hpp. Returns: pop gives nullopt when empty or when a thief took the
// last item; steal gives item, empty, or abort (the lock was held). Complexity: push amortised O(1)
// (O(n) on growth, under the lock), pop O(1) (locked when at most one item is left), steal O(1)
// under a try-lock; size_hint takes the lock, as .NET's Count does.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

/// The memory-order sites of .NET's WorkStealingQueue.
struct dotnet_sites {
  static constexpr std::string_view variant = "dotnet";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  // push (LocalPush)
  static constexpr site push_load_bottom{"dotnet::push.load_bottom", mo::acquire, site_kind::load,
                                         "volatile read of the owner's own store: not needed"};
  static constexpr site push_load_top{
      "dotnet::push.load_top", mo::acquire, site_kind::load,
      "volatile read; the fast path's room check: a stale top only sends push to the lock; "
      "acquire not needed under RC11 (a thief's slot read precedes the top its successor "
      "writes, through the lock: overwriting it first is load buffering)"};
  static constexpr site push_load_array{"dotnet::push.load_array", mo::acquire, site_kind::load,
                                        "volatile read of the owner's own store: not needed"};
  static constexpr site push_store_slot{"dotnet::push.store_slot", mo::relaxed, site_kind::store,
                                        "published by push.store_bottom"};
  static constexpr site push_store_bottom{
      "dotnet::push.store_bottom", mo::release, site_kind::store,
      "volatile write; pairs with steal.load_bottom (MP): the thief's slot read sees the "
      "pushed value (killed in push_pop_steal2)"};
  // push under the lock, and growth
  static constexpr site push_locked_load_top{"dotnet::push.locked_load_top", mo::acquire,
                                             site_kind::load,
                                             "under the lock: every store of top is too; not "
                                             "needed"};
  static constexpr site grow_load_slot{"dotnet::grow.load_slot", mo::relaxed, site_kind::load,
                                       "owner reads its own stores"};
  static constexpr site grow_store_slot{"dotnet::grow.store_slot", mo::relaxed, site_kind::store,
                                        "thieves read the new ring under the lock"};
  static constexpr site grow_store_array{"dotnet::grow.store_array", mo::release, site_kind::store,
                                         "volatile write; thieves load array under the lock: "
                                         "not needed"};
  // pop (LocalPopCore)
  static constexpr site pop_load_bottom{"dotnet::pop.load_bottom", mo::acquire, site_kind::load,
                                        "volatile read of the owner's own store: not needed"};
  static constexpr site pop_load_top{"dotnet::pop.load_top", mo::acquire, site_kind::load,
                                     "volatile read; the empty test before the decrement: not "
                                     "needed"};
  static constexpr site pop_exchange_bottom{
      "dotnet::pop.exchange_bottom", mo::seq_cst, site_kind::rmw,
      "Interlocked.Exchange's write; ordered before the load of top by pop.fence: seq_cst "
      "not needed"};
  static constexpr site pop_fence{
      "dotnet::pop.fence", mo::seq_cst, site_kind::fence,
      "Interlocked.Exchange's full fence; with steal.fence orders bottom-- before the load of "
      "top (SB+scfs): without it owner and thief both take the last item (killed in "
      "push2_pop_steal2)"};
  static constexpr site pop_recheck_top{"dotnet::pop.recheck_top", mo::acquire, site_kind::load,
                                        "volatile read; ordered after bottom-- by pop.fence: "
                                        "acquire not needed"};
  static constexpr site pop_load_array{"dotnet::pop.load_array", mo::acquire, site_kind::load,
                                       "volatile read of the owner's own store: not needed"};
  static constexpr site pop_load_slot{"dotnet::pop.load_slot", mo::acquire, site_kind::load,
                                      "Volatile.Read of the owner's own store: not needed"};
  static constexpr site pop_locked_load_top{"dotnet::pop.locked_load_top", mo::acquire,
                                            site_kind::load,
                                            "under the lock: every store of top is too; not "
                                            "needed"};
  static constexpr site pop_locked_store_bottom{
      "dotnet::pop.locked_store_bottom", mo::relaxed, site_kind::store,
      "bottom-- under the lock (not in .NET, see pop_ambiguous): thieves take only under it"};
  static constexpr site pop_restore_bottom{"dotnet::pop.restore_bottom", mo::release,
                                           site_kind::store,
                                           "volatile write under the lock: thieves read bottom "
                                           "after it only through the lock; not needed"};
  // steal (TrySteal, CanSteal)
  static constexpr site steal_peek_top{"dotnet::steal.peek_top", mo::acquire, site_kind::load,
                                       "CanSteal's volatile read, before the lock: not needed"};
  static constexpr site steal_peek_bottom{"dotnet::steal.peek_bottom", mo::acquire, site_kind::load,
                                          "CanSteal's volatile read, before the lock: not "
                                          "needed"};
  static constexpr site steal_load_top{"dotnet::steal.load_top", mo::acquire, site_kind::load,
                                       "under the lock: only thieves move top, under it; not "
                                       "needed"};
  static constexpr site steal_exchange_top{
      "dotnet::steal.exchange_top", mo::seq_cst, site_kind::rmw,
      "Interlocked.Exchange's write; ordered before the load of bottom by steal.fence: seq_cst "
      "not needed"};
  static constexpr site steal_fence{
      "dotnet::steal.fence", mo::seq_cst, site_kind::fence,
      "Interlocked.Exchange's full fence; pairs with pop.fence (SB+scfs on top/bottom): without "
      "it a thief and the owner both take the last item (killed in push2_pop_steal2)"};
  static constexpr site steal_load_bottom{
      "dotnet::steal.load_bottom", mo::acquire, site_kind::load,
      "volatile read; pairs with push.store_bottom (MP): the slot read below sees the pushed "
      "value (killed in push3_pop2_2thieves)"};
  static constexpr site steal_load_array{"dotnet::steal.load_array", mo::acquire, site_kind::load,
                                         "under the lock: growth stores array under it; not "
                                         "needed"};
  static constexpr site steal_load_slot{"dotnet::steal.load_slot", mo::acquire, site_kind::load,
                                        "Volatile.Read; ordered by steal.load_bottom: not "
                                        "needed"};
  static constexpr site steal_restore_top{"dotnet::steal.restore_top", mo::seq_cst, site_kind::rmw,
                                          "Interlocked.Exchange back to top: the owner reads "
                                          "top only to compare; seq_cst not needed"};
  // size_hint (Count, under the lock)
  static constexpr site size_load{"dotnet::size_hint.load", mo::acquire, site_kind::load,
                                  "volatile reads under the lock: not needed"};

  /// Every site of the variant `S` (this struct or one derived from it that shadows a site), in
  /// source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_bottom,
                      &S::push_load_top,
                      &S::push_load_array,
                      &S::push_store_slot,
                      &S::push_store_bottom,
                      &S::push_locked_load_top,
                      &S::grow_load_slot,
                      &S::grow_store_slot,
                      &S::grow_store_array,
                      &S::pop_load_bottom,
                      &S::pop_load_top,
                      &S::pop_exchange_bottom,
                      &S::pop_fence,
                      &S::pop_recheck_top,
                      &S::pop_load_array,
                      &S::pop_load_slot,
                      &S::pop_locked_load_top,
                      &S::pop_locked_store_bottom,
                      &S::pop_restore_bottom,
                      &S::steal_peek_top,
                      &S::steal_peek_bottom,
                      &S::steal_load_top,
                      &S::steal_exchange_top,
                      &S::steal_fence,
                      &S::steal_load_bottom,
                      &S::steal_load_array,
                      &S::steal_load_slot,
                      &S::steal_restore_top,
                      &S::size_load};
  }
};

/// .NET's WorkStealingQueue (see the file comment). `Sites` selects the memory orders.
template <class T, class Mem = native_memory, class Sites = dotnet_sites>
class dotnet_deque {
  using ring = detail::growing_ring<T, Mem>;
  using codec = typename ring::codec;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: initial_capacity >= 1 (rounded up to a power of two, at least 2; .NET starts
  /// at 32).
  explicit dotnet_deque(std::int64_t initial_capacity = 32)
      : array_(ring::initial(initial_capacity, 2, source_loc::current()), "array") {}

  dotnet_deque(const dotnet_deque&) = delete;
  dotnet_deque& operator=(const dotnet_deque&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~dotnet_deque() {
    ring* a = array_.load(std::memory_order_relaxed);  // quiescent: no concurrent access
    a->discard(top_.load(std::memory_order_relaxed), bottom_.load(std::memory_order_relaxed));
    Mem::destroy(a);
  }

  /// Thread role: owner. Always succeeds (grows when fewer than two slots are free). LocalPush.
  STEALCHECK_OWNER_INLINE void push(T v) {
    const std::int64_t b = bottom_.load(Mem::order(Sites::push_load_bottom));
    ring* a = array_.load(Mem::order(Sites::push_load_array));
    // at least two free slots: no thief can reach slot b, and no growth (LocalPush's fast path)
    if (b < top_.load(Mem::order(Sites::push_load_top)) + a->capacity - 1) {
      a->at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
      // release (push.store_bottom) pairs with steal's acquire load of bottom: publishes it.
      bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));
      return;
    }
    std::scoped_lock lock(mutex_);
    const std::int64_t t = top_.load(Mem::order(Sites::push_locked_load_top));  // exact
    if (b - t >= a->capacity - 1) a = grow(a, t, b);
    a->at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));
  }

  /// Thread role: owner. Takes the bottom value; nullopt when empty or when a thief took the
  /// last value. LocalPop and LocalPopCore.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    std::int64_t b = bottom_.load(Mem::order(Sites::pop_load_bottom));
    const std::int64_t t = top_.load(Mem::order(Sites::pop_load_top));
    if (t > b) return std::nullopt;       // empty, even if t is a thief's transient top++
    if (t == b) return pop_ambiguous(b);  // empty, or one item behind a transient top++
    --b;
    bottom_.exchange(b, Mem::order(Sites::pop_exchange_bottom));
    // seq_cst fence (pop.fence): Interlocked.Exchange's full fence, pairs with steal.fence.
    Mem::fence(Mem::order(Sites::pop_fence));
    ring* a = array_.load(Mem::order(Sites::pop_load_array));
    if (top_.load(Mem::order(Sites::pop_recheck_top)) <= b)  // no thief can reach index b
      return codec::decode(a->at(b).load(Mem::order(Sites::pop_load_slot)));
    return pop_locked(a, b);  // 0 or 1 items left: decide with thieves shut out
  }

  /// Thread role: any. Takes the top value: item | empty | abort (the lock was held: .NET's
  /// missed steal). TrySteal.
  steal_result<T> steal() {
    // CanSteal, before the lock; top == bottom may be a transient top++ over the last item
    if (top_.load(Mem::order(Sites::steal_peek_top)) >
        bottom_.load(Mem::order(Sites::steal_peek_bottom)))
      return steal_result<T>::empty();
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return steal_result<T>::abort();               // a missed steal
    const std::int64_t t = top_.load(Mem::order(Sites::steal_load_top));  // under the lock
    top_.exchange(t + 1, Mem::order(Sites::steal_exchange_top));
    // seq_cst fence (steal.fence): Interlocked.Exchange's full fence, pairs with pop.fence.
    Mem::fence(Mem::order(Sites::steal_fence));
    if (t < bottom_.load(Mem::order(Sites::steal_load_bottom))) {  // pairs push.store_bottom
      ring* a = array_.load(Mem::order(Sites::steal_load_array));  // under the lock
      return steal_result<T>::item(
          codec::decode(a->at(t).load(Mem::order(Sites::steal_load_slot))));
    }
    // overshot: empty, or the last item is the owner's, whose pop is past its bottom--
    top_.exchange(t, Mem::order(Sites::steal_restore_top));
    return steal_result<T>::empty();
  }

  /// Thread role: any. bottom - top under the lock (>= 0), as .NET's Count.
  std::int64_t size_hint() const {
    std::scoped_lock lock(mutex_);
    const std::int64_t n =
        bottom_.load(Mem::order(Sites::size_load)) - top_.load(Mem::order(Sites::size_load));
    return n > 0 ? n : 0;
  }

 private:
  // Owner only, bottom already decremented to b, a thief's top++ seen: LocalPopCore's locked
  // branch. With thieves shut out, top is exact; take index b unless a thief took it.
  std::optional<T> pop_locked(ring* a, std::int64_t b) {
    std::scoped_lock lock(mutex_);
    if (top_.load(Mem::order(Sites::pop_locked_load_top)) <= b)
      return codec::decode(a->at(b).load(Mem::order(Sites::pop_load_slot)));
    bottom_.store(b + 1, Mem::order(Sites::pop_restore_bottom));  // a thief took it: undo
    return std::nullopt;
  }

  // Owner only: pop read top == bottom == b before its decrement. .NET returns empty here; but
  // that top may be a thief's transient top++ over one item, which the thief then leaves
  // (see the file comment): decide with thieves shut out, where top is exact.
  std::optional<T> pop_ambiguous(std::int64_t b) {
    std::scoped_lock lock(mutex_);
    if (top_.load(Mem::order(Sites::pop_locked_load_top)) >= b) return std::nullopt;
    ring* a = array_.load(Mem::order(Sites::pop_load_array));
    bottom_.store(b - 1, Mem::order(Sites::pop_locked_store_bottom));  // thieves: after unlock
    return codec::decode(a->at(b - 1).load(Mem::order(Sites::pop_load_slot)));
  }

  // Owner, under the lock. Copies [t, b) into a ring twice the size and frees the old one at
  // once: thieves touch a ring only while holding the lock.
  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    ring* fresh =
        old->doubled(t, b, Mem::order(Sites::grow_load_slot), Mem::order(Sites::grow_store_slot));
    array_.store(fresh, Mem::order(Sites::grow_store_array));  // under the lock
    Mem::destroy(old);
    return fresh;
  }

  alignas(64) typename Mem::template atomic<std::int64_t> top_{0, "top"};
  alignas(64) typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
  typename Mem::template atomic<ring*> array_;
  mutable typename Mem::mutex mutex_{"lock"};
};

/// KNOWN-BAD: pop's exchange without the full fence .NET's Interlocked.Exchange has (a C11 port
/// that maps Interlocked.Exchange to a seq_cst exchange alone). The owner's load of top can
/// then miss a thief's increment while the thief misses the decrement: both take the last
/// item.
struct dotnet_sites_no_pop_fence : dotnet_sites {
  static constexpr std::string_view variant = "dotnet_no_pop_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "pop's exchange without Interlocked.Exchange's full fence: owner and thief can both take "
      "the last item";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  static constexpr site pop_fence{"dotnet::pop.fence", std::memory_order_relaxed, site_kind::fence,
                                  "KNOWN-BAD: removed (relaxed = no fence)"};
};

template <class T, class Mem = native_memory>
using dotnet_no_pop_fence = dotnet_deque<T, Mem, dotnet_sites_no_pop_fence>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
