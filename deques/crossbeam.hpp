// deques/crossbeam.hpp: the work-stealing deque of crossbeam-deque, Rust's (crossbeam-rs/
// crossbeam, crossbeam-deque/src/deque.rs: Worker::push, pop, resize, reserve; Stealer::steal,
// steal_batch_with_limit_and_pop), with crossbeam's orders. Rayon's thread pool runs on it.
//
// Thread role: push and pop by the owner (crossbeam's Worker); steal and
// victim.steal_into(mine) by any thread (the Stealer; for steal_into, the owner of `mine`);
// size_hint by any thread.
//
// Two flavors, one source (crossbeam's Flavor): crossbeam_lifo pops the newest item (Chase-Lev:
// decrement back, seq_cst fence, compare with front, CAS front for the last item);
// crossbeam_fifo pops the oldest, like a thief, by fetch_add on front (and stores the old front
// back when the queue turned out empty). Thieves take from the front in both. Indices are
// signed 64-bit (crossbeam: isize, wrapping; they never wrap here).
//
// The buffer. A power-of-two ring that the owner replaces: doubled by push when full; halved by
// pop when the items fall below a quarter of it and it is larger than the minimum capacity
// (crossbeam's MIN_CAP, 64; here the capacity the deque was constructed with); and grown by
// reserve before a batch is stolen into it. The new ring is published with a release swap of
// `buffer`. A thief loads the ring after front and back, reads the slot at front, and then
// *loads the ring again*: if the owner has swapped it meanwhile, the thief retries rather than
// CAS. That re-check is crossbeam's fix of CVE-2021-32810 (crossbeam-rs/crossbeam#726): a LIFO
// thief's batch reads every value from the ring it loaded once, and after the owner shrank the
// ring, popped an index and pushed a new value there, the old ring still holds the popped value
// at that index; without the re-check the thief's CAS succeeds and takes it again (the
// known-bad crossbeam_lifo_no_recheck; client push5_pop3_push_steal_into; proofs/crossbeam.md).
// The ring need not be freed for this: replaced rings are kept here (below).
//
// steal_into(mine) is steal_batch_with_limit_and_pop with crossbeam's MAX_BATCH, 32: it takes
// the front item plus min((n - 1) / 2, 31) more of the n it saw, copies all but one into `mine`
// (reserving room first) and returns that one. From a FIFO victim the batch is taken with one
// CAS of front and the front item is returned; from a LIFO victim one item per CAS, and the
// newest one taken is returned. `mine` then publishes the copies with a release fence and a
// store of its back; being of the victim's flavor, it pops them as the victim would have.
//
// Departures, none in the protocol:
// - Reclamation: crossbeam frees a replaced ring through its epoch collector (crossbeam-epoch)
//   once no pinned thief can hold it. Here a replaced ring is retired and freed by the
//   destructor, when no operation runs (as chase_lev does). The epoch pin's seq_cst fence is
//   kept (steal.fence).
// - Slots: crossbeam reads and writes them as plain memory with volatile accesses (a stale
//   thief's read of a slot can race with a push after wrap-around; its CAS then fails and the
//   value is forgotten); here they are relaxed atomics, so the race is not undefined.
// - steal_into's self-steal check (victim == mine) is an assert; steal_batch without the pop is
//   not offered (steal_into returns one item, as every batch stealer here does).
//
// Values: see deques/slot.hpp (inline for small trivially copyable T, boxed otherwise).
// Returns: pop gives nullopt when empty or when a thief won the last item; steal and
// steal_into give item, empty, or abort (a CAS lost, or the ring swapped under the thief).
// Complexity: push amortised O(1) (O(n) on a resize), pop amortised O(1) (O(n) on a shrink),
// steal O(1), steal_into O(k) plus a possible resize of `mine`; lock-free. Memory: retired
// rings are kept until destruction; shrinking and growing again retires one ring each time.
#pragma once

#include <algorithm>
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

