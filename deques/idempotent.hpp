// deques/idempotent.hpp: idempotent work stealing, the LIFO variant, of Michael, Vechev and
// Saraswat, "Idempotent Work Stealing", PPoPP 2009, Section 3 (the idempotent LIFO
// extraction: put, take, steal, expand), with C11 orders.
//
// Thread role: push (the paper's put) and pop (take) by the owner only; steal by any thread;
// size_hint by any thread.
//
// The protocol. One word `anchor` = (tag << 32) | tail and an array of tasks [0, tail). Every
// operation works at the tail: the owner's take reads the tail value and stores tail - 1 with
// a plain store (no read-modify-write, no store-load fence); a thief reads the anchor, then
// the slot, and claims it with a CAS of the anchor to tail - 1. The owner's store can overwrite
// a thief's CAS, so one value can be taken twice, by the owner and by a thief, or by two
// thieves after the owner's store brings back a tail a thief had already lowered: the
// specification is at least once (deques/spec.hpp, at_least_once), and a task may run more
// than once. Nothing is lost: every index at or above the tail was taken by someone. put
// increments the tag, so a thief that read the anchor before a take and a put at the same
// index fails its CAS instead of taking the old slot's value and removing the new one; without
// the tag (the known-bad `idempotent_no_tag`) that steal loses the put value.
//
// Orders (the paper assumes TSO and states two store-store and one load-load ordering): put's
// store of the anchor and take's store are release, a thief's load of the anchor acquire (MP:
// the slot it then reads is the one the owner wrote); put's store of the slot is release and
// a thief's load of it acquire (MP the other way: a thief that reads a value put after the
// anchor it read also sees the owner's anchor stores before it, so its CAS fails, as under
// TSO; with both relaxed, RC11 lets the CAS succeed against the old anchor and the thief
// return the newer value, then report empty beside a value present); the array pointer is
// published by a release store and read with acquire (the copy made by expand). Nothing else
// needs ordering: a duplicate is allowed, so there is no SB pair and no seq_cst fence
// (proofs/idempotent.md).
//
// Growth: put doubles the array when it is full, copying [0, tail); old arrays are retired
// and freed in the destructor (a thief may still read them), as chase_lev does.
//
// Values: T must be trivially copyable and fit a lock-free atomic (a task pointer, an index):
// a value taken twice is a copy taken twice, which a boxed move-only T cannot be
// (value_support::scalar). Returns: pop gives nullopt when empty; steal gives item, empty, or
// abort when its CAS lost (to another thief, to the owner's take or to a put).
// Complexity: push amortised O(1) (O(n) on growth), pop and steal O(1); pop and push are
// wait-free, steal lock-free.
#pragma once

#include <array>
#include <atomic>
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

