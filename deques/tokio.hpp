// deques/tokio.hpp: the local run queue of Tokio's multi-threaded scheduler with the inject
// queue it overflows into (tokio-rs/tokio, tokio/src/runtime/scheduler/multi_thread/queue.rs:
// Local::push_back_or_overflow, push_overflow, pop; Steal::steal_into, steal_into2, len; the
// inject queue of tokio/src/runtime/scheduler/inject, a mutex-protected list), with Tokio's
// orders.
//
// Thread role: push and pop by the owner (Tokio's Local handle); steal and
// victim.steal_into(mine) by any thread (the Steal handle; for steal_into, the owner of
// `mine`); size_hint by any thread.
//
// Layout. A fixed ring of `capacity` slots (Tokio: 256), which are plain memory (Rust's
// UnsafeCell: here Mem::nonatomic, so the model checker reports a race on them); `tail`, an
// index of `index_bits` bits (Tokio: u32 where 64-bit atomics exist, else u16), written by the
// owner only; and one word `head` packing two such indices, (steal, real). `real` is the head
// of the queue; `steal` differs from it while a thief copies the slots [steal, real) it has
// claimed, and no other thief may start meanwhile. Indices wrap modulo 2^index_bits and are
// wider than the ring so that full (tail - steal == capacity) and empty differ.
//
// The protocol. push writes the slot at tail and publishes it with a release store of tail,
// when tail - steal < capacity (a slot in [steal, real) is still being read: tokio-rs/tokio#2387
// fixed a push that compared with real). When the ring is full: if a thief is copying, the value
// alone goes to the inject queue; else push_overflow claims the whole ring with a CAS of head to
// (tail, tail), gives back the older half by storing tail + capacity/2 (the same slots under
// new indices) and moves the newer half and the value to the inject queue. pop CASes real
// forward (and steal with it when no thief is copying), then reads the slot. A thief reads head
// and tail, claims n - n/2 of the n items by CASing real forward (steal unchanged), copies
// them into its own ring, then CASes steal up to real; steal_into returns the last one copied
// and publishes the rest with a release store of its own tail.
//
// The inject queue. pop takes from it when the ring is empty (Tokio's worker also reads it
// every 61 ticks, a fairness policy not modelled); steal and steal_into take from it when the
// ring is empty, as Tokio's worker does after the siblings' rings (steal_work, then
// next_remote_task). A thief that finds both empty reads the ring again while holding the
// inject lock, so that its "empty" holds at one instant (the worker itself only needs "found
// nothing"; the checkers' contract needs a linearizable empty): abort if an item appeared.
// For the same reason push_overflow holds the inject lock from before its claim CAS, where
// Tokio takes it only to move the values: between Tokio's claim and its move, the newer half
// is in neither queue, and a thief that looks then finds both empty though values were
// pushed and not taken (the model checker finds that execution; Tokio's push_overflow comment
// accepts it and wakes a worker when the values reach the inject queue).
// Overflow moves the newest values out of the ring, so neither end keeps an order: the
// variant meets the unordered spec (deques/spec.hpp: exactly once, in any order).
//
// The stealable LIFO slot (variant tokio_lifo, the paths under Sites::lifo_slot): its protocol
// and what it promises a thief are in deques/tokio_lifo.hpp, which declares its sites.
//
// Departures, none in the protocol: compare_exchange_weak is a strong CAS (a spurious failure
// only retries the loop); steal() claims at most one item with steal_into2's protocol (Tokio's
// thieves always steal_into); steal_into caps its batch at half of `mine`'s capacity (Tokio's
// rings share one capacity, so the cap is never reached there).
//
// Values: any movable T (slots hold T when trivially copyable and lock-free, else a box; see
// deques/slot.hpp). Returns: pop gives nullopt when the ring and the inject queue are empty;
// steal gives item, empty, or abort (another thief is copying, a CAS lost, or an item
// appeared while it checked for empty; with the LIFO slot, abort when it finds nothing);
// steal_into also aborts when `mine` is more than half full. With the LIFO slot, a value in
// the slot is boxed unless T is a pointer (a null pointer marks an empty slot). Complexity: push
// O(1) (O(capacity) on overflow, under the inject lock), pop O(1) amortised, steal O(1), steal_into
// O(k); lock-free except the inject queue.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/overflow_queue.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck {

