// deques/go.hpp: the per-P run queue of Go's scheduler with its runnext slot and the global
// run queue it overflows into (golang/go, src/runtime/proc.go: runqput, runqputslow, runqget,
// runqgrab, runqsteal, runqempty; globrunqputbatch and globrunqget under sched.lock), with
// Go's orders.
//
// Thread role: push and pop by the owner (the P's own M); steal and victim.steal_into(mine) by
// any thread (another P's M; for steal_into, the owner of `mine`); size_hint by any thread.
//
// Layout. A ring of `capacity` slots (Go: 256) indexed by 32-bit `head` and `tail` that wrap;
// `tail` is written by the owner only, `head` only by CAS (release: atomic.CasRel). The slot
// `runnext` holds one more value, the newest pushed. Go's slots are plain memory, read by a
// thief *before* its claim CAS (the CAS fails when the slot was reused, and the value read is
// dropped): in C++ such a read is a data race, so here the slots and runnext are atomics whose
// plain accesses are relaxed (as chase_lev's slots are; deques/slot.hpp).
//
// The protocol. push is runqput(next = true), what `go f()` does (newproc): the value goes to
// runnext by CAS, and the value it displaces (if any) to the tail of the ring, published by a
// release store of `tail` when tail - head < capacity. A full ring goes runqputslow: read the
// older half, CAS `head` past it, and move it and the value to the global queue. pop is
// runqget: runnext by CAS if set, else the value at `head` read, then claimed by CAS. A thief
// (runqgrab) reads head and tail with acquire, takes n - n/2 of the n values by reading them
// and CASing `head` forward; on a ring it finds empty it takes runnext by CAS (Go first sleeps
// 3 us if the victim is running, to let it run runnext itself: a timing policy, not modelled).
// runqsteal copies the batch into the thief's own ring, returns the last value and publishes
// the others with a release store of its own tail.
//
// The global queue. pop takes from it when runnext and the ring are empty (Go's findRunnable
// also reads it every 61 schedticks, a fairness policy not modelled); steal and steal_into
// when the ring and runnext are empty. runnext makes pop LIFO for one value and overflow moves
// values out of the ring: the variant meets the unordered spec (deques/spec.hpp: exactly once,
// in any order).
//
// No thief reports empty (variant_info::thieves_report_empty is false): one that finds nothing
// reports abort, as runqgrab returns 0 and runqsteal nil, "nothing stolen". An empty a thief
// could report would not be linearizable: while a push moves the old runnext into the ring
// (after its CAS of runnext, before its store of tail), a second thief that takes the new
// runnext leaves the old value in neither, so a thief then finds the ring and runnext empty
// and the global queue too, with a value present; re-reading the tail after runnext, as
// runqempty does, does not help, since nothing orders that thief after the push's store of
// tail (the model checker finds it in push2_push2_steal_2thieves; proofs/go.md). The owner's
// empty is exact: only the owner adds to runnext and the ring.
//
// Departures, none in the protocol: steal() claims at most one value with runqgrab's protocol
// (Go's thieves always runqsteal); steal_into(mine) aborts unless `mine`'s ring is empty (Go
// calls runqsteal only when the thief's own queue is empty, findRunnable) and takes at most
// `mine`'s capacity; its check of the destination moves before the grab (Go loads the
// destination's head after it, for its "runq overflow" throw, which the check makes
// unreachable).
//
// Values: in the ring as deques/slot.hpp says (inline when trivially copyable and lock-free);
// in runnext boxed unless T is a pointer, so that null marks an empty runnext (a value leaving
// runnext is unboxed on its way to the ring or the caller).
// Returns: pop gives nullopt when runnext, the ring and the global queue are empty; steal
// gives item or abort (nothing found), never empty. Complexity: push
// O(1) (O(capacity) on overflow, under the global lock), pop O(1), steal O(1), steal_into O(k);
// lock-free except the global queue.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/overflow_queue.hpp"
#include "stealcheck/detail/deques/ring.hpp"

