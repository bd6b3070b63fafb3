// deques/split.hpp: a split deque: the owner's newest items are private and cost no atomic
// read-modify-write and no fence to push or pop; thieves steal only from a shared part that
// the owner enlarges when they ask (van Dijk, van de Pol, "Lace: Non-blocking Split Deque for
// Work-Stealing", Euro-Par 2014 Workshops, LNCS 8806, section 3; the same split of a deque
// into a private and a public part as Dinan et al., "Scalable Work Stealing", SC 2009).
//
// Thread role: push, pop by the owner; steal by any thread.
//
// Layout. Indices are 32-bit and wrap modulo 2^32; ring positions are index & mask. The ring
// holds [top, bottom) and is cut at `split`:
//   [top, split)     shared: thieves take its top item with one CAS on `word`;
//   [split, bottom)  private: only the owner reads or writes it, with no synchronization.
// `word` = (split << 32) | top, one 64-bit atomic, so that every change to either half is one
// atomic step on the same location: a thief's claim (top + 1), the owner's share (split + k,
// a fetch_add on the upper half), the owner's reclaim (split down, a CAS) and the owner's
// last-item take (top + 1, a CAS). The owner keeps its own copy of split (only it moves
// split) and `bottom`, which thieves read only to tell "empty" from "all private".
//
// Sharing on request. A thief that finds the shared part empty but the private part not sets
// `request` and returns abort (legal: a steal may always abort, deques/spec.hpp). The owner
// reads `request` (one relaxed load) in every push and pop and, when it is set, shares the
// older half of its private items with one release fetch_add. Lace shares the same way
// (SPAWN checks `splitreq`; grow_shared moves split to the middle of the private part).
// While `request` is set a thief aborts without reading `bottom` (the owner's hottest line).
// A pop that finds that thieves took every shared item makes the next push share at once, as
// Lace's SPAWN does after "all stolen": active thieves then find work without asking first.
//
// Reclaiming. A pop that finds the private part empty takes back the newer half of the shared
// part with a CAS that lowers split, and pops from it; with one shared item left it takes that
// item from the top with a CAS, exactly as a thief would (Lace lowers split with a store and a
// fence; a CAS on the whole word does the same and keeps split one-writer). The owner never
// lowers split to top itself: so while `top` keeps a value t, slot t keeps its value, and a
// thief that read the word and then slot t can CAS on the word with no ABA (a word equal to the
// one it read has the same top, hence the same slot t contents).
//
// Overflow policy: the ring never grows. push on a full ring returns false and leaves the
// value with the caller (moved from only on success); a scheduler then runs the task inline.
//
// Costs: push and pop of a private item: plain loads and stores (no RMW, no fence) plus one
// relaxed load of `request`; a share: one RMW; a pop on an empty private part: one CAS; a
// steal: one CAS. Complexity: every operation O(1) (a pop retries its CAS only when a thief's
// claim changed the word). Lock-free. Values: see deques/slot.hpp.
// What a thief cannot get: an item the owner keeps private until it next pushes or pops. A
// scheduler loses no work by that (the owner runs it), only parallelism while the owner runs
// a long leaf.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