/// The memory-order sites of crossbeam-deque's Worker and Stealer (deque.rs), each with
/// crossbeam's order.
struct crossbeam_sites {
  static constexpr std::string_view variant = "crossbeam_lifo";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  /// Flavor::Fifo: pop takes the oldest item (fetch_add on front); else the newest.
  static constexpr bool fifo = false;
  /// The thief loads the ring again before its CAS and retries if it changed (the fix of
  /// CVE-2021-32810).
  static constexpr bool recheck_buffer = true;
  /// FIFO pop stores the old front back when its fetch_add found the queue empty.
  static constexpr bool restore_front = true;
  /// crossbeam's MAX_BATCH: steal_into takes at most this many items.
  static constexpr std::int64_t max_batch = 32;
  using mo = std::memory_order;
  // push (Worker::push)
  static constexpr site push_load_back{"crossbeam::push.load_back", mo::relaxed, site_kind::load,
                                       "the owner reads its own last store of back"};
  static constexpr site push_load_front{
      "crossbeam::push.load_front", mo::acquire, site_kind::load,
      "as crossbeam, pairs with the thieves' CAS of front so that a thief's read of a slot happens "
      "before the owner writes it again after wrap-around; not needed under RC11: the thief "
      "reading the overwrite while the owner reads its CAS is a po-rf cycle (LB), which RC11 "
      "forbids (stealcheck mutate: relaxed gives the same executions)"};
  static constexpr site push_store_slot{"crossbeam::push.store_slot", mo::relaxed, site_kind::store,
                                        "published by push.fence"};
  static constexpr site push_fence{"crossbeam::push.fence", mo::release, site_kind::fence,
                                   "pairs with steal.load_back (MP): a thief that reads the new "
                                   "back reads the pushed slot (killed in push2_pop_steal2)"};
  static constexpr site push_store_back{"crossbeam::push.store_back", mo::relaxed, site_kind::store,
                                        "ordered after the slot by push.fence"};
  // resize (Worker::resize)
  static constexpr site resize_load_back{"crossbeam::resize.load_back", mo::relaxed,
                                         site_kind::load, "the owner reads its own store"};
  static constexpr site resize_load_front{
      "crossbeam::resize.load_front", mo::relaxed, site_kind::load,
      "a stale front only copies more; the items a thief took meanwhile are not read again"};
  static constexpr site resize_load_slot{"crossbeam::resize.load_slot", mo::relaxed,
                                         site_kind::load, "the owner reads its own stores"};
  static constexpr site resize_store_slot{"crossbeam::resize.store_slot", mo::relaxed,
                                          site_kind::store, "published by resize.swap"};
  static constexpr site resize_swap{
      "crossbeam::resize.swap", mo::release, site_kind::rmw,
      "pairs with steal.load_buffer (MP on the ring pointer): a thief that reads the new ring "
      "reads the copied slots (killed in push2_pop_steal2)"};
  // reserve (Worker::reserve, on the thief's own deque before a batch)
  static constexpr site reserve_load_back{"crossbeam::reserve.load_back", mo::relaxed,
                                          site_kind::load, "the owner reads its own store"};
  static constexpr site reserve_load_front{
      "crossbeam::reserve.load_front", mo::seq_cst, site_kind::load,
      "not needed: a stale front only reserves more room (stealcheck mutate: relaxed gives the "
      "same executions)"};
  // pop, both flavors (Worker::pop)
  static constexpr site pop_load_back{"crossbeam::pop.load_back", mo::relaxed, site_kind::load,
                                      "the owner reads its own store"};
  static constexpr site pop_load_front{
      "crossbeam::pop.load_front", mo::relaxed, site_kind::load,
      "only a first look: the flavors decide with a fetch_add or after a fence"};
  static constexpr site pop_load_slot{"crossbeam::pop.load_slot", mo::relaxed, site_kind::load,
                                      "the owner reads its own store (or its copy)"};
  // pop, Flavor::Fifo
  static constexpr site fifo_pop_fetch_add{
      "crossbeam::pop.fifo_fetch_add", mo::seq_cst, site_kind::rmw,
      "claims the front item against the thieves' CAS by RMW atomicity; its release half pairs "
      "with steal.load_front: a thief that reads the front this pop wrote reads a back at least "
      "the pop's (killed in push2_pop_steal2: with relaxed, steal -> empty after push(2)); the "
      "acquire half is not needed (release gives the same executions)"};
  static constexpr site fifo_pop_restore_front{"crossbeam::pop.fifo_restore_front", mo::relaxed,
                                               site_kind::store,
                                               "no thief can CAS while front is past back"};
  // pop, Flavor::Lifo (Chase-Lev's take)
  static constexpr site lifo_pop_store_back{"crossbeam::pop.lifo_store_back", mo::relaxed,
                                            site_kind::store,
                                            "ordered before the load of front by pop.lifo_fence"};
  static constexpr site lifo_pop_fence{
      "crossbeam::pop.lifo_fence", mo::seq_cst, site_kind::fence,
      "with steal.fence orders pop's store of back before its load of front (SB+scfs): without it "
      "owner and thief can both take the last item (killed in push2_pop_steal2)"};
  static constexpr site lifo_pop_load_front{"crossbeam::pop.lifo_load_front", mo::relaxed,
                                            site_kind::load,
                                            "ordered after the store of back by pop.lifo_fence"};
  static constexpr site lifo_pop_cas{
      "crossbeam::pop.lifo_cas", mo::seq_cst, site_kind::rmw,
      "the last-item race with the thieves' CAS of front, decided by RMW atomicity; seq_cst as in "
      "crossbeam, not needed under RC11 (stealcheck mutate: relaxed gives the same executions)"};
  static constexpr site lifo_pop_cas_failure{"crossbeam::pop.lifo_cas_failure", mo::relaxed,
                                             site_kind::cas_failure,
                                             "a lost race reads nothing it uses"};
  static constexpr site lifo_pop_restore_back{"crossbeam::pop.lifo_restore_back", mo::relaxed,
                                              site_kind::store,
                                              "thieves read back only to bound front"};
  // steal, and steal_into's reads of the victim (Stealer::steal,
  // steal_batch_with_limit_and_pop)
  static constexpr site steal_load_front{
      "crossbeam::steal.load_front", mo::acquire, site_kind::load,
      "pairs with the previous taker's RMW of front; not needed while steal.fence follows it: the "
      "seq_cst fence acts as an acquire fence for this load (stealcheck mutate: relaxed gives the "
      "same executions)"};
  static constexpr site steal_fence{
      "crossbeam::steal.fence", mo::seq_cst, site_kind::fence,
      "the epoch pin's fence; pairs with pop.lifo_fence (SB+scfs on front/back): without it a "
      "thief and the owner both take the last item (killed in push2_pop_steal2)"};
  static constexpr site steal_load_back{"crossbeam::steal.load_back", mo::acquire, site_kind::load,
                                        "pairs with push.fence (MP): the slot read below holds the "
                                        "pushed value (killed in push2_pop_steal2)"};
  static constexpr site steal_load_buffer{"crossbeam::steal.load_buffer", mo::acquire,
                                          site_kind::load,
                                          "pairs with resize.swap (MP on the ring pointer): the "
                                          "copied slots are visible (killed in push2_pop_steal2)"};
  static constexpr site steal_load_slot{"crossbeam::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.load_back and steal.load_buffer"};
  static constexpr site steal_recheck_buffer{
      "crossbeam::steal.recheck_buffer", mo::acquire, site_kind::load,
      "the re-check: a ring swapped since steal.load_buffer makes the thief retry (without it: "
      "crossbeam_lifo_no_recheck, push5_pop3_push_steal_into takes a value twice); its acquire "
      "is not needed: a swap that matters is hb-before it through steal.load_back, which read a "
      "push made after the swap (relaxed: more executions, no bug)"};
  static constexpr site steal_cas{
      "crossbeam::steal.cas", mo::seq_cst, site_kind::rmw,
      "claims front against other thieves and the owner's pop by RMW atomicity; seq_cst as in "
      "crossbeam, not needed under RC11 in stealcheck's clients: relaxed admits more executions "
      "(the slot read is no longer ordered before a reuse) but no bug, since a reuse racing the "
      "read is the LB cycle of push.load_front"};
  static constexpr site steal_cas_failure{"crossbeam::steal.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "a retry uses nothing it read"};
  // steal_into's writes to the thief's own deque
  static constexpr site into_load_dest_back{"crossbeam::steal_into.load_dest_back", mo::relaxed,
                                            site_kind::load,
                                            "the thief reads its own deque's back"};
  static constexpr site into_store_dest_slot{"crossbeam::steal_into.store_dest_slot", mo::relaxed,
                                             site_kind::store, "published by steal_into.fence"};
  static constexpr site into_fence{
      "crossbeam::steal_into.fence", mo::release, site_kind::fence,
      "pairs with the thieves' steal.load_back on the thief's own deque (MP): the batch is "
      "published to them (killed in steal_from_thief)"};
  static constexpr site into_store_dest_back{"crossbeam::steal_into.store_dest_back", mo::relaxed,
                                             site_kind::store,
                                             "ordered after the batch by steal_into.fence"};
  // size_hint (Stealer::len)
  static constexpr site size_load{"crossbeam::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  /// Every site of the variant `S` (this flavor), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_back,        &S::push_load_front,
                      &S::push_store_slot,       &S::push_fence,
                      &S::push_store_back,       &S::resize_load_back,
                      &S::resize_load_front,     &S::resize_load_slot,
                      &S::resize_store_slot,     &S::resize_swap,
                      &S::reserve_load_back,     &S::reserve_load_front,
                      &S::pop_load_back,         &S::pop_load_front,
                      &S::pop_load_slot,         &S::lifo_pop_store_back,
                      &S::lifo_pop_fence,        &S::lifo_pop_load_front,
                      &S::lifo_pop_cas,          &S::lifo_pop_cas_failure,
                      &S::lifo_pop_restore_back, &S::steal_load_front,
                      &S::steal_fence,           &S::steal_load_back,
                      &S::steal_load_buffer,     &S::steal_load_slot,
                      &S::steal_recheck_buffer,  &S::steal_cas,
                      &S::steal_cas_failure,     &S::into_load_dest_back,
                      &S::into_store_dest_slot,  &S::into_fence,
                      &S::into_store_dest_back,  &S::size_load};
  }
};