namespace stealcheck {

/// The memory-order sites of Go's run queue (proc.go), each with Go's order.
struct go_sites {
  static constexpr std::string_view variant = "go";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  /// runqget takes runnext by CAS (a thief may take it at the same time).
  static constexpr bool pop_takes_runnext_by_cas = true;
  /// A thief that finds the ring, runnext and the global queue empty re-reads them as
  /// runqempty does (seq_cst loads, Go's atomic.Load) and reports empty when they are still
  /// empty. False here: that empty is not linearizable (see the file comment); the model
  /// tests run the variant with it set to show the execution.
  static constexpr bool thieves_report_empty = false;
  using mo = std::memory_order;
  // push (runqput, next = true)
  static constexpr site push_load_runnext{"go::push.load_runnext", mo::relaxed, site_kind::load,
                                          "plain read of pp.runnext: the CAS's expected value"};
  static constexpr site push_cas_runnext{
      "go::push.cas_runnext", mo::seq_cst, site_kind::rmw,
      "runnext.cas (a full barrier in Go); its release half pairs with grab.cas_runnext (MP "
      "on the box): the thief that takes runnext reads the value boxed before it, not a race "
      "on the box (acquire or relaxed: killed in push2_pop_steal2); the acquire half and "
      "seq_cst are not needed: the value it displaces was boxed by this owner's own earlier "
      "push"};
  static constexpr site push_cas_runnext_failure{"go::push.cas_runnext_failure", mo::relaxed,
                                                 site_kind::cas_failure, "retried (retryNext)"};
  static constexpr site push_load_head{
      "go::push.load_head", mo::acquire, site_kind::load,
      "LoadAcq of head; not needed under RC11: a thief reads a slot before its CAS on head "
      "(grab.cas) that this load reads, and the slot's next write comes after this load, so "
      "the thief reading that write would be a po-rf cycle (load buffering), which RC11 "
      "forbids; with Go's plain slots the acquire orders them (relaxed: more executions, no "
      "bug)"};
  static constexpr site push_load_tail{"go::push.load_tail", mo::relaxed, site_kind::load,
                                       "plain read: the owner reads its own store"};
  static constexpr site push_store_slot{"go::push.store_slot", mo::relaxed, site_kind::store,
                                        "plain write; published by push.store_tail"};
  static constexpr site push_store_tail{
      "go::push.store_tail", mo::release, site_kind::store,
      "StoreRel: pairs with grab.load_tail (MP): a thief that reads this tail reads the value "
      "pushed into the slot, not the slot's older content (relaxed: value 0 invented, killed "
      "in push2_pop_steal2)"};
  // runqputslow
  static constexpr site slow_load_slot{"go::putslow.load_slot", mo::relaxed, site_kind::load,
                                       "plain read of the owner's own slots"};
  static constexpr site slow_cas{
      "go::putslow.cas", mo::release, site_kind::rmw,
      "CasRel: commits the consume of the older half; not needed for safety: a thief that "
      "reads this head with an older tail sees an inconsistent pair and retries, or a shorter "
      "ring and takes less, and the claim CAS of any stale thief fails (relaxed: more "
      "executions, no bug)"};
  static constexpr site slow_cas_failure{"go::putslow.cas_failure", mo::relaxed,
                                         site_kind::cas_failure, "runqput retries"};
  // pop (runqget)
  static constexpr site pop_load_runnext{"go::pop.load_runnext", mo::relaxed, site_kind::load,
                                         "plain read of pp.runnext"};
  static constexpr site pop_cas_runnext{
      "go::pop.cas_runnext", mo::seq_cst, site_kind::rmw,
      "runnext.cas; its orders are not needed: runnext's box was written by this owner (only "
      "the owner stores a value there), and a thief's CAS that took it first makes this CAS "
      "fail (relaxed: more executions, no bug)"};
  static constexpr site pop_cas_runnext_failure{"go::pop.cas_runnext_failure", mo::relaxed,
                                                site_kind::cas_failure,
                                                "a thief took it: go on to the ring"};
  static constexpr site pop_load_head{
      "go::pop.load_head", mo::acquire, site_kind::load,
      "LoadAcq of head; not needed: the owner reads only slots it wrote itself, and a stale "
      "head makes pop.cas fail and retry (relaxed: more executions, no bug)"};
  static constexpr site pop_load_tail{"go::pop.load_tail", mo::relaxed, site_kind::load,
                                      "plain read: the owner reads its own store"};
  static constexpr site pop_load_slot{"go::pop.load_slot", mo::relaxed, site_kind::load,
                                      "plain read of its own slot, before the claim"};
  static constexpr site pop_cas{
      "go::pop.cas", mo::release, site_kind::rmw,
      "CasRel: commits the consume; not needed for safety: a thief that reads this head with "
      "an older tail sees an inconsistent pair and retries, and a thief's slot read before "
      "its own claim cannot read a later push's write (load buffering; see push.load_head) "
      "(relaxed: more executions, no bug)"};
  static constexpr site pop_cas_failure{"go::pop.cas_failure", mo::relaxed, site_kind::cas_failure,
                                        "retried"};
  // steal, steal_into (runqgrab, runqsteal)
  static constexpr site grab_load_head{
      "go::grab.load_head", mo::acquire, site_kind::load,
      "LoadAcq of head; not needed for safety: a stale head gives a claim CAS (grab.cas) that "
      "fails, or an inconsistent pair that is retried (relaxed: more executions, no bug)"};
  static constexpr site grab_load_tail{
      "go::grab.load_tail", mo::acquire, site_kind::load,
      "LoadAcq: pairs with push.store_tail (MP): the slots below this tail hold the values "
      "pushed (relaxed: value 0 invented, killed in push2_pop_steal2)"};
  static constexpr site grab_load_runnext{"go::grab.load_runnext", mo::relaxed, site_kind::load,
                                          "plain read of pp.runnext"};
  static constexpr site grab_cas_runnext{
      "go::grab.cas_runnext", mo::seq_cst, site_kind::rmw,
      "runnext.cas; its acquire half pairs with push.cas_runnext (MP on the box): the thief "
      "reads the value boxed before (release or relaxed: a data race on the box, killed in "
      "push2_pop_steal2); the release half and seq_cst are not needed: the thief clears "
      "runnext to null and publishes nothing through it"};
  static constexpr site grab_cas_runnext_failure{"go::grab.cas_runnext_failure", mo::relaxed,
                                                 site_kind::cas_failure, "retried"};
  static constexpr site grab_load_slot{"go::grab.load_slot", mo::relaxed, site_kind::load,
                                       "plain read, before the claim"};
  static constexpr site grab_store_slot{"go::grab.store_slot", mo::relaxed, site_kind::store,
                                        "plain write into the thief's own ring"};
  static constexpr site grab_cas{
      "go::grab.cas", mo::release, site_kind::rmw,
      "CasRel: commits the consume; not needed under RC11: the slot reads before it cannot "
      "read a later overwrite by push (load buffering, see push.load_head), and the "
      "destination's slots are published by steal_into.store_dest_tail (relaxed: more "
      "executions, no bug)"};
  static constexpr site grab_cas_failure{"go::grab.cas_failure", mo::relaxed,
                                         site_kind::cas_failure, "retried"};
  static constexpr site into_load_dest_tail{"go::steal_into.load_dest_tail", mo::relaxed,
                                            site_kind::load,
                                            "plain read: the thief owns the destination"};
  static constexpr site into_load_dest_head{
      "go::steal_into.load_dest_head", mo::acquire, site_kind::load,
      "LoadAcq of the destination's head; not needed: only the emptiness check of the thief's "
      "own ring, whose slots a thief of it read before its claim (load buffering, see "
      "push.load_head) (relaxed: more executions, no bug)"};
  static constexpr site into_load_slot{"go::steal_into.load_slot", mo::relaxed, site_kind::load,
                                       "plain read of its own slot"};
  static constexpr site into_store_dest_tail{
      "go::steal_into.store_dest_tail", mo::release, site_kind::store,
      "StoreRel: pairs with grab.load_tail of the destination's thieves (MP): a thief of the "
      "thief's ring reads the batch copied into it (relaxed: value 0 invented, killed in "
      "steal_from_thief)"};
  // size_hint (runqempty's loads)
  static constexpr site size_load_head{
      "go::size_hint.load_head", mo::acquire, site_kind::load,
      "atomic.Load; not needed: a snapshot, exact only when quiescent, which orders nothing "
      "(relaxed: more executions, no bug)"};
  static constexpr site size_load_tail{
      "go::size_hint.load_tail", mo::acquire, site_kind::load,
      "atomic.Load; not needed: a snapshot, exact only when quiescent, which orders nothing "
      "(relaxed: more executions, no bug)"};
  static constexpr site size_load_runnext{
      "go::size_hint.load_runnext", mo::acquire, site_kind::load,
      "atomic.Loaduintptr; not needed: a snapshot, exact only when quiescent, which orders "
      "nothing (relaxed: more executions, no bug)"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_runnext,
                      &S::push_cas_runnext,
                      &S::push_cas_runnext_failure,
                      &S::push_load_head,
                      &S::push_load_tail,
                      &S::push_store_slot,
                      &S::push_store_tail,
                      &S::slow_load_slot,
                      &S::slow_cas,
                      &S::slow_cas_failure,
                      &S::pop_load_runnext,
                      &S::pop_cas_runnext,
                      &S::pop_cas_runnext_failure,
                      &S::pop_load_head,
                      &S::pop_load_tail,
                      &S::pop_load_slot,
                      &S::pop_cas,
                      &S::pop_cas_failure,
                      &S::grab_load_head,
                      &S::grab_load_tail,
                      &S::grab_load_runnext,
                      &S::grab_cas_runnext,
                      &S::grab_cas_runnext_failure,
                      &S::grab_load_slot,
                      &S::grab_store_slot,
                      &S::grab_cas,
                      &S::grab_cas_failure,
                      &S::into_load_dest_tail,
                      &S::into_load_dest_head,
                      &S::into_load_slot,
                      &S::into_store_dest_tail,
                      &S::size_load_head,
                      &S::size_load_tail,
                      &S::size_load_runnext};
  }
};