/// The memory-order sites of Tokio's local queue (queue.rs), each with Tokio's order.
struct tokio_sites {
  static constexpr std::string_view variant = "tokio";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  /// Bits of one index (Tokio's UnsignedShort: 32, or 16 without 64-bit atomics).
  static constexpr unsigned index_bits = 32;
  /// push compares tail with the steal head (the fix of tokio-rs/tokio#2387), not the real head.
  static constexpr bool push_checks_steal = true;
  /// push_overflow holds the inject lock from before its claim (see the file comment); false
  /// is Tokio's placement, under which a thief's "empty" is not linearizable.
  static constexpr bool overflow_locks_claim = true;
  /// The stealable LIFO slot beside the ring (tokio_lifo_sites, deques/tokio_lifo.hpp); false:
  /// Tokio's queue without it (its LIFO slot private to the worker, outside the queue).
  static constexpr bool lifo_slot = false;
  using mo = std::memory_order;
  // push (push_back_or_overflow, push_back_finish)
  static constexpr site push_load_head{
      "tokio::push.load_head", mo::acquire, site_kind::load,
      "pairs with steal.release_cas: a thief's read of a slot it copied happens before this push "
      "writes the slot again; relaxed is a data race on the slot (killed in push3_pop2_2thieves)"};
  static constexpr site push_load_tail{"tokio::push.load_tail", mo::relaxed, site_kind::load,
                                       "unsync_load: the owner reads its own store"};
  static constexpr site push_store_tail{
      "tokio::push.store_tail", mo::release, site_kind::store,
      "pairs with steal.load_tail (MP): a thief that claims the slot reads the value pushed, "
      "not a race on it (killed in push2_pop_steal2)"};
  // push_overflow
  static constexpr site overflow_cas{
      "tokio::overflow.cas", mo::release, site_kind::rmw,
      "pairs with steal.load_head: a thief that reads this head reads a tail at least the last "
      "push's; relaxed lets it pair the new head with an older tail and claim past it (killed "
      "in push3_pop2_2thieves; Tokio's comment says relaxed would work)"};
  static constexpr site overflow_cas_failure{"tokio::overflow.cas_failure", mo::relaxed,
                                             site_kind::cas_failure,
                                             "push starts over and loads head again"};
  static constexpr site overflow_store_tail{
      "tokio::overflow.store_tail", mo::release, site_kind::store,
      "gives back the older half; not needed under RC11: a thief that reads this tail claims "
      "only with the head of overflow.cas (a CAS expecting an older head fails), which orders "
      "the pushes' slots (stealcheck mutate: relaxed gives more executions, no bug)"};
  // pop
  static constexpr site pop_load_head{
      "tokio::pop.load_head", mo::acquire, site_kind::load,
      "not needed: only the expected value of pop.cas, which fails on a stale head; a stale real "
      "equal to tail means the ring is empty (relaxed gives more executions, no bug)"};
  static constexpr site pop_load_tail{"tokio::pop.load_tail", mo::relaxed, site_kind::load,
                                      "unsync_load: the owner reads its own store"};
  static constexpr site pop_cas{
      "tokio::pop.cas", mo::acq_rel, site_kind::rmw,
      "its release half pairs with steal.load_head (MP): a thief that reads the head this pop "
      "wrote reads the tail pushed before it, not an empty ring (killed in push2_pop_steal2); "
      "the acquire half is not needed (release gives the same executions)"};
  static constexpr site pop_cas_failure{
      "tokio::pop.cas_failure", mo::acquire, site_kind::cas_failure,
      "not needed: as pop.load_head, the value is only retried (relaxed: more executions, no "
      "bug)"};
  // steal, steal_into (steal_into2)
  static constexpr site steal_load_head{
      "tokio::steal.load_head", mo::acquire, site_kind::load,
      "pairs with overflow.cas, pop.cas and steal.release_cas (MP): the tail read next is at "
      "least the one before that head; relaxed claims past the tail (killed in "
      "push3_pop2_2thieves)"};
  static constexpr site steal_load_tail{
      "tokio::steal.load_tail", mo::acquire, site_kind::load,
      "pairs with push.store_tail (MP): the claimed slots hold the values pushed (killed in "
      "push2_pop_steal2)"};
  static constexpr site steal_claim_cas{
      "tokio::steal.claim_cas", mo::acq_rel, site_kind::rmw,
      "claims [real, real + n) by RMW atomicity; both halves not needed: the copy's end "
      "(steal.release_cas) publishes what the owner needs (relaxed: more executions, no bug)"};
  static constexpr site steal_claim_cas_failure{
      "tokio::steal.claim_cas_failure", mo::acquire, site_kind::cas_failure,
      "the retry uses this head: relaxed lets tail be older (killed in push3_pop2_2thieves)"};
  static constexpr site steal_release_cas{
      "tokio::steal.release_cas", mo::acq_rel, site_kind::rmw,
      "ends the copy; its release half pairs with push.load_head, so the copy's slot reads "
      "happen before a push reuses them (killed in push3_pop2_2thieves); the acquire half is "
      "not needed (release gives the same executions)"};
  static constexpr site steal_release_cas_failure{
      "tokio::steal.release_cas_failure", mo::acquire, site_kind::cas_failure,
      "not needed: the owner moved real meanwhile and the CAS is retried (same executions)"};
  static constexpr site steal_recheck_head{
      "tokio::steal.recheck_head", mo::acquire, site_kind::load,
      "reads the ring again under the inject lock before reporting empty; not needed in any "
      "client (relaxed: more executions, no bug)"};
  static constexpr site steal_recheck_tail{"tokio::steal.recheck_tail", mo::acquire,
                                           site_kind::load,
                                           "as steal.recheck_head; not needed (same executions)"};
  static constexpr site into_load_dest_tail{"tokio::steal_into.load_dest_tail", mo::relaxed,
                                            site_kind::load,
                                            "unsync_load: the thief owns the destination"};
  static constexpr site into_load_dest_head{
      "tokio::steal_into.load_dest_head", mo::acquire, site_kind::load,
      "Acquire in Tokio; the room check of the ring the thief owns; not needed in any client "
      "(same executions)"};
  static constexpr site into_store_dest_tail{
      "tokio::steal_into.store_dest_tail", mo::release, site_kind::store,
      "as push.store_tail: publishes the batch to the destination's thieves (MP; killed in "
      "steal_from_thief)"};
  // size_hint (Steal::len)
  static constexpr site size_load_head{
      "tokio::size_hint.load_head", mo::acquire, site_kind::load,
      "as steal.load_head: the tail read next is at least the one before that head, so the "
      "snapshot is not negative (killed in pop_push_pop_steal2)"};
  static constexpr site size_load_tail{"tokio::size_hint.load_tail", mo::acquire, site_kind::load,
                                       "Acquire in Tokio; a snapshot: not needed (relaxed: more "
                                       "executions, no bug)"};

