// deques/chase_lev.hpp: the dynamic circular work-stealing deque of Chase and Lev (SPAA 2005),
// with exactly the C11 memory orders and fences of Lê, Pop, Cohen, Zappa Nardelli, "Correct and
// Efficient Work-Stealing for Weak Memory Models", PPoPP 2013, Figure 1.
//
// Thread role: push and pop by the owner only; steal by any thread; size_hint by any thread.
// Indices: signed 64-bit `top` and `bottom` (the paper's size_t makes `bottom - 1` wrap when
// take() runs on a deque that never held an item; signed indices cannot).
// Growth: when push finds the ring full it doubles the capacity (copying [top, bottom)) and
// publishes the new array with a release store. Resize is not part of Fig. 1; the release
// store / acquire load pair on `array` follows the fix that CDSChecker (Norris, Demsky, OOPSLA
// 2013) found necessary in the published code: with a relaxed store a thief can read the new
// array's slots without happens-before to the copy (docs/rc11-oracle.md, resize MP).
// Reclamation: a replaced array is *retired*, not freed: the owner keeps it in a list and
// frees all retired arrays in the destructor, when no operation can be running. A thief that
// loaded the old array pointer may still read its slots, so freeing earlier would be a
// use-after-free. Because capacity doubles, retired arrays hold fewer slots than the live one:
// the memory overhead is below 2x.
// Values: see deques/slot.hpp (inline for small trivially copyable T, boxed otherwise).
// Complexity: push amortised O(1) (O(n) on a resize), pop and steal O(1), lock-free.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