/// Go's per-P run queue with runnext and the global queue (see the file comment).
template <class T, class Mem = native_memory, class Sites = go_sites>
class go_runq {
  using ring = detail::wrapping_ring<T, Mem>;
  using codec = typename ring::codec;
  using stored = typename ring::stored;
  // runnext holds a box (null: none) unless T is a pointer (nil: none), as a guintptr does
  using next_codec = detail::slot_codec<T, Mem, !std::is_pointer_v<T>>;
  using next_stored = typename next_codec::stored;
  using index = std::uint32_t;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// capacity is rounded up to a power of two, at least 2 (Go: 256).
  explicit go_runq(std::int64_t capacity = 256) : ring_(std::max<std::int64_t>(capacity, 2)) {}

  go_runq(const go_runq&) = delete;
  go_runq& operator=(const go_runq&) = delete;

  /// Requires: no operation is running. Destroys the values left in runnext, the ring and the
  /// global queue.
  ~go_runq() {
    // Quiescent: relaxed loads read the final values.
    if (const next_stored next = runnext_.load(std::memory_order_relaxed))
      next_codec::discard(next);
    ring_.discard(head_.load(std::memory_order_relaxed), tail_.load(std::memory_order_relaxed));
  }

  /// Thread role: owner. Always succeeds: runqput(next = true). v goes to runnext; the value
  /// it displaces goes to the ring, or (ring full) with the older half to the global queue.
  void push(T v) {
    const next_stored mine = next_codec::encode(std::move(v));
    stored g{};
    for (;;) {  // retryNext
      next_stored old = runnext_.load(Mem::order(Sites::push_load_runnext));
      if (runnext_.compare_exchange_strong(old, mine, Mem::order(Sites::push_cas_runnext),
                                           Mem::order(Sites::push_cas_runnext_failure))) {
        if (old == nullptr) return;
        g = to_ring(old);  // kick the old runnext out to the ring
        break;
      }
    }
    for (;;) {  // retry
      const index h = head_.load(Mem::order(Sites::push_load_head));
      const index t = tail_.load(Mem::order(Sites::push_load_tail));  // own store
      if (t - h < ring_.capacity()) {
        ring_.at(t).store(g, Mem::order(Sites::push_store_slot));
        // release (push.store_tail): the slot, to consumers that load tail with acquire.
        tail_.store(t + 1, Mem::order(Sites::push_store_tail));
        return;
      }
      if (put_slow(g, h, t)) return;
    }
  }

