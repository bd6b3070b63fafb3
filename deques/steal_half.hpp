// deques/steal_half.hpp: a bounded work-stealing ring whose thieves take about half of the
// victim's items in one steal (Hendler, Shavit, "Non-blocking Steal-Half Work Queues", PODC
// 2002; Go's runqsteal and Tokio's steal_into take half the same way). Owner pop stays LIFO.
//
// Thread role: push, pop by the owner; steal by any thread; victim.steal_into(mine) by the
// owner of `mine` (any thread may be a thief as long as it owns the destination).
//
// Layout. `bottom` (32-bit index, written by the owner only) and one 64-bit word `top` =
// (pop epoch << 32) | top index. Indices wrap modulo 2^32; ring positions are index & mask.
//
// Why an epoch. A thief computes its batch k = ceil(n/2) from n = bottom - top as it read
// them, then claims [top, top+k) with one CAS on `top`. Chase-Lev's rule "the owner needs a CAS
// only for the last item" is not enough here: the thief may have read a `bottom` from before
// several owner pops, so its claim can reach indices the owner pops meanwhile. So every pop
// that may race a thief is an RMW on `top`: after publishing bottom-1, pop adds 1 to the epoch
// (fetch_add, release). Any thief that read `top` before that RMW fails its CAS (RMW
// atomicity: the CAS's expected word is no longer the latest), and any thief that reads `top`
// after it also sees the decremented bottom (the RMW is release and every later write to `top`
// is an RMW, so it is in the RMW's release sequence), hence claims at most
// ceil((b-t)/2) <= b-t items below the owner's index. pop reads its own `top` from the RMW,
// so it sees every claim that came first. The cost is one locked instruction per non-empty
// pop, the price Chase-Lev pays for its seq_cst fence on x86; no fence is needed anywhere.
// Every store of bottom is a release store: a thief may read bottom from a pop's store, and
// (unlike Chase-Lev, whose push publishes with a release *fence* that also covers the owner's
// later relaxed stores) only a release store there carries the earlier pushes' slots to it.
// ABA: a thief stalled between its load of `top` and its CAS across exactly 2^32 pops with
// the same top index could succeed wrongly; stealcheck accepts that bound (as Go and Tokio
// accept their 32-bit indices).
//
// Batch bound (the spec's steal_batch, deques/spec.hpp): 1 <= k <= ceil(n/2) where n is the
// size at the claiming CAS, additionally capped by the free room in the destination (so a
// nearly full destination receives fewer). The first item of the batch is returned, the rest
// are pushed into the destination in top-to-bottom order and published with one release
// store of its bottom.
//
// Overflow policy: the ring never grows. push on a full ring returns false and leaves the
// value with the caller (moved from only on success); a scheduler then runs the task inline
// (Go instead spills half the ring to a global queue; stealcheck has no global queue).
//
// Values: see deques/slot.hpp. Complexity: push, pop, steal O(1); steal_into O(k). Lock-free.
#pragma once

#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