/// The memory-order sites of the idempotent LIFO deque (Michael et al. 2009, Section 3).
struct idempotent_sites {
  static constexpr std::string_view variant = "idempotent";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  static constexpr bool tagged = true;  ///< put increments the anchor's tag
  using mo = std::memory_order;
  // push (the paper's put)
  static constexpr site push_load_anchor{
      "idempotent::push.load_anchor", mo::relaxed, site_kind::load,
      "owner reads its own store or a thief's CAS; a thief reading this push's slot store while "
      "the owner reads its CAS is a po-rf cycle (LB), which RC11 forbids"};
  static constexpr site push_load_array{"idempotent::push.load_array", mo::relaxed, site_kind::load,
                                        "only the owner stores array"};
  static constexpr site push_store_slot{
      "idempotent::push.store_slot", mo::release, site_kind::store,
      "pairs with steal.load_slot (MP): a thief that reads this value also sees the anchor "
      "stores before it, so its CAS of an older anchor fails instead of taking a value pushed "
      "after the anchor it read (killed in push2_pop2_push2_steal2)"};
  static constexpr site push_store_anchor{
      "idempotent::push.store_anchor", mo::release, site_kind::store,
      "pairs with steal.load_anchor (MP): the thief's slot read sees the pushed value (killed "
      "in push_pop_steal2)"};
  // pop (the paper's take)
  static constexpr site pop_load_anchor{"idempotent::pop.load_anchor", mo::relaxed, site_kind::load,
                                        "owner reads its own store or a thief's CAS (as push)"};
  static constexpr site pop_load_array{"idempotent::pop.load_array", mo::relaxed, site_kind::load,
                                       "only the owner stores array"};
  static constexpr site pop_load_slot{"idempotent::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site pop_store_anchor{
      "idempotent::pop.store_anchor", mo::release, site_kind::store,
      "tail - 1: a thief that reads it takes a slot pushed earlier, which only a release store "
      "carries (C++20 release sequences end at a plain store; killed in push2_pop_steal2)"};
  // steal
  static constexpr site steal_load_anchor{
      "idempotent::steal.load_anchor", mo::acquire, site_kind::load,
      "pairs with push.store_anchor and pop.store_anchor (MP): the slot read below sees the "
      "value pushed there (killed in push_pop_steal2)"};
  static constexpr site steal_load_array{
      "idempotent::steal.load_array", mo::acquire, site_kind::load,
      "pairs with grow.store_array: the copied slots are visible through the new array (killed "
      "in push3_pop2_2thieves)"};
  static constexpr site steal_load_slot{
      "idempotent::steal.load_slot", mo::acquire, site_kind::load,
      "pairs with push.store_slot: the CAS below then reads an anchor at least as new as the "
      "slot's value (killed in push2_pop2_push2_steal2)"};
  static constexpr site steal_cas{"idempotent::steal.cas", mo::relaxed, site_kind::rmw,
                                  "claims the tail by RMW atomicity; publishes nothing a later "
                                  "reader needs (its release sequence carries the owner's)"};
  static constexpr site steal_cas_failure{"idempotent::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "abort uses nothing it read"};
  // grow (the paper's expand)
  static constexpr site grow_load_slot{"idempotent::grow.load_slot", mo::relaxed, site_kind::load,
                                       "owner reads its own stores"};
  static constexpr site grow_store_slot{"idempotent::grow.store_slot", mo::relaxed,
                                        site_kind::store, "published by grow.store_array"};
  static constexpr site grow_store_array{
      "idempotent::grow.store_array", mo::release, site_kind::store,
      "pairs with steal.load_array: the copied slots are visible through the new array (MP; "
      "killed in push3_pop2_2thieves)"};
  // size_hint
  static constexpr site size_load{"idempotent::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_anchor,  &S::push_load_array,  &S::push_store_slot,
                      &S::push_store_anchor, &S::pop_load_anchor,  &S::pop_load_array,
                      &S::pop_load_slot,     &S::pop_store_anchor, &S::steal_load_anchor,
                      &S::steal_load_array,  &S::steal_load_slot,  &S::steal_cas,
                      &S::steal_cas_failure, &S::grow_load_slot,   &S::grow_store_slot,
                      &S::grow_store_array,  &S::size_load};
  }
};

/// Idempotent LIFO deque (see the file comment).
template <class T, class Mem = native_memory, class Sites = idempotent_sites>
class idempotent_deque {
  using ring = detail::growing_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;
  static_assert(!codec::boxed,
                "idempotent: a value may be taken twice, so T must be trivially copyable and fit "
                "a lock-free atomic (a task pointer, an index)");

  static constexpr std::int64_t tail_of(std::uint64_t anchor) noexcept {
    return static_cast<std::int64_t>(anchor & 0xffffffffu);
  }
  static constexpr std::uint64_t tag_of(std::uint64_t anchor) noexcept { return anchor >> 32; }
  static constexpr std::uint64_t make_anchor(std::uint64_t tag, std::int64_t tail) noexcept {
    return (tag << 32) | static_cast<std::uint64_t>(tail);
  }

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: 1 <= initial_capacity (rounded up to a power of two); at most 2^31 values held.
  explicit idempotent_deque(std::int64_t initial_capacity = 64)
      : array_(ring::initial(initial_capacity, 1, source_loc::current()), "array") {}

  idempotent_deque(const idempotent_deque&) = delete;
  idempotent_deque& operator=(const idempotent_deque&) = delete;

  /// Requires: no operation is running. (T is trivially copyable: nothing to destroy.)
  ~idempotent_deque() {
    Mem::destroy(array_.load(std::memory_order_relaxed));  // quiescent
    for (ring* r : retired_)
      Mem::destroy(r);
  }