/// The memory-order sites of chase_lev. Line numbers refer to Lê et al. 2013, Fig. 1.
struct chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  // push (Fig. 1 push)
  static constexpr site push_load_bottom{"chase_lev::push.load_bottom", mo::relaxed,
                                         site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_load_top{
      "chase_lev::push.load_top", mo::acquire, site_kind::load,
      "as in Fig. 1, pairs with the CAS on top in steal/pop so that a thief's read of a slot "
      "happens before the owner overwrites it after wrap-around; not needed under RC11: the "
      "thief reading the overwrite while the owner reads its CAS is a po-rf cycle (LB), which "
      "RC11's no-thin-air axiom forbids (stealcheck mutate: relaxed gives the same executions)"};
  static constexpr site push_load_array{"chase_lev::push.load_array", mo::relaxed, site_kind::load,
                                        "only the owner stores array"};
  static constexpr site push_store_slot{"chase_lev::push.store_slot", mo::relaxed, site_kind::store,
                                        "published by push.fence below"};
  static constexpr site push_fence{
      "chase_lev::push.fence", mo::release, site_kind::fence,
      "pairs with steal's acquire load of bottom: publishes the slot written before it (MP); "
      "without it a thief can read a stale slot (killed in push_pop_steal2)"};
  static constexpr site push_store_bottom{"chase_lev::push.store_bottom", mo::relaxed,
                                          site_kind::store, "ordered after the slot by push.fence"};
  // pop (Fig. 1 take)
  static constexpr site pop_load_bottom{"chase_lev::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_load_array{"chase_lev::pop.load_array", mo::relaxed, site_kind::load,
                                       "only the owner stores array"};
  static constexpr site pop_store_bottom{
      "chase_lev::pop.store_bottom", mo::relaxed, site_kind::store,
      "ordered before the load of top by pop.fence; a thief reading it sees earlier pushes' "
      "slots through push.fence (a release fence covers the thread's later stores)"};
  static constexpr site pop_fence{
      "chase_lev::pop.fence", mo::seq_cst, site_kind::fence,
      "with steal.fence orders pop's store of bottom before its load of top (SB+scfs): without "
      "it owner and thief can both take the last item (killed in push2_pop_steal2)"};
  static constexpr site pop_load_top{"chase_lev::pop.load_top", mo::relaxed, site_kind::load,
                                     "ordered after the store of bottom by pop.fence"};
  static constexpr site pop_load_slot{"chase_lev::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site pop_cas{"chase_lev::pop.cas", mo::seq_cst, site_kind::rmw,
                                "last-item race with steal's CAS on top: exactly one wins, by RMW "
                                "atomicity alone; seq_cst as in Fig. 1, not needed under RC11 "
                                "(stealcheck mutate: relaxed gives the same executions; CDSSpec's "
                                "AutoMO finds the same)"};
  static constexpr site pop_cas_failure{"chase_lev::pop.cas_failure", mo::relaxed,
                                        site_kind::cas_failure,
                                        "a lost race reads nothing it uses"};
  static constexpr site pop_restore_bottom{"chase_lev::pop.restore_bottom", mo::relaxed,
                                           site_kind::store, "thieves read it only to bound top"};
  // steal (Fig. 1 steal)
  static constexpr site steal_load_top{
      "chase_lev::steal.load_top", mo::acquire, site_kind::load,
      "as in Fig. 1, pairs with the CAS of the previous taker of top; not needed under RC11: the "
      "seq_cst fence right after it acts as an acquire fence for this load (stealcheck mutate: "
      "relaxed gives the same executions; CDSSpec's AutoMO finds the same)"};
  static constexpr site steal_fence{
      "chase_lev::steal.fence", mo::seq_cst, site_kind::fence,
      "pairs with pop.fence (SB+scfs on top/bottom): without it a thief and the owner both take "
      "the last item (killed in push2_pop_steal2)"};
  static constexpr site steal_load_bottom{
      "chase_lev::steal.load_bottom", mo::acquire, site_kind::load,
      "pairs with push.fence (MP): the slot read below sees the pushed value (killed in "
      "push_pop_steal2)"};
  static constexpr site steal_load_array{
      "chase_lev::steal.load_array", mo::acquire, site_kind::load,
      "consume in Fig. 1 (compilers treat it as acquire); pairs with resize.store_array (MP on "
      "the array pointer; killed in push3_pop2_2thieves)"};
  static constexpr site steal_load_slot{"chase_lev::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_bottom/steal.load_array"};
  static constexpr site steal_cas{
      "chase_lev::steal.cas", mo::seq_cst, site_kind::rmw,
      "claims index top against other thieves and the owner's last-item CAS, by RMW atomicity; "
      "seq_cst as in Fig. 1, not needed under RC11 in stealcheck's clients: relaxed admits more "
      "executions (the slot read is no longer ordered before a reuse) but no bug, since a reuse "
      "racing the read is the LB cycle of push.load_top"};
  static constexpr site steal_cas_failure{"chase_lev::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "abort uses nothing it read"};
  // resize (not in Fig. 1; see the file comment)
  static constexpr site resize_load_slot{"chase_lev::resize.load_slot", mo::relaxed,
                                         site_kind::load, "owner reads its own stores"};
  static constexpr site resize_store_slot{"chase_lev::resize.store_slot", mo::relaxed,
                                          site_kind::store, "published by resize.store_array"};
  static constexpr site resize_store_array{
      "chase_lev::resize.store_array", mo::release, site_kind::store,
      "pairs with steal.load_array: the copied slots are visible through the new array (MP); "
      "relaxed is the bug CDSChecker found (killed in push3_pop2_2thieves)"};
  // size_hint
  static constexpr site size_load{"chase_lev::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (S = this struct or one derived from it that shadows a
  /// site, as the known-bad variants do), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_bottom,
                      &S::push_load_top,
                      &S::push_load_array,
                      &S::push_store_slot,
                      &S::push_fence,
                      &S::push_store_bottom,
                      &S::pop_load_bottom,
                      &S::pop_load_array,
                      &S::pop_store_bottom,
                      &S::pop_fence,
                      &S::pop_load_top,
                      &S::pop_load_slot,
                      &S::pop_cas,
                      &S::pop_cas_failure,
                      &S::pop_restore_bottom,
                      &S::steal_load_top,
                      &S::steal_fence,
                      &S::steal_load_bottom,
                      &S::steal_load_array,
                      &S::steal_load_slot,
                      &S::steal_cas,
                      &S::steal_cas_failure,
                      &S::resize_load_slot,
                      &S::resize_store_slot,
                      &S::resize_store_array,
                      &S::size_load};
  }
};

/// Chase-Lev deque (see the file comment). `Sites` selects the memory orders; the known-bad
/// variants at the end of this file are this same source with one site weakened.
template <class T, class Mem = native_memory, class Sites = chase_lev_sites>
class chase_lev {
  using ring = detail::growing_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: initial_capacity >= 1 (rounded up to a power of two). A capacity of 1 or 2 lets
  /// model-checked clients force a resize with a few pushes.
  explicit chase_lev(std::int64_t initial_capacity = 64)
      : array_(ring::initial(initial_capacity, 1, source_loc::current()), "array") {}