/// crossbeam-deque's Worker with its Stealer (see the file comment). `Sites` selects the flavor,
/// the re-check and the memory orders.
template <class T, class Mem = native_memory, class Sites = crossbeam_sites>
class crossbeam_worker {
  using ring = detail::growing_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;
  /// From a LIFO victim, steal_into claims one value per CAS (deques/deque.hpp): the owner's
  /// pops and pushes may come between two of them, so the batch is a run of steals.
  static constexpr bool batch_in_steps = !Sites::fifo;

  /// Requires: min_capacity >= 1 (rounded up to a power of two): the first ring's capacity and
  /// the least a shrink leaves (crossbeam's MIN_CAP, 64). A small one lets model-checked
  /// clients reach both a grow and a shrink with a few operations.
  explicit crossbeam_worker(std::int64_t min_capacity = 64)
      : own_(ring::initial(min_capacity, 1, source_loc::current())),
        min_capacity_(own_->capacity),
        buffer_(own_, "buffer") {}

  crossbeam_worker(const crossbeam_worker&) = delete;
  crossbeam_worker& operator=(const crossbeam_worker&) = delete;

  /// Requires: no operation is running. Destroys the values still in the deque.
  ~crossbeam_worker() {
    // Quiescent: relaxed loads read the final values.
    own_->discard(front_.load(std::memory_order_relaxed), back_.load(std::memory_order_relaxed));
    Mem::destroy(own_);
    for (ring* r : retired_)
      Mem::destroy(r);
  }

