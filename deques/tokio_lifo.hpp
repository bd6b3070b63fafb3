// deques/tokio_lifo.hpp: Tokio's local run queue (deques/tokio.hpp) with its stealable LIFO
// slot: the sites of the variant tokio_lifo and its known-bad.
//
// The stealable LIFO slot (variant tokio_lifo; tokio-rs/tokio#7431 in 1.51, reverted in 1.52.2
// for its cost, reintroduced by #8120). Tokio's worker keeps the task it scheduled last in a
// LIFO slot and runs it next. Private to the worker before; now a field of the queue, an atomic
// task pointer (AtomicNotified) that the owner swaps and thieves take: push swaps the value
// into the slot and pushes the value it displaces to the back of the ring (Tokio's
// Handle::schedule_local does this second step); pop takes the slot first, then the ring; a
// thief takes the slot when its claim of the ring gets nothing (steal_into2 returns 0 when
// the ring is empty or another thief is copying), and returns it without copying. What the
// slot promises a thief: each value exactly once, the slot's value only when the ring gave
// nothing, and no order: the unordered spec again. It does not promise a linearizable empty:
// while a push moves the slot's old value into the ring (after its swap, before its store of
// tail), a second thief that takes the new value leaves the old one in neither, and a thief
// that then finds the ring, the slot and the inject queue empty, even reading them again
// under the inject lock, would report empty beside a value pushed and not taken (the model
// checker finds the execution in push2_push2_steal_2thieves; models/tests). Its thieves
// therefore report abort when they find nothing, as Go's do (deques/go.hpp); Tokio's
// steal_into returns None ("nothing stolen") there too. The owner's empty stays exact: only
// the owner adds to the slot, the ring and the inject queue.
//
// Thread roles, values, returns and complexity: as deques/tokio.hpp says for the queue with the
// slot.
#pragma once

#include <array>
#include <atomic>
#include <string_view>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/tokio.hpp"

namespace stealcheck {

/// The sites of Tokio's local queue with its stealable LIFO slot (tokio-rs/tokio#8120, commit
/// dea82b93f: queue.rs Local::push_lifo, pop_lifo, Steal::steal_into, len; the slot is
/// task/atomic_notified.rs's AtomicNotified, whose swap and load are SeqCst).
struct tokio_lifo_sites : tokio_sites {
  static constexpr std::string_view variant = "tokio_lifo";
  static constexpr bool lifo_slot = true;
  /// push_lifo is one swap; false: a load and a store (tokio_lifo_push_load_store).
  static constexpr bool push_swaps_lifo = true;
  /// A thief that finds nothing reports abort (see the file comment); true only in a test
  /// that shows the execution in which an empty would not be linearizable.
  static constexpr bool thieves_report_empty = false;
  static constexpr site push_swap_lifo{
      "tokio::push.swap_lifo", mo::seq_cst, site_kind::rmw,
      "AtomicNotified::swap (SeqCst); its release half pairs with steal.take_lifo (MP on the "
      "box): the thief that takes the slot reads the value boxed before it (acquire or "
      "relaxed: a data race on the box, killed in push2_pop_steal2); the acquire half is not "
      "needed: the value it displaces was boxed by this owner (release: more executions, no "
      "bug; acq_rel: the same as seq_cst)"};
  static constexpr site pop_take_lifo{
      "tokio::pop.take_lifo", mo::seq_cst, site_kind::rmw,
      "AtomicNotified::take (SeqCst); not needed: the value it takes was boxed by this owner "
      "and the null it leaves carries nothing; RMW atomicity alone keeps a thief's take from "
      "taking it too (relaxed: more executions, no bug)"};
  static constexpr site steal_take_lifo{
      "tokio::steal.take_lifo", mo::seq_cst, site_kind::rmw,
      "AtomicNotified::take (SeqCst); its acquire half pairs with push.swap_lifo (MP on the "
      "box): release or relaxed is a data race on the box (killed in push2_pop_steal2); the "
      "release half and seq_cst are not needed (acquire: more executions, no bug)"};
  static constexpr site size_load_lifo{
      "tokio::size_hint.load_lifo", mo::seq_cst, site_kind::load,
      "AtomicNotified::is_some (SeqCst); a snapshot: not needed (relaxed: more executions, no "
      "bug)"};
  static constexpr site size_load_head{
      "tokio::size_hint.load_head", mo::acquire, site_kind::load,
      "as steal.load_head; not needed in any client of this variant (relaxed: the same "
      "executions): a value reaches the ring only when a later push displaces it from the "
      "slot, and no client's size_hint then reads a head newer than its tail (in tokio, "
      "pop_push_pop_steal2 kills the weakening)"};

  /// Every site of the variant `S`, in source order (no re-read under the inject lock: a
  /// thief that finds nothing reports abort).
  template <class S>
  static constexpr auto list() {
    return concat_sites(std::array{&S::push_swap_lifo, &S::pop_take_lifo}, ring_list<S>(),
                        std::array{&S::steal_take_lifo}, into_and_size_list<S>(),
                        std::array{&S::size_load_lifo});
  }
};

template <class T, class Mem = native_memory>
using tokio_lifo = tokio_queue<T, Mem, tokio_lifo_sites>;

/// KNOWN-BAD: push_lifo reads the slot and then stores the new value (a private slot's take
/// and set, Tokio's Core::lifo_slot before the slot became stealable, made atomic without one
/// swap). A thief that takes the old value between the load and the store takes it, and the
/// owner pushes it to the ring as well: the value is taken twice (its box is opened twice; the
/// model checker reports the second opening as a use after free).
struct tokio_lifo_sites_push_load_store : tokio_lifo_sites {
  static constexpr std::string_view variant = "tokio_lifo_push_load_store";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "push_lifo loads the slot and then stores: a thief takes the displaced value too";
  static constexpr failure_set must_show{failure_kind::value_taken_twice,
                                         failure_kind::value_invented, failure_kind::use_after_free,
                                         failure_kind::double_free};
  using fixed_in = tokio_lifo_sites;
  static constexpr std::string_view fixed_by =
      "push_swaps_lifo = true (push_lifo swaps the slot in one RMW)";
  static constexpr bool push_swaps_lifo = false;
};

template <class T, class Mem = native_memory>
using tokio_lifo_push_load_store = tokio_queue<T, Mem, tokio_lifo_sites_push_load_store>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