  /// The sites of push, pop and the thieves' claim and copy of the variant `S`.
  template <class S>
  static constexpr auto ring_list() {
    return std::array{&S::push_load_head,
                      &S::push_load_tail,
                      &S::push_store_tail,
                      &S::overflow_cas,
                      &S::overflow_cas_failure,
                      &S::overflow_store_tail,
                      &S::pop_load_head,
                      &S::pop_load_tail,
                      &S::pop_cas,
                      &S::pop_cas_failure,
                      &S::steal_load_head,
                      &S::steal_load_tail,
                      &S::steal_claim_cas,
                      &S::steal_claim_cas_failure,
                      &S::steal_release_cas,
                      &S::steal_release_cas_failure};
  }
  /// The sites of steal_into's destination and of size_hint of the variant `S`.
  template <class S>
  static constexpr auto into_and_size_list() {
    return std::array{&S::into_load_dest_tail, &S::into_load_dest_head, &S::into_store_dest_tail,
                      &S::size_load_head, &S::size_load_tail};
  }
  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return concat_sites(ring_list<S>(), std::array{&S::steal_recheck_head, &S::steal_recheck_tail},
                        into_and_size_list<S>());
  }
};

/// Tokio's local run queue with its inject queue (see the file comment).
template <class T, class Mem = native_memory, class Sites = tokio_sites>
class tokio_queue {
  using codec = detail::slot_codec<T, Mem>;
  using stored = typename codec::stored;
  using cell = typename Mem::template nonatomic<stored>;
  // The LIFO slot holds a box (null: none) unless T is a pointer, as AtomicNotified holds a
  // task pointer (null: none).
  using lifo_codec = detail::slot_codec<T, Mem, !std::is_pointer_v<T>>;
  using lifo_stored = typename lifo_codec::stored;
  using index = std::uint32_t;  // one index of index_bits bits
  static constexpr unsigned bits = Sites::index_bits;
  static_assert(bits >= 2 && bits <= 32, "tokio: index_bits in 2..32");
  static constexpr index index_mask = bits == 32 ? ~index{0} : (index{1} << bits) - 1;