  /// Thread role: owner. Always succeeds (grows when full). Worker::push.
  void push(T v) {
    const std::int64_t b = back_.load(Mem::order(Sites::push_load_back));    // own store
    const std::int64_t f = front_.load(Mem::order(Sites::push_load_front));  // pairs: thief CAS
    if (b - f >= own_->capacity) resize(2 * own_->capacity);
    own_->at(b).store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    // release fence (push.fence) pairs with steal.load_back: publishes the slot.
    Mem::fence_then_store(back_, b + 1, Mem::order(Sites::push_fence),
                          Mem::order(Sites::push_store_back));
  }

  /// Thread role: owner. The newest value (crossbeam_lifo) or the oldest (crossbeam_fifo);
  /// nullopt when empty or when a thief won the race for it. Worker::pop.
  std::optional<T> pop() {
    const std::int64_t b = back_.load(Mem::order(Sites::pop_load_back));    // own store
    const std::int64_t f = front_.load(Mem::order(Sites::pop_load_front));  // a first look
    const std::int64_t len = b - f;
    if (len <= 0) return std::nullopt;
    if constexpr (Sites::fifo) {
      return pop_front(b, len);
    } else {
      return pop_back(b);
    }
  }

  /// Thread role: any. The front value: item | empty | abort (lost the CAS, or the ring was
  /// swapped since it was loaded). Stealer::steal.
  steal_result<T> steal() {
    const std::int64_t f = front_.load(Mem::order(Sites::steal_load_front));  // pairs: taker's CAS
    // seq_cst fence (steal.fence, the epoch pin's) pairs with pop.lifo_fence.
    Mem::fence(Mem::order(Sites::steal_fence));
    const std::int64_t b = back_.load(Mem::order(Sites::steal_load_back));  // pairs: push.fence
    if (b - f <= 0) return steal_result<T>::empty();
    ring* r = buffer_.load(Mem::order(Sites::steal_load_buffer));  // pairs: resize.swap
    const stored x = r->at(f).load(Mem::order(Sites::steal_load_slot));
    if (!claim(r, f, 1)) return steal_result<T>::abort();
    return steal_result<T>::item(codec::decode(x));
  }