  /// Thread role: owner. runqget: runnext if set, else the oldest value of the ring, else of
  /// the global queue; nullopt when all three are empty.
  std::optional<T> pop() {
    next_stored next = runnext_.load(Mem::order(Sites::pop_load_runnext));
    if (next != nullptr && take_runnext(next, Mem::order(Sites::pop_cas_runnext),
                                        Mem::order(Sites::pop_cas_runnext_failure))) {
      return next_codec::decode(next);
    }
    for (;;) {
      index h = head_.load(Mem::order(Sites::pop_load_head));
      const index t = tail_.load(Mem::order(Sites::pop_load_tail));  // own store
      if (t == h) return global_.pop();
      const stored x = ring_.at(h).load(Mem::order(Sites::pop_load_slot));
      if (head_.compare_exchange_strong(h, h + 1, Mem::order(Sites::pop_cas),
                                        Mem::order(Sites::pop_cas_failure))) {
        return codec::decode(x);
      }
    }
  }

  /// Thread role: any. One value by runqgrab's protocol (the ring, else runnext), else from
  /// the global queue: item, or abort when it finds nothing (never empty).
  steal_result<T> steal() {
    stored got{};
    if (grab(1, [&got](index, stored x) { got = x; }) > 0)
      return steal_result<T>::item(codec::decode(got));
    return steal_global();
  }