  static constexpr index wrap(std::uint64_t i) noexcept {
    return static_cast<index>(i) & index_mask;
  }
  static constexpr index distance(index from, index to) noexcept { return wrap(to - from); }
  static constexpr index real_of(std::uint64_t head) noexcept { return wrap(head); }
  static constexpr index steal_of(std::uint64_t head) noexcept { return wrap(head >> bits); }
  static constexpr std::uint64_t pack(index steal, index real) noexcept {
    return real | (std::uint64_t{steal} << bits);
  }

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// capacity is rounded up to a power of two in [2, 2^(index_bits - 1)] (at most 2^16).
  explicit tokio_queue(std::int64_t capacity = 256)
      : capacity_(ring_size(capacity)),
        buffer_(Mem::template create_array<cell>(capacity_, "buffer")) {}

  tokio_queue(const tokio_queue&) = delete;
  tokio_queue& operator=(const tokio_queue&) = delete;

  /// Requires: no operation is running. Destroys the values left in the LIFO slot, the ring
  /// and the inject queue.
  ~tokio_queue() {
    // Quiescent: relaxed loads read the final values.
    // by distance, at most the ring: a torn state (an abandoned model run) stays bounded
    const index real = real_of(head_.load(std::memory_order_relaxed));
    const index n = std::min(distance(real, tail_.load(std::memory_order_relaxed)), capacity_);
    for (index i = 0; i < n; ++i)
      codec::discard(slot(real + i).read());
    Mem::destroy_array(buffer_, capacity_);
    if constexpr (Sites::lifo_slot) {
      if (const lifo_stored s = lifo_.load(std::memory_order_relaxed)) lifo_codec::discard(s);
    }
  }

  /// Thread role: owner. Always succeeds: into the ring, or (ring full) into the inject queue
  /// (push_back_or_overflow); with the LIFO slot, into the slot (push_lifo), and the value it
  /// displaces into the ring or the inject queue.
  void push(T v) {
    if constexpr (Sites::lifo_slot) {
      // push_lifo: v into the slot; the value it displaces goes to the back of the ring, as
      // Handle::schedule_local does with push_lifo's result (push_back_or_overflow).
      const lifo_stored prev = push_lifo(lifo_codec::encode(std::move(v)));
      if (prev != nullptr) push_back(codec::encode(lifo_codec::decode(prev)));
    } else {
      push_back(codec::encode(std::move(v)));
    }
  }

  /// Thread role: owner. With the LIFO slot, the slot's value first (pop_lifo, then pop, as
  /// Core::next_local_task); then the oldest value of the ring, else of the inject queue;
  /// nullopt when all are empty (exact: only the owner adds to any of them).
  std::optional<T> pop() {
    if constexpr (Sites::lifo_slot) {  // take_lifo: own box, no partner; RMW vs thieves' takes
      if (const lifo_stored s = lifo_.exchange(nullptr, Mem::order(Sites::pop_take_lifo)))
        return lifo_codec::decode(s);
    }
    return pop_ring();
  }

  /// Thread role: any. One value from the ring (steal_into2's protocol, at most one item
  /// claimed); with the LIFO slot, the slot's value when the claim gets nothing (the ring
  /// empty or another thief copying), as steal_into does; else from the inject queue. item |
  /// empty | abort; with the LIFO slot never empty (abort: nothing found, see the file
  /// comment).
  steal_result<T> steal() {
    const claim c = claim_items(1);
    if (c.status == steal_status::item) {
      const stored s = slot(c.first).read();
      end_copy(c.head);
      return steal_result<T>::item(codec::decode(s));
    }
    return nothing_claimed(c.status);
  }