  /// Thread role: the owner of `mine`. Requires: &mine != this.
  /// Stealer::steal_batch_with_limit_and_pop(mine, max_batch): takes the front value and up to
  /// min((n - 1) / 2, max_batch - 1) more, moves those into `mine` and returns one: item |
  /// empty | abort.
  steal_result<T> steal_into(crossbeam_worker& mine) {
    assert(&mine != this && "crossbeam::steal_into: cannot steal into the victim itself");
    std::int64_t f = front_.load(Mem::order(Sites::steal_load_front));      // pairs: taker's CAS
    Mem::fence(Mem::order(Sites::steal_fence));                             // pairs: pop.lifo_fence
    const std::int64_t b = back_.load(Mem::order(Sites::steal_load_back));  // pairs: push.fence
    const std::int64_t len = b - f;
    if (len <= 0) return steal_result<T>::empty();
    std::int64_t batch = std::min((len - 1) / 2, Sites::max_batch - 1);
    mine.reserve(batch);
    ring* dest = mine.own_;
    std::int64_t dest_b = mine.back_.load(Mem::order(Sites::into_load_dest_back));  // own store
    ring* r = buffer_.load(Mem::order(Sites::steal_load_buffer));  // pairs: resize.swap
    stored task = r->at(f).load(Mem::order(Sites::steal_load_slot));
    if constexpr (Sites::fifo) {
      // All at once: copy [f + 1, f + 1 + batch), then one CAS of front past them.
      for (std::int64_t i = 0; i < batch; ++i) {
        dest->at(dest_b + i)
            .store(r->at(f + i + 1).load(Mem::order(Sites::steal_load_slot)),
                   Mem::order(Sites::into_store_dest_slot));
      }
      if (!claim(r, f, batch + 1)) return steal_result<T>::abort();
      dest_b += batch;
    } else {
      // One by one, as a LIFO owner may be popping towards front. crossbeam does not re-check
      // the ring before this first CAS.
      if (!front_.compare_exchange_strong(f, f + 1, Mem::order(Sites::steal_cas),
                                          Mem::order(Sites::steal_cas_failure))) {
        return steal_result<T>::abort();
      }
      ++f;
      for (std::int64_t i = 0; i < batch; ++i) {
        Mem::fence(Mem::order(Sites::steal_fence));  // pairs: pop.lifo_fence
        if (back_.load(Mem::order(Sites::steal_load_back)) - f <= 0) break;  // pairs: push.fence
        const stored next = r->at(f).load(Mem::order(Sites::steal_load_slot));
        if (!claim(r, f, 1)) break;
        // The previous one goes to `mine`; the newest taken is returned.
        dest->at(dest_b).store(task, Mem::order(Sites::into_store_dest_slot));
        task = next;
        ++f;
        ++dest_b;
      }
    }
    // release fence (steal_into.fence) pairs with mine's thieves' steal.load_back.
    Mem::fence_then_store(mine.back_, dest_b, Mem::order(Sites::into_fence),
                          Mem::order(Sites::into_store_dest_back));
    return steal_result<T>::item(codec::decode(task));
  }

  /// Thread role: any. back - front from two relaxed loads (>= 0); exact only when quiescent.
  std::int64_t size_hint() const {
    const std::int64_t b = back_.load(Mem::order(Sites::size_load));
    const std::int64_t f = front_.load(Mem::order(Sites::size_load));
    return b > f ? b - f : 0;
  }