  chase_lev(const chase_lev&) = delete;
  chase_lev& operator=(const chase_lev&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~chase_lev() {
    ring* a = array_.load(std::memory_order_relaxed);  // quiescent: no concurrent access
    const std::int64_t t = top_.load(std::memory_order_relaxed);
    a->discard(t, bottom_.load(std::memory_order_relaxed));
    Mem::destroy(a);
    for (ring* r : retired_)
      Mem::destroy(r);
  }

  /// Thread role: owner. Always succeeds (grows when full). Fig. 1 push.
  /// Ensures: v is the new bottom value; visible to a thief whose steal reads the new bottom.
  STEALCHECK_OWNER_INLINE void push(T v) {
    const std::int64_t b = bottom_.load(Mem::order(Sites::push_load_bottom));  // own store
    const std::int64_t t = top_.load(Mem::order(Sites::push_load_top));        // pairs: steal's CAS
    ring* a = array_.load(Mem::order(Sites::push_load_array));                 // own store
    if (b - t > a->capacity - 1) a = grow(a, t, b);
    a->at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    // release fence (push.fence) pairs with steal's acquire load of bottom: publishes the slot.
    Mem::fence_then_store(bottom_, b + 1, Mem::order(Sites::push_fence),
                          Mem::order(Sites::push_store_bottom));
  }

  /// Thread role: owner. Takes the bottom value; nullopt when empty or when a thief won the
  /// race for the last value. Fig. 1 take.
  // Inlined: out of line, g++ 12 returns the std::optional<T> through the stack, a byte store
  // reloaded as a word (a store-forwarding stall that nearly doubled fib's cost per task).
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::int64_t b = bottom_.load(Mem::order(Sites::pop_load_bottom)) - 1;
    ring* a = array_.load(Mem::order(Sites::pop_load_array));
    // relaxed: a thief that reads it still sees earlier pushes' slots through push.fence
    // (fence-to-later-store synchronization; a release store under TSan, which can't see it).
    Mem::fence_covered_store(bottom_, b, Mem::order(Sites::pop_store_bottom));
    // seq_cst fence (pop.fence) pairs with steal.fence: store of bottom before load of top.
    Mem::fence(Mem::order(Sites::pop_fence));
    std::int64_t t = top_.load(Mem::order(Sites::pop_load_top));
    if (t > b) {  // empty
      Mem::fence_covered_store(bottom_, b + 1, Mem::order(Sites::pop_restore_bottom));
      return std::nullopt;
    }
    const stored x = a->at(b).load(Mem::order(Sites::pop_load_slot));
    if (t < b) return codec::decode(x);  // more than one item: no thief can reach index b
    // The last item: race the thieves for it with a CAS on top (seq_cst as in Fig. 1; RMW
    // atomicity against steal's CAS is what decides, see pop.cas).
    const bool won = top_.compare_exchange_strong(t, t + 1, Mem::order(Sites::pop_cas),
                                                  Mem::order(Sites::pop_cas_failure));
    Mem::fence_covered_store(bottom_, b + 1, Mem::order(Sites::pop_restore_bottom));
    if (!won) return std::nullopt;
    return codec::decode(x);
  }

  /// Thread role: any. Takes the top value: item | empty | abort (lost the CAS to another
  /// thief or to the owner's last-item pop). Fig. 1 steal.
  steal_result<T> steal() {
    std::int64_t t = top_.load(Mem::order(Sites::steal_load_top));  // pairs: previous taker's CAS
    // seq_cst fence (steal.fence) pairs with pop.fence: load of top before load of bottom.
    Mem::fence(Mem::order(Sites::steal_fence));
    const std::int64_t b = bottom_.load(Mem::order(Sites::steal_load_bottom));  // pairs push.fence
    if (t >= b) return steal_result<T>::empty();
    ring* a = array_.load(Mem::order(Sites::steal_load_array));  // pairs resize.store_array
    const stored x = a->at(t).load(Mem::order(Sites::steal_load_slot));
    if (!top_.compare_exchange_strong(t, t + 1, Mem::order(Sites::steal_cas),
                                      Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::int64_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::int64_t t = top_.load(Mem::order(Sites::size_load));
    return b > t ? b - t : 0;
  }

  /// Thread role: owner. The current ring capacity (for tests of growth).
  std::int64_t capacity() const {
    return array_.load(Mem::order(Sites::push_load_array))->capacity;
  }

 private:
  // Owner only. Copies [t, b) into a ring twice the size and publishes it; the old ring is
  // retired (freed in the destructor), since thieves may still be reading it.
  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    ring* fresh = old->doubled(t, b, Mem::order(Sites::resize_load_slot),
                               Mem::order(Sites::resize_store_slot));
    retired_.push_back(old);
    // release (resize.store_array) pairs with steal's acquire load of array: copies visible.
    array_.store(fresh, Mem::order(Sites::resize_store_array));
    return fresh;
  }

  alignas(64) typename Mem::template atomic<std::int64_t> top_{0, "top"};
  alignas(64) typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
  typename Mem::template atomic<ring*> array_;
  std::vector<ring*> retired_;  // owner-only; freed in the destructor
};

/// KNOWN-BAD: chase_lev without the seq_cst fence in pop (Fig. 1 take, line 4).
/// The owner's store of bottom can then be ordered after its load of top (store->load
/// reordering, which x86's store buffer performs): the owner and a thief both see one item
/// left and both take it (the value is taken twice).
struct chase_lev_sites_no_pop_fence : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_no_pop_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "pop's seq_cst fence removed: owner and thief can both take the last item";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  static constexpr site pop_fence{"chase_lev::pop.fence", std::memory_order_relaxed,
                                  site_kind::fence, "KNOWN-BAD: removed (relaxed = no fence)"};
};