  /// Thread role: the owner of `mine`. Requires: &mine != this. steal_into: claims half of
  /// the ring's items (at most half of mine's capacity), copies them into `mine`, returns the
  /// last and publishes the others in `mine`; when it claims nothing, the LIFO slot's value
  /// (returned, not copied), else the inject queue's.
  steal_result<T> steal_into(tokio_queue& mine) {
    assert(&mine != this && "tokio::steal_into: cannot steal into the victim itself");
    const index dst_tail = mine.tail_.load(Mem::order(Sites::into_load_dest_tail));  // own
    const index dst_steal = steal_of(mine.head_.load(Mem::order(Sites::into_load_dest_head)));
    if (distance(dst_steal, dst_tail) > mine.capacity_ / 2) return steal_result<T>::abort();
    const claim c = claim_items(mine.capacity_ / 2);
    if (c.status != steal_status::item) return nothing_claimed(c.status);
    for (index i = 0; i < c.n; ++i)
      mine.slot(dst_tail + i).write() = slot(c.first + i).read();
    end_copy(c.head);
    const index last = c.n - 1;
    const stored s = mine.slot(dst_tail + last).read();
    if (last > 0) {
      // release (steal_into.store_dest_tail): the batch, to the destination's thieves.
      mine.tail_.store(wrap(dst_tail + last), Mem::order(Sites::into_store_dest_tail));
    }
    return steal_result<T>::item(codec::decode(s));
  }

  /// Thread role: any. The ring's items from two loads, plus one for the LIFO slot (Steal::len);
  /// the inject queue is not counted. Exact when quiescent.
  std::int64_t size_hint() const {
    const index real = real_of(head_.load(Mem::order(Sites::size_load_head)));
    const std::int64_t ring = distance(real, tail_.load(Mem::order(Sites::size_load_tail)));
    if constexpr (Sites::lifo_slot) {
      return ring + (lifo_.load(Mem::order(Sites::size_load_lifo)) != nullptr ? 1 : 0);
    } else {
      return ring;
    }
  }

 private:
  struct claim {
    steal_status status = steal_status::empty;
    index first = 0;         // the first index claimed
    index n = 0;             // how many
    std::uint64_t head = 0;  // head after the claim: (first, first + n)
  };

  // push_back_or_overflow: s at the back of the ring, or (ring full) to the inject queue.
  void push_back(stored s) {
    for (;;) {
      const std::uint64_t head = head_.load(Mem::order(Sites::push_load_head));
      const index steal = steal_of(head);
      const index real = real_of(head);
      const index tail = tail_.load(Mem::order(Sites::push_load_tail));  // own store
      if (distance(Sites::push_checks_steal ? steal : real, tail) < capacity_) {
        slot(tail).write() = s;
        // release (push.store_tail) pairs with steal.load_tail: the slot is published.
        tail_.store(wrap(tail + 1), Mem::order(Sites::push_store_tail));
        return;
      }
      if (steal != real) {  // a thief is copying: it frees room; the value alone overflows
        inject_.push(s);
        return;
      }
      if (push_overflow(s, real, tail)) return;
    }
  }

  // pop's ring and inject queue: the oldest value of the ring, else of the inject queue.
  std::optional<T> pop_ring() {
    std::uint64_t head = head_.load(Mem::order(Sites::pop_load_head));
    for (;;) {
      const index steal = steal_of(head);
      const index real = real_of(head);
      const index tail = tail_.load(Mem::order(Sites::pop_load_tail));  // own store
      if (real == tail) return inject_.pop();
      const index next = wrap(real + 1);
      // With no thief copying, steal moves with real; else the thief's claim stays.
      const std::uint64_t want = steal == real ? pack(next, next) : pack(steal, next);
      if (head_.compare_exchange_strong(head, want, Mem::order(Sites::pop_cas),
                                        Mem::order(Sites::pop_cas_failure))) {
        return codec::decode(slot(real).read());
      }
    }
  }

  static index ring_size(std::int64_t requested) {
    constexpr std::int64_t most = std::int64_t{1} << std::min(bits - 1, 16u);
    const std::int64_t c = std::clamp<std::int64_t>(requested, 2, most);
    return static_cast<index>(std::bit_ceil(static_cast<std::uint64_t>(c)));
  }

  cell& slot(index i) const noexcept { return buffer_[i & (capacity_ - 1)]; }