  /// Thread role: owner. The current ring capacity (for tests of growth and shrinking).
  std::int64_t capacity() const { return own_->capacity; }

 private:
  // Flavor::Fifo: claim the front item with fetch_add; put front back if the queue was empty.
  std::optional<T> pop_front(std::int64_t b, std::int64_t len) {
    const std::int64_t f = front_.fetch_add(1, Mem::order(Sites::fifo_pop_fetch_add));
    if (b - (f + 1) < 0) {
      if (Sites::restore_front) front_.store(f, Mem::order(Sites::fifo_pop_restore_front));
      return std::nullopt;
    }
    ring* r = own_;
    const stored x = r->at(f).load(Mem::order(Sites::pop_load_slot));
    if (r->capacity > min_capacity_ && len <= r->capacity / 4) resize(r->capacity / 2);
    return codec::decode(x);
  }

  // Flavor::Lifo: Chase-Lev's take.
  std::optional<T> pop_back(std::int64_t b) {
    --b;
    // relaxed: thieves that read it see earlier pushes' slots through push.fence.
    Mem::fence_covered_store(back_, b, Mem::order(Sites::lifo_pop_store_back));
    // seq_cst fence (pop.lifo_fence) pairs with steal.fence: store of back before load of front.
    Mem::fence(Mem::order(Sites::lifo_pop_fence));
    std::int64_t f = front_.load(Mem::order(Sites::lifo_pop_load_front));
    const std::int64_t len = b - f;
    if (len < 0) {  // empty: restore back
      Mem::fence_covered_store(back_, b + 1, Mem::order(Sites::lifo_pop_restore_back));
      return std::nullopt;
    }
    ring* r = own_;
    const stored x = r->at(b).load(Mem::order(Sites::pop_load_slot));
    if (len == 0) {  // the last item: race the thieves for it
      const bool won = front_.compare_exchange_strong(f, f + 1, Mem::order(Sites::lifo_pop_cas),
                                                      Mem::order(Sites::lifo_pop_cas_failure));
      Mem::fence_covered_store(back_, b + 1, Mem::order(Sites::lifo_pop_restore_back));
      if (!won) return std::nullopt;
      return codec::decode(x);
    }
    if (r->capacity > min_capacity_ && len < r->capacity / 4) resize(r->capacity / 2);
    return codec::decode(x);
  }

  // A thief's claim of [f, f + n): the ring it read from must still be the published one
  // (unless the known-bad skips the re-check), and front must still be f.
  bool claim(ring* read_from, std::int64_t f, std::int64_t n) {
    if (Sites::recheck_buffer &&
        buffer_.load(Mem::order(Sites::steal_recheck_buffer)) != read_from) {
      return false;  // swapped meanwhile: retry
    }
    return front_.compare_exchange_strong(f, f + n, Mem::order(Sites::steal_cas),
                                          Mem::order(Sites::steal_cas_failure));
  }

  // Owner only (Worker::resize). Copies [front, back) into a ring of `cap` and publishes it; the
  // old one is retired (freed in the destructor), since thieves may still read it.
  void resize(std::int64_t cap) {
    const std::int64_t b = back_.load(Mem::order(Sites::resize_load_back));    // own store
    const std::int64_t f = front_.load(Mem::order(Sites::resize_load_front));  // stale: copies more
    ring* fresh = own_->resized(cap, std::min(f, b), b, Mem::order(Sites::resize_load_slot),
                                Mem::order(Sites::resize_store_slot));
    own_ = fresh;
    // release swap (resize.swap) pairs with steal.load_buffer: the copies are visible.
    retired_.push_back(buffer_.exchange(fresh, Mem::order(Sites::resize_swap)));
  }

  // Owner only (Worker::reserve): room for n more pushes without growing.
  void reserve(std::int64_t n) {
    if (n <= 0) return;
    const std::int64_t b = back_.load(Mem::order(Sites::reserve_load_back));    // own store
    const std::int64_t f = front_.load(Mem::order(Sites::reserve_load_front));  // stale: more
    const std::int64_t len = b - f;
    if (own_->capacity - len < n) {
      resize(static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n + len))));
    }
  }

  ring* own_;  // the owner's copy of the published ring (crossbeam's Worker::buffer cell)
  const std::int64_t min_capacity_;
  alignas(64) typename Mem::template atomic<std::int64_t> front_{0, "front"};
  alignas(64) typename Mem::template atomic<std::int64_t> back_{0, "back"};
  typename Mem::template atomic<ring*> buffer_;
  std::vector<ring*> retired_;  // owner-only; freed in the destructor
};