  /// Thread role: the owner of `mine`. Requires: &mine != this. runqsteal: half of the ring
  /// (or runnext) copied into `mine`'s ring; returns the last, publishes the others in `mine`;
  /// from the global queue when the victim is empty. Aborts when it finds nothing or when
  /// `mine`'s ring is not empty.
  steal_result<T> steal_into(go_runq& mine) {
    assert(&mine != this && "go::steal_into: cannot steal into the victim itself");
    const index t = mine.tail_.load(Mem::order(Sites::into_load_dest_tail));  // own store
    if (t != mine.head_.load(Mem::order(Sites::into_load_dest_head)))
      return steal_result<T>::abort();
    index n = grab(static_cast<index>(mine.ring_.capacity()), [&mine, t](index i, stored x) {
      mine.ring_.at(t + i).store(x, Mem::order(Sites::grab_store_slot));
    });
    if (n == 0) return steal_global();
    --n;
    const stored g = mine.ring_.at(t + n).load(Mem::order(Sites::into_load_slot));  // own
    // release (steal_into.store_dest_tail): the batch, to the destination's thieves.
    if (n > 0) mine.tail_.store(t + n, Mem::order(Sites::into_store_dest_tail));
    return steal_result<T>::item(codec::decode(g));
  }

  /// Thread role: any. The ring's values plus one for runnext, from loads in runqempty's order.
  /// Exact when quiescent; the global queue is not counted.
  std::int64_t size_hint() const {
    const index h = head_.load(Mem::order(Sites::size_load_head));
    const index t = tail_.load(Mem::order(Sites::size_load_tail));
    const bool next = runnext_.load(Mem::order(Sites::size_load_runnext)) != nullptr;
    return static_cast<std::int32_t>(t - h) + (next ? 1 : 0);
  }

 private:
  // A value taken from runnext, in the ring's form (unboxed when the ring holds T inline).
  static stored to_ring(next_stored next) { return codec::encode(next_codec::decode(next)); }

  // runqget's take of runnext: by CAS, or (known-bad) a read and a store.
  bool take_runnext(next_stored next, std::memory_order success, std::memory_order failure) {
    if (!Sites::pop_takes_runnext_by_cas) {
      runnext_.store(nullptr, std::memory_order_seq_cst);  // the known-bad's read-then-store
      return true;
    }
    return runnext_.compare_exchange_strong(next, nullptr, success, failure);
  }