  // push_overflow: claims the full ring (real == steal == head, tail == head + capacity),
  // keeps the older half, moves the newer half and s to the inject queue. False: lost the
  // CAS to a thief; push starts over. Holds the inject lock from before the claim (Tokio
  // takes it only to move the values; see the file comment).
  bool push_overflow(stored s, index head, index tail) {
    const index half = capacity_ / 2;
    auto lock = inject_.guard();
    if (Sites::overflow_locks_claim) lock.lock();
    std::uint64_t expected = pack(head, head);
    if (!head_.compare_exchange_strong(expected, pack(tail, tail), Mem::order(Sites::overflow_cas),
                                       Mem::order(Sites::overflow_cas_failure))) {
      return false;
    }
    // release (overflow.store_tail): the older half again, under indices [tail, tail + half).
    tail_.store(wrap(tail + half), Mem::order(Sites::overflow_store_tail));
    if (!Sites::overflow_locks_claim) lock.lock();
    for (index i = 0; i < half; ++i)
      inject_.push_locked(slot(head + half + i).read());
    inject_.push_locked(s);
    return true;
  }

  // steal_into2's first half: claims up to `most` of n - n/2 items by moving real.
  claim claim_items(index most) {
    std::uint64_t head = head_.load(Mem::order(Sites::steal_load_head));
    for (;;) {
      const index steal = steal_of(head);
      const index real = real_of(head);
      // acquire (steal.load_tail) pairs with push.store_tail: the slots hold the pushes.
      const index tail = tail_.load(Mem::order(Sites::steal_load_tail));
      if (steal != real) return {steal_status::abort};  // another thief is copying
      const index available = distance(real, tail);
      const index n = std::min<index>(available - available / 2, most);
      if (n == 0) return {steal_status::empty};
      const std::uint64_t want = pack(steal, wrap(real + n));
      if (head_.compare_exchange_strong(head, want, Mem::order(Sites::steal_claim_cas),
                                        Mem::order(Sites::steal_claim_cas_failure))) {
        return {steal_status::item, steal, n, want};
      }
    }
  }

  // steal_into2's second half: steal catches up with real (which pops may have moved).
  void end_copy(std::uint64_t head) {
    for (;;) {
      const index real = real_of(head);
      if (head_.compare_exchange_strong(head, pack(real, real),
                                        Mem::order(Sites::steal_release_cas),
                                        Mem::order(Sites::steal_release_cas_failure))) {
        return;
      }
    }
  }

  // A thief's claim got nothing (the ring empty, or another thief copying): with the LIFO
  // slot, its value (steal_into's take when steal_into2 returns 0); else the inject queue's.
  steal_result<T> nothing_claimed(steal_status claimed) {
    if constexpr (Sites::lifo_slot) {
      // acquire half (steal.take_lifo) pairs with push.swap_lifo: the box holds the value.
      if (const lifo_stored s = lifo_.exchange(nullptr, Mem::order(Sites::steal_take_lifo)))
        return steal_result<T>::item(lifo_codec::decode(s));
    }
    if (claimed == steal_status::abort) return steal_result<T>::abort();
    return steal_inject();
  }

  // The inject queue's value; when it is empty too, the ring is read again under its lock:
  // empty if it is still empty, else abort. With the LIFO slot a thief reports abort instead
  // (see the file comment), unless a test sets thieves_report_empty to show why.
  steal_result<T> steal_inject() {
    return inject_.steal([&] {
      if constexpr (!Sites::lifo_slot) {
        return ring_empty_again();
      } else if constexpr (Sites::thieves_report_empty) {
        constexpr auto sc = std::memory_order_seq_cst;  // Acquire and SeqCst loads as in len()
        return ring_empty_again() && lifo_.load(sc) == nullptr;  // (not sites: a test's probe)
      } else {
        return false;
      }
    });
  }

  bool ring_empty_again() const {
    const index real = real_of(head_.load(Mem::order(Sites::steal_recheck_head)));
    return real == tail_.load(Mem::order(Sites::steal_recheck_tail));
  }

  // push_lifo: one swap (AtomicNotified::swap), or (known-bad) a load and a store.
  lifo_stored push_lifo(lifo_stored mine) {
    if constexpr (Sites::push_swaps_lifo) {
      // release half (push.swap_lifo) pairs with steal.take_lifo: the box, to the thief.
      return lifo_.exchange(mine, Mem::order(Sites::push_swap_lifo));
    } else {
      const lifo_stored prev = lifo_.load(std::memory_order_seq_cst);  // the known-bad's load
      lifo_.store(mine, Mem::order(Sites::push_swap_lifo));
      return prev;
    }
  }