/// crossbeam_fifo: the same deque with Flavor::Fifo. Its pop takes front by an RMW, so it makes
/// no store-load pair with the thieves and steal.fence has no partner here.
struct crossbeam_fifo_sites : crossbeam_sites {
  static constexpr std::string_view variant = "crossbeam_fifo";
  static constexpr bool fifo = true;
  static constexpr site steal_fence{
      "crossbeam::steal.fence", mo::seq_cst, site_kind::fence,
      "the epoch pin's fence; not needed in this flavor while steal.load_front is acquire: the "
      "FIFO pop takes front by an RMW, so there is no store-load pair to order (stealcheck mutate: "
      "relaxed gives the same executions)"};

  /// Every site of the variant `S` (this flavor), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_back,     &S::push_load_front,        &S::push_store_slot,
                      &S::push_fence,         &S::push_store_back,        &S::resize_load_back,
                      &S::resize_load_front,  &S::resize_load_slot,       &S::resize_store_slot,
                      &S::resize_swap,        &S::reserve_load_back,      &S::reserve_load_front,
                      &S::pop_load_back,      &S::pop_load_front,         &S::pop_load_slot,
                      &S::fifo_pop_fetch_add, &S::fifo_pop_restore_front, &S::steal_load_front,
                      &S::steal_fence,        &S::steal_load_back,        &S::steal_load_buffer,
                      &S::steal_load_slot,    &S::steal_recheck_buffer,   &S::steal_cas,
                      &S::steal_cas_failure,  &S::into_load_dest_back,    &S::into_store_dest_slot,
                      &S::into_fence,         &S::into_store_dest_back,   &S::size_load};
  }
};

/// KNOWN-BAD: crossbeam_fifo's pop without putting front back when its fetch_add finds the
/// queue empty (a thief took the last item between pop's first look and its fetch_add): front
/// stays past back, so the next value pushed sits below front, where neither pop nor steal
/// looks: it is lost.
struct crossbeam_sites_fifo_no_restore : crossbeam_fifo_sites {
  static constexpr std::string_view variant = "crossbeam_fifo_no_restore";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "FIFO pop leaves front past back after losing the last item: the next push is lost";
  static constexpr failure_set must_show{failure_kind::value_lost};
  using fixed_in = crossbeam_fifo_sites;
  static constexpr std::string_view fixed_by =
      "restore_front = true (a FIFO pop that lost the last item puts front back)";
  static constexpr bool restore_front = false;
};

/// KNOWN-BAD: crossbeam_lifo's thieves without the re-check of the ring before their CAS (the
/// code before crossbeam's fix of CVE-2021-32810). steal_into from a LIFO victim reads every
/// value of its batch from the ring it loaded once; after the owner has shrunk the ring, popped
/// an index and pushed a new value there (into the new ring), the thief still reads the popped
/// value from the old ring, and its CAS of front succeeds: a value taken twice, another lost.
struct crossbeam_sites_lifo_no_recheck : crossbeam_sites {
  static constexpr std::string_view variant = "crossbeam_lifo_no_recheck";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "a batch steal's CAS without re-checking the ring: a value popped before a shrink is "
      "taken again from the old ring (CVE-2021-32810)";
  static constexpr failure_set must_show{failure_kind::value_taken_twice};
  using fixed_in = crossbeam_sites;
  static constexpr std::string_view fixed_by =
      "recheck_buffer = true (a batch steal re-checks the ring before its CAS)";
  static constexpr bool recheck_buffer = false;
};

template <class T, class Mem = native_memory>
using crossbeam_lifo = crossbeam_worker<T, Mem, crossbeam_sites>;
template <class T, class Mem = native_memory>
using crossbeam_lifo_no_recheck = crossbeam_worker<T, Mem, crossbeam_sites_lifo_no_recheck>;
template <class T, class Mem = native_memory>
using crossbeam_fifo = crossbeam_worker<T, Mem, crossbeam_fifo_sites>;
template <class T, class Mem = native_memory>
using crossbeam_fifo_no_restore = crossbeam_worker<T, Mem, crossbeam_sites_fifo_no_restore>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