struct steal_half_sites {
  static constexpr std::string_view variant = "steal_half";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  static constexpr site push_load_bottom{"steal_half::push.load_bottom", mo::relaxed,
                                         site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_load_top{
      "steal_half::push.load_top", mo::acquire, site_kind::load,
      "pairs with the release CAS of the thief that took a slot, so its read of the slot happens "
      "before the owner reuses it; not needed under RC11: the thief reading the reuse while the "
      "owner reads its CAS is a po-rf cycle (LB), which RC11 forbids (stealcheck mutate: "
      "relaxed gives the same executions); kept for models without that axiom"};
  static constexpr site push_store_slot{"steal_half::push.store_slot", mo::relaxed,
                                        site_kind::store, "published by push.store_bottom"};
  static constexpr site push_store_bottom{
      "steal_half::push.store_bottom", mo::release, site_kind::store,
      "pairs with steal.load_bottom: publishes the slot (MP); relaxed lets a thief read a stale "
      "slot (killed in push_pop_steal2)"};
  static constexpr site pop_load_bottom{"steal_half::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_fast_load_top{
      "steal_half::pop.fast_load_top", mo::relaxed, site_kind::load,
      "only decides 'empty': a stale top is smaller, so empty-by-stale-top is really empty"};
  static constexpr site pop_store_bottom{
      "steal_half::pop.store_bottom", mo::release, site_kind::store,
      "pairs with steal.load_bottom: a thief that reads this bottom must see the slots pushed "
      "before it (MP); relaxed breaks that (C++20 release sequences end at a plain store), found "
      "by the model checker as a stale slot read (killed in push2_pop_steal2)"};
  static constexpr site pop_bump_epoch{
      "steal_half::pop.bump_epoch", mo::release, site_kind::rmw,
      "release: a thief reading top from it or a later RMW sees the decremented bottom (MP "
      "through the RMW chain on top); the RMW itself fails every claim computed before it "
      "(killed in push_pop_steal2)"};
  static constexpr site pop_load_slot{"steal_half::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site pop_restore_bottom{
      "steal_half::pop.restore_bottom", mo::release, site_kind::store,
      "release like every store of bottom; not needed under RC11 (proofs/steal_half.md): the "
      "restored bottom equals top, so a thief that reads it and a newer top finds the ring "
      "empty, and one that read top before the pop's epoch bump fails its CAS (stealcheck "
      "mutate: relaxed gives more executions, no bug)"};
  static constexpr site steal_load_top{
      "steal_half::steal.load_top", mo::acquire, site_kind::load,
      "pairs with pop.bump_epoch via the RMW chain on top: the bottom read next is at most the "
      "bottom the last pop published (MP); relaxed lets a claim reach a popped index (killed in "
      "push_pop_steal2)"};
  static constexpr site steal_load_bottom{
      "steal_half::steal.load_bottom", mo::acquire, site_kind::load,
      "pairs with push.store_bottom (MP): slots below bottom hold the pushed values (killed in "
      "push_pop_steal2)"};
  static constexpr site steal_load_slot{"steal_half::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_bottom"};
  static constexpr site steal_cas{
      "steal_half::steal.cas", mo::release, site_kind::rmw,
      "claims [top, top+k) unless top changed; release pairs with a later thief's acquire "
      "load of top: that thief then reads a bottom at least the one this thief saw, or it "
      "reports empty beside a pushed item (killed in push2_push2_steal_2thieves)"};
  static constexpr site steal_cas_failure{"steal_half::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "abort uses nothing it read"};
  static constexpr site into_load_dest_bottom{
      "steal_half::steal_into.load_dest_bottom", mo::relaxed, site_kind::load,
      "the thief owns the destination: reads its own last store of that ring's bottom"};
  static constexpr site into_load_dest_top{
      "steal_half::steal_into.load_dest_top", mo::acquire, site_kind::load,
      "as push.load_top, for the destination ring the thief owns; not needed under RC11 for the "
      "same reason (stealcheck mutate: relaxed gives the same executions)"};
  static constexpr site into_store_dest_slot{"steal_half::steal_into.store_dest_slot", mo::relaxed,
                                             site_kind::store,
                                             "published by steal_into.store_dest_bottom"};
  static constexpr site into_store_dest_bottom{
      "steal_half::steal_into.store_dest_bottom", mo::release, site_kind::store,
      "as push.store_bottom: publishes the batch to the destination's thieves (MP; killed in "
      "steal_from_thief)"};
  static constexpr site size_load{"steal_half::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_bottom,       &S::push_load_top,      &S::push_store_slot,
                      &S::push_store_bottom,      &S::pop_load_bottom,    &S::pop_fast_load_top,
                      &S::pop_store_bottom,       &S::pop_bump_epoch,     &S::pop_load_slot,
                      &S::pop_restore_bottom,     &S::steal_load_top,     &S::steal_load_bottom,
                      &S::steal_load_slot,        &S::steal_cas,          &S::steal_cas_failure,
                      &S::into_load_dest_bottom,  &S::into_load_dest_top, &S::into_store_dest_slot,
                      &S::into_store_dest_bottom, &S::size_load};
  }
};

template <class T, class Mem = native_memory, class Sites = steal_half_sites>
class steal_half {
  using ring = detail::wrapping_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;
  static constexpr std::uint64_t epoch_one = std::uint64_t{1} << 32;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// Requires: 1 <= capacity <= 2^30 (rounded up to a power of two). The ring never grows.
  explicit steal_half(std::int64_t capacity = 256)
      : top_(0, "top"), bottom_(0, "bottom"), ring_(capacity) {}

  steal_half(const steal_half&) = delete;
  steal_half& operator=(const steal_half&) = delete;

  /// Requires: no operation is running. Destroys the values still in the ring.
  ~steal_half() {
    // Quiescent: no concurrent access, so relaxed loads read the final values.
    ring_.discard(index(top_.load(std::memory_order_relaxed)),
                  bottom_.load(std::memory_order_relaxed));
  }