  const index capacity_;
  cell* const buffer_;
  alignas(64) typename Mem::template atomic<std::uint64_t> head_{0, "head"};
  alignas(64) typename Mem::template atomic<index> tail_{0, "tail"};
  detail::overflow_queue<T, Mem, codec> inject_;
  // The stealable LIFO slot (tokio_lifo); without it, no member at all (the model checker
  // sees no location, so tokio's executions are the same).
  struct no_lifo {
    constexpr no_lifo(std::nullptr_t, const char*) noexcept {}
  };
  [[no_unique_address]] std::conditional_t<Sites::lifo_slot,
                                           typename Mem::template atomic<lifo_stored>, no_lifo>
      lifo_{nullptr, "lifo"};
};

/// KNOWN-BAD: push compares tail with the real head, as before tokio-rs/tokio#2387: it writes a
/// slot a thief has claimed (moved real past) but not yet read, so the thief takes the new
/// value (a data race on the slot; the old value is lost, the new one taken twice).
struct tokio_sites_push_checks_real : tokio_sites {
  static constexpr std::string_view variant = "tokio_push_checks_real";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "push checks room against the real head: overwrites a slot a thief is still copying";
  static constexpr failure_set must_show{failure_kind::data_race, failure_kind::value_taken_twice};
  using fixed_in = tokio_sites;
  static constexpr std::string_view fixed_by =
      "push_checks_steal = true (push checks room against the steal head)";
  static constexpr bool push_checks_steal = false;
};

template <class T, class Mem = native_memory>
using tokio_push_checks_real = tokio_queue<T, Mem, tokio_sites_push_checks_real>;

/// KNOWN-BAD: indices of 2 bits (a ring of 2), the ABA of tokio-rs/tokio#5041 made reachable: a
/// thief that read head and tail, stalled while the head advanced by 4 (pops, other thieves'
/// steals, an overflow's claim) back to the value it read, still wins its claim CAS: it takes
/// a value already taken and leaves real past tail (the drain then takes stale slots).
struct tokio_sites_narrow_index : tokio_sites {
  static constexpr std::string_view variant = "tokio_narrow_index";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "2-bit indices: a stalled thief's claim succeeds once the head wraps back to what it read";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  using fixed_in = tokio_sites;
  static constexpr std::string_view fixed_by = "index_bits = 32, not 2";
  static constexpr unsigned index_bits = 2;
};

template <class T, class Mem = native_memory>
using tokio_narrow_index = tokio_queue<T, Mem, tokio_sites_narrow_index>;

/// KNOWN-BAD, deep: indices of 3 bits (a ring of at most 4), the same ABA as tokio_narrow_index
/// but the head must advance by 8 while the thief stalls: more pops and steals than any model
/// client makes, so only a longer scenario (`stealcheck fuzz`) wraps it. The control is tokio
/// itself (32-bit indices) on the same scenarios.
struct tokio_sites_index3 : tokio_sites {
  static constexpr std::string_view variant = "tokio_index3";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "3-bit indices: a stalled thief's claim succeeds once the head wraps back (8 takes later)";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  using fixed_in = tokio_sites;
  static constexpr std::string_view fixed_by = "index_bits = 32, not 3";
  static constexpr unsigned index_bits = 3;
};

template <class T, class Mem = native_memory>
using tokio_index3 = tokio_queue<T, Mem, tokio_sites_index3>;

/// KNOWN-BAD, deep (registered with an initial capacity of 8): push reads the head relaxed
/// (push.load_head). A thief's read of a slot it copied then need not happen before the owner's
/// next write of that slot, one lap later: a data race on the slot. The ring must wrap (a push
/// to a slot a thief took from), nine pushes at capacity 8: more than any model client pushes.
/// RC11 only: under SC, and natively on x86 (a relaxed load is an acquire load there), the read
/// happens before. The control is `stealcheck fuzz tokio --capacity 8`.
struct tokio_sites_wrap_relaxed_head : tokio_sites {
  static constexpr std::string_view variant = "tokio_wrap_relaxed_head";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "push reads the head relaxed: once the ring wraps, a data race on a slot a thief copies";
  static constexpr failure_set must_show{failure_kind::data_race};
  static constexpr site push_load_head{"tokio::push.load_head", std::memory_order_relaxed,
                                       site_kind::load, "KNOWN-BAD: relaxed (no acquire)"};
};

template <class T, class Mem = native_memory>
using tokio_wrap_relaxed_head = tokio_queue<T, Mem, tokio_sites_wrap_relaxed_head>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