  // runqputslow: the older half and g to the global queue. False: a thief moved head; push
  // retries (the ring is no longer full).
  bool put_slow(stored g, index h, index t) {
    const index n = (t - h) / 2;
    assert(n == ring_.capacity() / 2 && "go::runqputslow: queue is not full");
    std::vector<stored> batch(n);
    for (index i = 0; i < n; ++i)
      batch[i] = ring_.at(h + i).load(Mem::order(Sites::slow_load_slot));
    index expected = h;
    if (!head_.compare_exchange_strong(expected, h + n, Mem::order(Sites::slow_cas),
                                       Mem::order(Sites::slow_cas_failure))) {
      return false;
    }
    auto lock = global_.guard();
    lock.lock();
    for (index i = 0; i < n; ++i)
      global_.push_locked(batch[i]);
    global_.push_locked(g);
    return true;
  }

  // runqgrab: takes n - n/2 values (at most `most`) from the ring, else runnext; each value
  // goes to put(i, value) before the claim. Returns how many were taken.
  template <class Put>
  index grab(index most, Put put) {
    for (;;) {
      index h = head_.load(Mem::order(Sites::grab_load_head));
      const index t = tail_.load(Mem::order(Sites::grab_load_tail));
      index n = t - h;
      n = n - n / 2;
      if (n == 0) {
        next_stored next = runnext_.load(Mem::order(Sites::grab_load_runnext));
        if (next == nullptr) return 0;
        if (!runnext_.compare_exchange_strong(next, nullptr, Mem::order(Sites::grab_cas_runnext),
                                              Mem::order(Sites::grab_cas_runnext_failure))) {
          continue;
        }
        put(0, to_ring(next));
        return 1;
      }
      if (n > ring_.capacity() / 2) {  // read inconsistent h and t: retry
        Mem::retry_read_only();
        continue;
      }
      n = std::min(n, most);
      for (index i = 0; i < n; ++i)
        put(i, ring_.at(h + i).load(Mem::order(Sites::grab_load_slot)));
      if (head_.compare_exchange_strong(h, h + n, Mem::order(Sites::grab_cas),
                                        Mem::order(Sites::grab_cas_failure))) {
        return n;
      }
    }
  }

  // The global queue's value; when it is empty too, abort: nothing found (see the file
  // comment: no thief can tell an empty queue from a push in flight).
  steal_result<T> steal_global() {
    return global_.steal([&] {
      if constexpr (Sites::thieves_report_empty) {
        return runq_empty();
      } else {
        return false;
      }
    });
  }

  // runqempty: head, tail and runnext, consistent when tail is unchanged after runnext.
  bool runq_empty() const {
    constexpr auto sc = std::memory_order_seq_cst;  // atomic.Load (not a site: a test's probe)
    for (;;) {
      const index h = head_.load(sc);
      const index t = tail_.load(sc);
      const bool next = runnext_.load(sc) != nullptr;
      if (t == tail_.load(sc)) return h == t && !next;
      Mem::retry_read_only();
    }
  }

  alignas(64) typename Mem::template atomic<index> head_{0, "head"};
  alignas(64) typename Mem::template atomic<index> tail_{0, "tail"};
  typename Mem::template atomic<next_stored> runnext_{nullptr, "runnext"};
  ring ring_;
  detail::overflow_queue<T, Mem, codec> global_;
};

/// KNOWN-BAD: runqget takes runnext with a read and a store of null instead of a CAS. A thief
/// that read the same runnext takes it by its CAS too: the value is taken twice.
struct go_sites_pop_runnext_no_cas : go_sites {
  static constexpr std::string_view variant = "go_pop_runnext_no_cas";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "runqget clears runnext with a store, not a CAS: owner and thief both take it";
  static constexpr failure_set must_show{failure_kind::value_taken_twice,
                                         failure_kind::use_after_free, failure_kind::double_free};
  using fixed_in = go_sites;
  static constexpr std::string_view fixed_by =
      "pop_takes_runnext_by_cas = true (runqget takes runnext with a CAS)";
  static constexpr bool pop_takes_runnext_by_cas = false;
};

template <class T, class Mem = native_memory>
using go_pop_runnext_no_cas = go_runq<T, Mem, go_sites_pop_runnext_no_cas>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