  /// Thread role: owner. Returns false (and leaves v untouched) when the ring is full; callers
  /// must check it (generic code over the concept treats a void push as always succeeding).
  STEALCHECK_OWNER_INLINE bool push(T&& v) {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::push_load_bottom));   // own store
    const std::uint32_t t = index(top_.load(Mem::order(Sites::push_load_top)));  // see site
    if (ring_.full(t, b)) return false;
    at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    // release (push.store_bottom) pairs with steal.load_bottom: publishes the slot.
    bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));
    return true;
  }
  STEALCHECK_OWNER_INLINE bool push(const T& v) {
    T copy(v);
    return push(std::move(copy));
  }

  /// Thread role: owner. The bottom value, or nullopt when empty (including when thieves
  /// claimed the remaining items first).
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::pop_load_bottom));  // own store
    // relaxed (pop.fast_load_top): a stale top is smaller, so "empty" here is really empty.
    if (distance(index(top_.load(Mem::order(Sites::pop_fast_load_top))), b) <= 0) {
      return std::nullopt;
    }
    const std::uint32_t b1 = b - 1;
    // release (pop.store_bottom): a thief reading b1 also sees the slots pushed before.
    bottom_.store(b1, Mem::order(Sites::pop_store_bottom));
    // release RMW (pop.bump_epoch): fails every claim computed before it; publishes bottom.
    const std::uint32_t t = index(top_.fetch_add(epoch_one, Mem::order(Sites::pop_bump_epoch)));
    if (distance(t, b1) < 0) {  // thieves claimed everything up to b
      bottom_.store(b, Mem::order(Sites::pop_restore_bottom));  // release: as above
      return std::nullopt;
    }
    return codec::decode(at(b1).load(Mem::order(Sites::pop_load_slot)));
  }

  /// Thread role: any. The top value: item | empty | abort (a pop or another steal changed
  /// top between this steal's load of top and its CAS).
  steal_result<T> steal() {
    return claim([](std::int64_t) { return std::int64_t{1}; }, [](std::int64_t, stored) {},
                 [](std::int64_t) {});
  }

  /// Thread role: the owner of `mine`. Requires: &mine != this.
  /// Takes k = min(ceil(n/2), room in mine + 1) items from the top of this ring: returns the
  /// first and pushes the other k-1 into `mine` (published with one release store).
  steal_result<T> steal_into(steal_half& mine) {
    assert(&mine != this && "steal_half::steal_into: cannot steal into the victim itself");
    const std::uint32_t db = mine.bottom_.load(Mem::order(Sites::into_load_dest_bottom));  // own
    // acquire (steal_into.load_dest_top): as push.load_top, for the destination.
    const std::uint32_t dt = index(mine.top_.load(Mem::order(Sites::into_load_dest_top)));
    const std::int64_t room = mine.capacity() - distance(dt, db);
    return claim(
        [room](std::int64_t n) {
          const std::int64_t half = n - n / 2;
          return half < room + 1 ? half : room + 1;
        },
        [&mine, db](std::int64_t j, stored x) {
          mine.at(db + static_cast<std::uint32_t>(j - 1))
              .store(x, Mem::order(Sites::into_store_dest_slot));
        },
        [&mine, db](std::int64_t k) {
          // release (steal_into.store_dest_bottom): publishes the batch to mine's thieves.
          mine.bottom_.store(db + static_cast<std::uint32_t>(k - 1),
                             Mem::order(Sites::into_store_dest_bottom));
        });
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::uint32_t t = index(top_.load(Mem::order(Sites::size_load)));
    const std::int64_t n = distance(t, b);
    return n > 0 ? n : 0;
  }

  std::int64_t capacity() const noexcept { return ring_.capacity(); }

 private:
  // The shared steal path: read top then bottom, size the batch with `batch(n)`, read the k
  // slots (the first kept, the others handed to `place(j, x)`), CAS top forward by k, then
  // `publish(k)`. Returns abort if the CAS fails (nothing placed is published).
  template <class Batch, class Place, class Publish>
  steal_result<T> claim(Batch batch, Place place, Publish publish) {
    // acquire (steal.load_top) pairs with pop.bump_epoch through the RMW chain on top.
    std::uint64_t word = top_.load(Mem::order(Sites::steal_load_top));
    const std::uint32_t t = index(word);
    // acquire (steal.load_bottom) pairs with push.store_bottom: slots [t, b) are published.
    const std::uint32_t b = bottom_.load(Mem::order(Sites::steal_load_bottom));
    const std::int64_t n = distance(t, b);
    if (n <= 0) return steal_result<T>::empty();
    const std::int64_t k = batch(n);
    const stored first = at(t).load(Mem::order(Sites::steal_load_slot));
    for (std::int64_t j = 1; j < k; ++j) {
      place(j, at(t + static_cast<std::uint32_t>(j)).load(Mem::order(Sites::steal_load_slot)));
    }
    const std::uint64_t next = (word & ~std::uint64_t{0xffffffff}) |
                               static_cast<std::uint32_t>(t + static_cast<std::uint32_t>(k));
    // release CAS (steal.cas): claims [t, t+k); pairs with the next thief's acquire load of top.
    if (!top_.compare_exchange_strong(word, next, Mem::order(Sites::steal_cas),
                                      Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    publish(k);
    return steal_result<T>::item(codec::decode(first));
  }

  static std::uint32_t index(std::uint64_t word) noexcept {
    return static_cast<std::uint32_t>(word);
  }
  static std::int64_t distance(std::uint32_t t, std::uint32_t b) noexcept {
    return ring::distance(t, b);
  }
  typename ring::slot& at(std::uint32_t i) const noexcept { return ring_.at(i); }

  alignas(64) typename Mem::template atomic<std::uint64_t> top_;
  alignas(64) typename Mem::template atomic<std::uint32_t> bottom_;
  ring ring_;
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