  /// Thread role: owner. Always succeeds (grows when full). The paper's put.
  STEALCHECK_OWNER_INLINE void push(T v) {
    const std::uint64_t anchor = anchor_.load(Mem::order(Sites::push_load_anchor));
    const std::int64_t t = tail_of(anchor);
    ring* a = array_.load(Mem::order(Sites::push_load_array));  // own store
    if (t == a->capacity) a = grow(a, t);
    // release (push.store_slot) pairs with steal's acquire load of the slot: the anchors before
    a->at(t).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    const std::uint64_t tag = Sites::tagged ? tag_of(anchor) + 1 : tag_of(anchor);
    // release (push.store_anchor) pairs with steal's acquire load of the anchor: the slot.
    anchor_.store(make_anchor(tag & 0xffffffffu, t + 1), Mem::order(Sites::push_store_anchor));
  }

  /// Thread role: owner. Takes the value at the tail; nullopt when empty. A thief may take
  /// the same value (at least once). The paper's take: no RMW, no fence.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::uint64_t anchor = anchor_.load(Mem::order(Sites::pop_load_anchor));
    const std::int64_t t = tail_of(anchor);
    if (t == 0) return std::nullopt;
    ring* a = array_.load(Mem::order(Sites::pop_load_array));  // own store
    const stored x = a->at(t - 1).load(Mem::order(Sites::pop_load_slot));
    // release (pop.store_anchor): a thief that reads tail - 1 reads slots pushed before it
    anchor_.store(make_anchor(tag_of(anchor), t - 1), Mem::order(Sites::pop_store_anchor));
    return codec::decode(x);
  }

  /// Thread role: any. Takes the value at the tail: item | empty | abort (lost the CAS).
  /// The paper's steal.
  steal_result<T> steal() {
    std::uint64_t anchor = anchor_.load(Mem::order(Sites::steal_load_anchor));  // pairs stores
    const std::int64_t t = tail_of(anchor);
    if (t == 0) return steal_result<T>::empty();
    ring* a = array_.load(Mem::order(Sites::steal_load_array));  // pairs grow.store_array
    // acquire (steal.load_slot) pairs with push.store_slot: the CAS sees the anchors before it
    const stored x = a->at(t - 1).load(Mem::order(Sites::steal_load_slot));
    if (!anchor_.compare_exchange_strong(anchor, make_anchor(tag_of(anchor), t - 1),
                                         Mem::order(Sites::steal_cas),
                                         Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: any. The tail from one relaxed load: the values present when quiescent.
  std::int64_t size_hint() const { return tail_of(anchor_.load(Mem::order(Sites::size_load))); }

 private:
  // Owner only. The paper's expand: copies [0, t) into an array twice the size and publishes
  // it; the old array is retired (freed in the destructor), since thieves may still read it.
  ring* grow(ring* old, std::int64_t t) {
    ring* fresh =
        old->doubled(0, t, Mem::order(Sites::grow_load_slot), Mem::order(Sites::grow_store_slot));
    retired_.push_back(old);
    // release (grow.store_array) pairs with steal's acquire load of array: copies visible.
    array_.store(fresh, Mem::order(Sites::grow_store_array));
    return fresh;
  }

  alignas(64) typename Mem::template atomic<std::uint64_t> anchor_{0, "anchor"};
  typename Mem::template atomic<ring*> array_;
  std::vector<ring*> retired_;  // owner-only; freed in the destructor
};

/// KNOWN-BAD: put keeps the tag. A thief that read the anchor before the owner's take and put
/// at the same index still wins its CAS: it returns the taken value again and lowers the tail
/// below the value just pushed, which no one takes (a value lost).
struct idempotent_sites_no_tag : idempotent_sites {
  static constexpr std::string_view variant = "idempotent_no_tag";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "put keeps the anchor's tag: a stalled thief's CAS succeeds after take and put (ABA)";
  static constexpr failure_set must_show{failure_kind::value_lost, failure_kind::value_taken_twice};
  using fixed_in = idempotent_sites;
  static constexpr std::string_view fixed_by = "tagged = true (put increments the anchor's tag)";
  static constexpr bool tagged = false;
};

template <class T, class Mem = native_memory>
using idempotent_no_tag = idempotent_deque<T, Mem, idempotent_sites_no_tag>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