/// KNOWN-BAD: chase_lev without the release fence in push (Fig. 1 push, line 8).
/// A thief that reads the new bottom has no happens-before to the slot store: under C11 it
/// may read a stale slot (a value never pushed there, or one already taken). x86 keeps stores
/// in order, so natively only the compiler can expose it; the model checker always does.
struct chase_lev_sites_no_push_fence : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_no_push_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "push's release fence removed: a thief can read a stale slot";
  static constexpr failure_set must_show{failure_kind::value_invented,
                                         failure_kind::value_taken_twice};
  static constexpr site push_fence{"chase_lev::push.fence", std::memory_order_relaxed,
                                   site_kind::fence, "KNOWN-BAD: removed (relaxed = no fence)"};
};

/// KNOWN-BAD, deep (registered with an initial capacity of 8): the grown ring published by a
/// relaxed store (resize.store_array). A thief that reads the new ring's address has no
/// happens-before to the copies into it and reads a slot not yet copied (a value never pushed
/// there). Only a push that finds the ring full grows it, nine pushes with nothing taken at
/// capacity 8: more than any model client pushes, so only a longer scenario (`stealcheck fuzz`)
/// takes the path. RC11 only: under SC, and natively on x86 (stores stay in order), the copies
/// are visible; the control is `stealcheck fuzz chase_lev --capacity 8`.
struct chase_lev_sites_grow_relaxed : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_grow_relaxed";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "the grown ring published relaxed: a thief reads a slot not yet copied into it";
  static constexpr failure_set must_show{failure_kind::value_invented};
  static constexpr site resize_store_array{"chase_lev::resize.store_array",
                                           std::memory_order_relaxed, site_kind::store,
                                           "KNOWN-BAD: relaxed (no release)"};
};

/// KNOWN-BAD, deep (registered with an initial capacity of 8): the partner of the above, steal
/// reads the ring's address relaxed (steal.load_array). The release store of a grown ring then
/// synchronizes with nothing: a thief that reads the new address may read a slot not yet
/// copied. The same depth (a growth) and the same memory models as chase_lev_grow_relaxed.
struct chase_lev_sites_steal_array_relaxed : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_steal_array_relaxed";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "steal reads the ring's address relaxed: a slot of a grown ring read before its copy";
  static constexpr failure_set must_show{failure_kind::value_invented};
  static constexpr site steal_load_array{"chase_lev::steal.load_array", std::memory_order_relaxed,
                                         site_kind::load, "KNOWN-BAD: relaxed (no acquire)"};
};

template <class T, class Mem = native_memory>
using chase_lev_no_pop_fence = chase_lev<T, Mem, chase_lev_sites_no_pop_fence>;
template <class T, class Mem = native_memory>
using chase_lev_no_push_fence = chase_lev<T, Mem, chase_lev_sites_no_push_fence>;
template <class T, class Mem = native_memory>
using chase_lev_grow_relaxed = chase_lev<T, Mem, chase_lev_sites_grow_relaxed>;
template <class T, class Mem = native_memory>
using chase_lev_steal_array_relaxed = chase_lev<T, Mem, chase_lev_sites_steal_array_relaxed>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
