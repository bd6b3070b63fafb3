// deques/abp.hpp: the non-blocking deque of Arora, Blumofe and Plaxton, "Thread Scheduling for
// Multiprogrammed Multiprocessors", SPAA 1998, Section 3 and Figure 3 (pushBottom, popBottom,
// popTop), with C11 orders.
//
// Thread role: push and pop by the owner only; steal by any thread; size_hint by any thread.
//
// The protocol. A bounded array indexed from 0; `bottom` is the owner's end, and one word
// `age` = (tag << 32) | top is the thieves' end, updated only by CAS. A thief claims index top
// with a CAS of age that keeps the tag. When popBottom empties the deque it resets bottom and
// top to 0 and bumps the tag, racing a thief for the last item with a CAS of age. The tag is
// what stops a thief that read age before the reset, and the slot before it was refilled, from
// claiming index 0 again: its CAS expects the old tag (the ABA problem). The tag has `TagBits`
// bits and wraps; with one bit, two resets bring age back to the value a stalled thief holds
// (the known-bad `abp_tag1`, caught by the client push_pop_push_pop_steal).
//
// Orders (not in the paper, which assumes sequential consistency): pop's store of bottom and
// its load of age, and a thief's load of age and its load of bottom, are an SB+scfs pair
// through two seq_cst fences, as in Chase-Lev (proofs/abp.md). Every store of bottom that a
// thief can read and then take a slot after is a release store (C++20 release sequences end at
// a same-thread plain store); the stores of age that reset it are release, and the thief's
// seq_cst fence after its load of age acquires them, so a thief that reads the reset age also
// reads bottom from the reset on.
//
// Full. push returns false when bottom reached the capacity. Indices do not wrap, so a deque
// whose thieves took everything is full until the owner resets it: push then resets it itself
// when it sees top == bottom (not in the paper, whose owner resets it in popBottom), with the
// same release store of age.
//
// Values: see deques/slot.hpp. Returns: pop gives nullopt when empty or when a thief won the
// last item; steal gives item, empty, or abort when its CAS lost (to a thief or a reset).
// Complexity: push, pop, steal O(1); lock-free (steal may abort).
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck {

/// The memory-order sites of the ABP deque (Arora et al. 1998, Figure 3).
struct abp_sites {
  static constexpr std::string_view variant = "abp";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  // push (Fig. 3 pushBottom)
  static constexpr site push_load_bottom{"abp::push.load_bottom", mo::relaxed, site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_store_slot{"abp::push.store_slot", mo::relaxed, site_kind::store,
                                        "published by push.store_bottom"};
  static constexpr site push_store_bottom{
      "abp::push.store_bottom", mo::release, site_kind::store,
      "pairs with steal.load_bottom (MP): the thief's slot read sees the pushed value (killed "
      "in push_pop_steal2)"};
  static constexpr site push_load_age{"abp::push.load_age", mo::relaxed, site_kind::load,
                                      "full ring only: a stale age says not empty, and push "
                                      "reports full"};
  // pop (Fig. 3 popBottom)
  static constexpr site pop_load_bottom{"abp::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_store_bottom{
      "abp::pop.store_bottom", mo::release, site_kind::store,
      "bottom--: a thief that reads it takes a slot pushed earlier, which only a release store "
      "carries (C++20 release sequences end at a plain store; killed in push2_pop_steal2)"};
  static constexpr site pop_fence{
      "abp::pop.fence", mo::seq_cst, site_kind::fence,
      "with steal.fence orders the store of bottom before the load of age (SB+scfs): without it "
      "owner and thief both take the last item (killed in push2_pop_steal2)"};
  static constexpr site pop_load_slot{"abp::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site pop_load_age{"abp::pop.load_age", mo::relaxed, site_kind::load,
                                     "ordered after the store of bottom by pop.fence"};
  static constexpr site reset_store_bottom{
      "abp::reset.store_bottom", mo::relaxed, site_kind::store,
      "bottom = 0: a thief reading it finds nothing; the age store after it publishes it"};
  static constexpr site pop_cas{
      "abp::pop.cas", mo::release, site_kind::rmw,
      "last-item race with steal.cas by RMW atomicity; release pairs with steal.fence: a "
      "thief that reads the reset age reads bottom = 0 or later (killed in push2_pop_steal2)"};
  static constexpr site pop_cas_failure{"abp::pop.cas_failure", mo::relaxed, site_kind::cas_failure,
                                        "a lost race reads nothing it uses"};
  static constexpr site reset_store_age{
      "abp::reset.store_age", mo::release, site_kind::store,
      "pairs with steal.fence after steal.load_age, as pop.cas: a thief that reads the reset age "
      "reads bottom = 0 or later, not an old bottom above the new top (killed in "
      "push3_pop2_2thieves)"};
  // steal (Fig. 3 popTop)
  static constexpr site steal_load_age{
      "abp::steal.load_age", mo::relaxed, site_kind::load,
      "steal.fence right after it is the acquire half for pop.cas and reset.store_age (a relaxed "
      "load then a seq_cst fence synchronizes); acquire here gives the same executions"};
  static constexpr site steal_fence{
      "abp::steal.fence", mo::seq_cst, site_kind::fence,
      "pairs with pop.fence (SB+scfs on age/bottom): without it a thief and the owner both take "
      "the last item (killed in push2_pop_steal2)"};
  static constexpr site steal_load_bottom{
      "abp::steal.load_bottom", mo::acquire, site_kind::load,
      "pairs with push.store_bottom (MP): the slot read below sees the pushed value (killed in "
      "push_pop_steal2)"};
  static constexpr site steal_load_slot{"abp::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_bottom"};
  static constexpr site steal_cas{"abp::steal.cas", mo::relaxed, site_kind::rmw,
                                  "claims index top by RMW atomicity; publishes nothing"};
  static constexpr site steal_cas_failure{"abp::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "abort uses nothing it read"};
  // size_hint
  static constexpr site size_load{"abp::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{
        &S::push_load_bottom, &S::push_store_slot,    &S::push_store_bottom, &S::push_load_age,
        &S::pop_load_bottom,  &S::pop_store_bottom,   &S::pop_fence,         &S::pop_load_slot,
        &S::pop_load_age,     &S::reset_store_bottom, &S::pop_cas,           &S::pop_cas_failure,
        &S::reset_store_age,  &S::steal_load_age,     &S::steal_fence,       &S::steal_load_bottom,
        &S::steal_load_slot,  &S::steal_cas,          &S::steal_cas_failure, &S::size_load};
  }
};

/// ABP deque (see the file comment). `TagBits` (1..32) is the width of age's tag.
template <class T, class Mem = native_memory, class Sites = abp_sites, unsigned TagBits = 32>
class abp_deque {
  static_assert(TagBits >= 1 && TagBits <= 32, "abp: the tag has 1 to 32 bits");
  using codec = detail::slot_codec<T, Mem>;
  using stored = typename codec::stored;
  using slot = typename Mem::template atomic<stored>;
  static constexpr std::uint64_t tag_mask = (std::uint64_t{1} << TagBits) - 1;

  static constexpr std::int64_t top_of(std::uint64_t age) noexcept {
    return static_cast<std::int64_t>(age & 0xffffffffu);
  }
  static constexpr std::uint64_t tag_of(std::uint64_t age) noexcept { return age >> 32; }
  static constexpr std::uint64_t make_age(std::uint64_t tag, std::int64_t top) noexcept {
    return ((tag & tag_mask) << 32) | static_cast<std::uint64_t>(top);
  }

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: 1 <= capacity <= 2^30. The array never grows (push reports full).
  explicit abp_deque(std::int64_t capacity = 64)
      : capacity_(checked(capacity)),
        slots_(Mem::template create_array<slot>(static_cast<std::size_t>(capacity_), "deq")) {}

  abp_deque(const abp_deque&) = delete;
  abp_deque& operator=(const abp_deque&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~abp_deque() {
    const std::int64_t t = top_of(age_.load(std::memory_order_relaxed));  // quiescent
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    for (std::int64_t i = t; i < b; ++i)
      codec::discard(slots_[static_cast<std::size_t>(i)].load(std::memory_order_relaxed));
    Mem::destroy_array(slots_, static_cast<std::size_t>(capacity_));
  }

  /// Thread role: owner. Fig. 3 pushBottom; false (v kept by the caller) when full.
  STEALCHECK_OWNER_INLINE bool push(T&& v) { return push_impl(std::move(v)); }
  STEALCHECK_OWNER_INLINE bool push(const T& v) { return push_impl(T(v)); }

  /// Thread role: owner. Takes the bottom value; nullopt when empty or when a thief won the
  /// race for the last value. Fig. 3 popBottom.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    std::int64_t b = bottom_.load(Mem::order(Sites::pop_load_bottom));
    if (b == 0) return std::nullopt;
    --b;
    // release: a thief that reads this bottom takes a slot pushed earlier (file comment)
    bottom_.store(b, Mem::order(Sites::pop_store_bottom));
    // seq_cst fence (pop.fence) pairs with steal.fence: store of bottom before load of age.
    Mem::fence(Mem::order(Sites::pop_fence));
    const stored x = slots_[static_cast<std::size_t>(b)].load(Mem::order(Sites::pop_load_slot));
    std::uint64_t old = age_.load(Mem::order(Sites::pop_load_age));
    if (b > top_of(old)) return codec::decode(x);  // more than one item: no thief reaches b
    // The deque is empty after this pop: reset it to 0 with a new tag.
    bottom_.store(0, Mem::order(Sites::reset_store_bottom));
    const std::uint64_t fresh = make_age(tag_of(old) + 1, 0);
    if (b == top_of(old)) {  // the last item: race the thieves for it (release pairs steal)
      if (age_.compare_exchange_strong(old, fresh, Mem::order(Sites::pop_cas),
                                       Mem::order(Sites::pop_cas_failure))) {
        return codec::decode(x);
      }
    }
    age_.store(fresh, Mem::order(Sites::reset_store_age));  // release: pairs with steal.fence
    return std::nullopt;
  }

  /// Thread role: any. Takes the top value: item | empty | abort (lost the CAS of age).
  /// Fig. 3 popTop.
  steal_result<T> steal() {
    std::uint64_t old = age_.load(Mem::order(Sites::steal_load_age));
    // seq_cst fence (steal.fence) pairs with pop.fence: load of age before load of bottom; it
    // is also the acquire half for a reset's release store of age read just above.
    Mem::fence(Mem::order(Sites::steal_fence));
    const std::int64_t b = bottom_.load(Mem::order(Sites::steal_load_bottom));  // pairs push
    const std::int64_t t = top_of(old);
    if (b <= t) return steal_result<T>::empty();
    const stored x = slots_[static_cast<std::size_t>(t)].load(Mem::order(Sites::steal_load_slot));
    if (!age_.compare_exchange_strong(old, make_age(tag_of(old), t + 1),
                                      Mem::order(Sites::steal_cas),
                                      Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::int64_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::int64_t t = top_of(age_.load(Mem::order(Sites::size_load)));
    return b > t ? b - t : 0;
  }

 private:
  static std::int64_t checked(std::int64_t n) {
    assert(n >= 1 && n <= (std::int64_t{1} << 30) && "abp: capacity out of range (1..2^30)");
    return n < 1 ? 1 : (n > (std::int64_t{1} << 30) ? std::int64_t{1} << 30 : n);
  }

  bool push_impl(T&& v) {
    const std::int64_t b = bottom_.load(Mem::order(Sites::push_load_bottom));  // own store
    std::int64_t at = b;
    if (b == capacity_) {
      // Full array: if thieves took everything (top == bottom), reset it as popBottom does.
      const std::uint64_t old = age_.load(Mem::order(Sites::push_load_age));
      if (top_of(old) != b) return false;
      bottom_.store(0, Mem::order(Sites::reset_store_bottom));
      age_.store(make_age(tag_of(old) + 1, 0), Mem::order(Sites::reset_store_age));
      at = 0;
    }
    slots_[static_cast<std::size_t>(at)].store(codec::encode(std::move(v)),
                                               Mem::order(Sites::push_store_slot));
    // release (push.store_bottom) pairs with steal's acquire load of bottom: publishes the slot.
    bottom_.store(at + 1, Mem::order(Sites::push_store_bottom));
    return true;
  }

  const std::int64_t capacity_;
  slot* slots_;
  alignas(64) typename Mem::template atomic<std::uint64_t> age_{0, "age"};
  alignas(64) typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
};

/// KNOWN-BAD: ABP with a 1-bit tag. Two resets bring `age` back to the value a thief read
/// before them; its CAS then succeeds on a slot the owner already popped (the ABA problem the
/// tag exists for): a value is taken twice.
struct abp_sites_tag1 : abp_sites {
  static constexpr std::string_view variant = "abp_tag1";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "a 1-bit tag: two resets recreate the age a stalled thief holds (ABA)";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  using fixed_in = abp_sites;
  static constexpr std::string_view fixed_by = "a 32-bit tag, not 1 bit (abp_deque's TagBits)";
};

/// KNOWN-BAD, deep: ABP with a 2-bit tag. The ABA of abp_tag1 after four resets instead of two:
/// a thief that read age stalls while the owner empties the deque four times (four pops of the
/// last item, nine owner operations), more than any model client runs, so only a longer
/// scenario (`stealcheck fuzz`) wraps the tag. The control is abp itself (a 32-bit tag).
struct abp_sites_tag2 : abp_sites {
  static constexpr std::string_view variant = "abp_tag2";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "a 2-bit tag: four resets recreate the age a stalled thief holds (ABA)";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  using fixed_in = abp_sites;
  static constexpr std::string_view fixed_by = "a 32-bit tag, not 2 bits (abp_deque's TagBits)";
};

template <class T, class Mem = native_memory>
using abp = abp_deque<T, Mem, abp_sites, 32>;
template <class T, class Mem = native_memory>
using abp_tag1 = abp_deque<T, Mem, abp_sites_tag1, 1>;
template <class T, class Mem = native_memory>
using abp_tag2 = abp_deque<T, Mem, abp_sites_tag2, 2>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