struct split_sites {
  static constexpr std::string_view variant = "split";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  static constexpr site push_load_bottom{"split::push.load_bottom", mo::relaxed, site_kind::load,
                                         "owner reads its own last store of bottom"};
  static constexpr site push_load_top{
      "split::push.load_top", mo::acquire, site_kind::load,
      "only when the ring looks full: pairs with the release CAS of the thief that took a slot, "
      "so its read of the slot happens before the owner reuses it; not needed under RC11: the "
      "thief reading the reuse while the owner reads its CAS is a po-rf cycle (LB), which RC11 "
      "forbids; kept for models without that axiom"};
  static constexpr site push_store_slot{"split::push.store_slot", mo::relaxed, site_kind::store,
                                        "private until share.add_split publishes it"};
  static constexpr site push_store_bottom{
      "split::push.store_bottom", mo::relaxed, site_kind::store,
      "publishes nothing: thieves read bottom only to tell empty from all-private"};
  static constexpr site load_request{
      "split::load_request", mo::relaxed, site_kind::load,
      "a hint: a request seen late only delays the share to a later push or pop"};
  static constexpr site clear_request{"split::share.clear_request", mo::relaxed, site_kind::store,
                                      "a hint, as load_request"};
  static constexpr site share_add_split{
      "split::share.add_split", mo::release, site_kind::rmw,
      "pairs with steal.load_word: publishes the slots it shares (MP); relaxed lets a thief "
      "read a stale slot (killed in push2_pop3_steal2)"};
  static constexpr site pop_load_bottom{"split::pop.load_bottom", mo::relaxed, site_kind::load,
                                        "owner reads its own last store of bottom"};
  static constexpr site pop_store_bottom{
      "split::pop.store_bottom", mo::relaxed, site_kind::store,
      "the popped item was private: no thief can reach it, bottom is only a hint to them"};
  static constexpr site pop_load_slot{"split::pop.load_slot", mo::relaxed, site_kind::load,
                                      "owner reads its own store"};
  static constexpr site reclaim_load_word{
      "split::reclaim.load_word", mo::relaxed, site_kind::load,
      "only the expected value of reclaim.cas, which fails on any stale word"};
  static constexpr site reclaim_cas{
      "split::reclaim.cas", mo::relaxed, site_kind::rmw,
      "RMW atomicity alone decides the race with steal.cas; the owner reads only slots it wrote "
      "and a thief reading this word synchronizes with the share before it (release sequence)"};
  static constexpr site reclaim_cas_failure{"split::reclaim.cas_failure", mo::relaxed,
                                            site_kind::cas_failure,
                                            "the retry uses only the word it read"};
  static constexpr site steal_load_word{
      "split::steal.load_word", mo::acquire, site_kind::load,
      "pairs with share.add_split: slots below split hold the shared values (MP; killed in "
      "push2_pop3_steal2)"};
  static constexpr site steal_load_slot{"split::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_word"};
  static constexpr site steal_cas{
      "split::steal.cas", mo::release, site_kind::rmw,
      "claims the top item unless the word changed; release pairs with push.load_top (slot read "
      "before reuse), not needed under RC11 for the same reason (the reuse race is an LB cycle)"};
  static constexpr site steal_cas_failure{"split::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "abort uses nothing it read"};
  static constexpr site steal_load_bottom{
      "split::steal.load_bottom", mo::relaxed, site_kind::load,
      "tells empty (bottom == split) from all-private; reads no slot"};
  static constexpr site steal_store_request{"split::steal.store_request", mo::relaxed,
                                            site_kind::store,
                                            "a hint, as load_request; publishes nothing"};
  static constexpr site size_load{"split::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_bottom,    &S::push_load_top,     &S::push_store_slot,
                      &S::push_store_bottom,   &S::load_request,      &S::clear_request,
                      &S::share_add_split,     &S::pop_load_bottom,   &S::pop_store_bottom,
                      &S::pop_load_slot,       &S::reclaim_load_word, &S::reclaim_cas,
                      &S::reclaim_cas_failure, &S::steal_load_word,   &S::steal_load_slot,
                      &S::steal_cas,           &S::steal_cas_failure, &S::steal_load_bottom,
                      &S::steal_store_request, &S::size_load};
  }
};

template <class T, class Mem = native_memory, class Sites = split_sites>
class split_deque {
  using ring = detail::wrapping_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;
  /// Thieves reach only what the owner shared (deques/deque.hpp, owner_shares_v).
  static constexpr bool owner_shares = true;

  /// Requires: 1 <= capacity <= 2^30 (rounded up to a power of two). The ring never grows.
  explicit split_deque(std::int64_t capacity = 256)
      : word_(0, "word"), request_(0, "request"), bottom_(0, "bottom"), ring_(capacity) {}

  split_deque(const split_deque&) = delete;
  split_deque& operator=(const split_deque&) = delete;

  /// Requires: no operation is running. Destroys the values still in the ring.
  ~split_deque() {
    // Quiescent: no concurrent access, so relaxed loads read the final values.
    ring_.discard(top_of(word_.load(std::memory_order_relaxed)),
                  bottom_.load(std::memory_order_relaxed));
  }

  /// Thread role: owner. Returns false (and leaves v untouched) when the ring is full.
  /// The new item is private; it becomes stealable when a thief asks and the owner shares.
  STEALCHECK_OWNER_INLINE bool push(T&& v) {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::push_load_bottom));  // own store
    if (ring_.full(top_seen_, b)) [[unlikely]] {
      if (full(b)) return false;
    }
    at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    bottom_.store(b + 1, Mem::order(Sites::push_store_bottom));  // a hint to thieves
    if (eager_ || request_.load(Mem::order(Sites::load_request)) != 0) [[unlikely]]
      share(b + 1);
    return true;
  }
  STEALCHECK_OWNER_INLINE bool push(const T& v) {
    T copy(v);
    return push(std::move(copy));
  }

  /// Thread role: owner. The bottom value, or nullopt when empty (including when thieves
  /// took every shared item first).
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::pop_load_bottom));  // own store
    if (distance(split_, b) > 0) [[likely]] {
      if (request_.load(Mem::order(Sites::load_request)) != 0 && distance(split_, b) > 1)
          [[unlikely]] {
        share(b);  // keeps at least the bottom item private
      }
      const std::uint32_t b1 = b - 1;
      bottom_.store(b1, Mem::order(Sites::pop_store_bottom));  // private: a hint only
      return codec::decode(at(b1).load(Mem::order(Sites::pop_load_slot)));
    }
    return pop_shared(b);
  }

  /// Thread role: any. The top shared value: item | empty | abort (another steal or the
  /// owner's reclaim changed the word, or every item is private: the owner is then asked to
  /// share).
  steal_result<T> steal() {
    // acquire (steal.load_word) pairs with share.add_split: slots [top, split) are published.
    std::uint64_t word = word_.load(Mem::order(Sites::steal_load_word));
    const std::uint32_t t = top_of(word);
    const std::uint32_t s = split_of(word);
    if (distance(t, s) <= 0) {
      // Already asked: the owner has not shared since. Reading bottom again would only pull
      // the owner's hottest line away from it.
      if (request_.load(Mem::order(Sites::load_request)) != 0) return steal_result<T>::abort();
      if (distance(s, bottom_.load(Mem::order(Sites::steal_load_bottom))) <= 0) {
        return steal_result<T>::empty();
      }
      request_.store(1, Mem::order(Sites::steal_store_request));  // ask the owner to share
      return steal_result<T>::abort();
    }
    const stored x = at(t).load(Mem::order(Sites::steal_load_slot));
    // release CAS (steal.cas): claims slot t; pairs with push.load_top (reuse after read).
    if (!word_.compare_exchange_strong(word, with_top(word, t + 1), Mem::order(Sites::steal_cas),
                                       Mem::order(Sites::steal_cas_failure))) {
      return steal_result<T>::abort();
    }
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: any. bottom - top from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::uint32_t b = bottom_.load(Mem::order(Sites::size_load));
    const std::uint32_t t = top_of(word_.load(Mem::order(Sites::size_load)));
    const std::int64_t n = distance(t, b);
    return n > 0 ? n : 0;
  }

  /// Thread role: any. The shared items, split - top, from one relaxed load of the thieves'
  /// word: what a steal can take now (private items are not counted; a steal that finds only
  /// those asks the owner to share). A scheduler's re-check before it parks a thief
  /// (scheduler/pool.hpp, work_visible). Complexity: O(1).
  std::int64_t shared_size_hint() const {
    const std::uint64_t word = word_.load(Mem::order(Sites::size_load));  // relaxed: a snapshot
    const std::int64_t n = distance(top_of(word), split_of(word));
    return n > 0 ? n : 0;
  }

  std::int64_t capacity() const noexcept { return ring_.capacity(); }

  /// Thread role: owner. The private items (bottom - split): the owner's own fields plus one
  /// relaxed load of the request flag, never the thieves' word. 0 while a thief's request or
  /// an eager share waits, so that a scheduler that pushes only below some count
  /// (scheduler/pool.hpp, pool_options::throttle) pushes, and its push shares. Complexity: O(1).
  STEALCHECK_OWNER_INLINE std::int64_t owner_size_hint() const {
    // relaxed (load_request): pairs with steal.store_request, a hint; seen late, the request
    // is served by a later push or pop, and no item's value depends on it.
    if (eager_ || request_.load(Mem::order(Sites::load_request)) != 0) return 0;
    return distance(split_, bottom_.load(Mem::order(Sites::pop_load_bottom)));  // own store
  }

 private:
  static constexpr std::uint64_t split_one = std::uint64_t{1} << 32;

  // Owner: the ring looked full from the last top seen. Reads top again; if the ring is full,
  // still serves a thief's request (a ring full of private items would otherwise never be
  // stolen from while its owner retries the push).
  [[gnu::noinline]] bool full(std::uint32_t b) {
    // acquire (push.load_top): see the site.
    top_seen_ = top_of(word_.load(Mem::order(Sites::push_load_top)));
    if (!ring_.full(top_seen_, b)) return false;
    if (request_.load(Mem::order(Sites::load_request)) != 0 && distance(split_, b) > 0) share(b);
    return true;
  }

  // Owner: shares the older half (rounded up) of the private items [split_, b).
  [[gnu::noinline]] void share(std::uint32_t b) {
    eager_ = false;
    request_.store(0, Mem::order(Sites::clear_request));
    const std::uint32_t k = static_cast<std::uint32_t>((distance(split_, b) + 1) / 2);
    // release RMW (share.add_split) pairs with steal.load_word: publishes slots [split_, +k).
    word_.fetch_add(split_one * k, Mem::order(Sites::share_add_split));
    split_ += k;
  }

  // Owner: the private part is empty (b == split_). Takes back the newer half of the shared
  // part and pops from it, or the last shared item from the top; nullopt if thieves took all.
  [[gnu::noinline]] std::optional<T> pop_shared(std::uint32_t b) {
    std::uint64_t word = word_.load(Mem::order(Sites::reclaim_load_word));
    for (;;) {
      const std::uint32_t t = top_of(word);
      const std::int64_t n = distance(t, b);  // split_of(word) == split_ == b
      if (n <= 0) {
        // Thieves took everything shared: they are active, so share the next push at once
        // (Lace does the same after "all stolen") instead of waiting for their request.
        eager_ = t != top_seen_;
        top_seen_ = t;
        return std::nullopt;
      }
      if (n == 1) {  // the last shared item: take it from the top, as a thief would
        if (cas(word, with_top(word, t + 1))) {
          top_seen_ = t + 1;
          return codec::decode(at(t).load(Mem::order(Sites::pop_load_slot)));
        }
        continue;
      }
      const std::uint32_t m = b - static_cast<std::uint32_t>(n / 2);  // keeps [t, m) shared
      if (cas(word, (static_cast<std::uint64_t>(m) << 32) | t)) {
        split_ = m;
        const std::uint32_t b1 = b - 1;
        bottom_.store(b1, Mem::order(Sites::pop_store_bottom));  // now private: a hint only
        return codec::decode(at(b1).load(Mem::order(Sites::pop_load_slot)));
      }
    }
  }

  // reclaim.cas: on failure `expected` holds the current word.
  bool cas(std::uint64_t& expected, std::uint64_t desired) {
    return word_.compare_exchange_strong(expected, desired, Mem::order(Sites::reclaim_cas),
                                         Mem::order(Sites::reclaim_cas_failure));
  }

  static std::uint32_t top_of(std::uint64_t word) noexcept {
    return static_cast<std::uint32_t>(word);
  }
  static std::uint32_t split_of(std::uint64_t word) noexcept {
    return static_cast<std::uint32_t>(word >> 32);
  }
  static std::uint64_t with_top(std::uint64_t word, std::uint32_t t) noexcept {
    return (word & ~std::uint64_t{0xffffffff}) | t;
  }
  static std::int64_t distance(std::uint32_t t, std::uint32_t b) noexcept {
    return ring::distance(t, b);
  }
  typename ring::slot& at(std::uint32_t i) const noexcept { return ring_.at(i); }

  // Thieves' line: the split word and the request flag.
  alignas(64) typename Mem::template atomic<std::uint64_t> word_;
  typename Mem::template atomic<std::uint32_t> request_;
  // Owner's line: bottom (thieves only read it), its copy of split, its last seen top.
  alignas(64) typename Mem::template atomic<std::uint32_t> bottom_;
  std::uint32_t split_ = 0;
  std::uint32_t top_seen_ = 0;  // a top the owner read (a lower bound of the current top)
  bool eager_ = false;          // share the next push without a request
  ring ring_;
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
