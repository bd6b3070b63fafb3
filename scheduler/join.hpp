// scheduler/join.hpp: the join protocol of fork-join, written against a memory backend `Mem`
// (deques/memory.hpp) with every memory order a named site (join_sites), so that the same
// source runs in the pool (Mem = native_memory: std::atomic and plain data, the code one would
// write by hand) and under the model checker (scheduler/model_clients.hpp).
//
//   join_flag     one task run by another worker (fork_join's stolen second branch, run()'s
//                 root task): the task's runner records an exception, then sets `done` with a
//                 release store; the joiner reads `done` with an acquire load, then the
//                 task's effects and its exception.
//   join_counter  many tasks (task_group) spawned by one thread, the spawner: it counts the
//                 tasks it adds and the ones it runs itself in plain owner-only data (no atomic
//                 read-modify-write on the fast path: a spawned task that nobody stole costs no
//                 RMW); a task run by any other thread records its exception (the first one
//                 wins), then decrements `pending` with a release RMW. The spawner is done when
//                 its own count plus `pending` is 0, read with an acquire load that synchronizes
//                 with every remote decrement (they form one release sequence of RMWs). A
//                 spawner that is not a worker folds its count into `pending` and marks it
//                 (external_waiter), so that the last task knows to wake it.
//
// Thread role: see each member. Memory ordering: the sites below, each naming its partner.
// Complexity: O(1) per call; await() waits for the value to change (a spin natively, a
// blocking read under the model checker: a join that is never completed is a deadlock).
// Source: Blumofe, Leiserson, "Scheduling Multithreaded Computations by Work Stealing", JACM
// 46(5) 1999 (the join counter of a spawned computation); C++20 [intro.races] (release
// sequences of RMWs).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <string_view>
#include <utility>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::scheduler {

/// The memory-order sites of join_flag and join_counter.
struct join_sites {
  static constexpr std::string_view variant = "join";
  using mo = std::memory_order;
  static constexpr site flag_store{
      "join::flag.store_done", mo::release, site_kind::store,
      "pairs with flag.load_done: publishes the task's effects and exception; relaxed lets the "
      "joiner read them before they are written (killed in fork2_join.chase_lev: data race)"};
  static constexpr site flag_load{
      "join::flag.load_done", mo::acquire, site_kind::load,
      "pairs with flag.store_done; relaxed lets the joiner read the task's results unordered "
      "(killed in fork2_join.chase_lev: data race)"};
  static constexpr site counter_arrive{
      "join::counter.arrive", mo::release, site_kind::rmw,
      "pairs with counter.load: publishes a stolen task's effects and exception; relaxed lets "
      "the joiner read them before they are written (killed in park_while_push.chase_lev: "
      "data race)"};
  static constexpr site counter_load{
      "join::counter.load", mo::acquire, site_kind::load,
      "pairs with every counter.arrive (one release sequence); relaxed lets the spawner read a "
      "stolen task's results unordered (killed in park_while_push.chase_lev: data race)"};
  static constexpr site counter_mark{
      "join::counter.mark_external", mo::acquire, site_kind::rmw,
      "an RMW, so it lies in the decrements' release sequence: the one decrement it precedes in "
      "modification order sees the mark; acquire pairs with every counter.arrive when it finds "
      "nothing pending (the spawner then reads the results without waiting); relaxed lets it "
      "read them unordered (killed in group_from_outside.chase_lev: data race); no release: "
      "the last task reads only the mark"};
  static constexpr site counter_unmark{"join::counter.unmark_external", mo::relaxed, site_kind::rmw,
                                       "only the joiner reads the count again before the next add"};
  static constexpr site failed_exchange{
      "join::counter.failed_exchange", mo::relaxed, site_kind::rmw,
      "only picks the one writer of the exception, which counter.arrive publishes"};
  static constexpr site failed_reset{"join::counter.failed_reset", mo::relaxed, site_kind::store,
                                     "only the joiner reads the flag again, after later arrives"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::flag_store,   &S::flag_load,      &S::counter_arrive,  &S::counter_load,
                      &S::counter_mark, &S::counter_unmark, &S::failed_exchange, &S::failed_reset};
  }
};

/// The completion of one task run by another thread: `done` plus the task's exception.
template <class Mem = native_memory, class Sites = join_sites>
class join_flag {
 public:
  /// Thread role: the thread that ran the task, as its last access to the task. Publishes `e`
  /// (null: the task returned) and every effect of the task. The task's frame may be gone right
  /// after the store.
  /// Takes `e` whole: the finishing thread must keep no reference to the exception, whose last
  /// owner (the joiner) may free it as soon as the store below is seen.
  void finish(std::exception_ptr&& e) {
    if (e) error_.write() = std::move(e);
    // release (flag.store_done): pairs with the acquire load in done().
    done_.store(true, Mem::order(Sites::flag_store));
  }
  /// Thread role: the joiner. Whether finish() ran; once true, its effects are visible.
  bool done() const {
    return done_.load(Mem::order(Sites::flag_load));  // acquire: pairs with finish()
  }
  /// Thread role: the joiner. Waits until `done` changes (then call done() again).
  void await() const { Mem::spin_while_equal(done_, false, Mem::order(Sites::flag_load)); }
  /// Thread role: the joiner, after done() returned true. Rethrows the task's exception.
  void rethrow_if_failed() const {
    if (error_.read()) std::rethrow_exception(error_.read());
  }

 private:
  typename Mem::template atomic<bool> done_{false, "done"};
  typename Mem::template nonatomic<std::exception_ptr> error_{named{"error"}};
};

/// The completion of a set of tasks spawned by one thread (the spawner): the count of
/// unfinished ones plus the first exception. Tasks the spawner runs itself are counted in plain
/// data (arrive_local); only tasks run by other threads touch the atomic (arrive).
/// Invariant: owned + pending = unfinished tasks (+ external_waiter while marked), where owned
/// is the spawner's count of tasks added minus tasks it ran and pending is minus the count of
/// tasks other threads ran (the spawner only ever reads their sum).
template <class Mem = native_memory, class Sites = join_sites>
class join_counter {
 public:
  /// Added to the count while a thread that is not a worker waits; far above any task count.
  static constexpr std::int64_t external_waiter = std::int64_t{1} << 40;

  /// Thread role: the spawner, before the task becomes reachable (pushed, injected).
  void add() { ++owned_.write(); }

  /// Thread role: the thread that ran a task that threw, before its arrive() or
  /// arrive_local(). Records `e` unless an earlier task's exception was recorded (the first
  /// one wins).
  void fail(std::exception_ptr&& e) {  // taken whole, as finish()'s
    // relaxed (counter.failed_exchange): picks the one writer of error_.
    if (!failed_.exchange(true, Mem::order(Sites::failed_exchange))) error_.write() = std::move(e);
  }

  /// Thread role: the spawner, after it ran one of the tasks itself (and after fail() if it
  /// threw). No atomic access: the spawner's own effects are ordered before its later reads.
  void arrive_local() { --owned_.write(); }

  /// Thread role: any thread but the spawner, after it ran a task (and after fail() if it
  /// threw). Returns true when this was the last task and a thread waits outside the pool (the
  /// caller then wakes it). The counter may be gone right after the decrement.
  bool arrive() {
    // release (counter.arrive): pairs with the acquire load in done().
    return pending_.fetch_sub(1, Mem::order(Sites::counter_arrive)) == external_waiter + 1;
  }

  /// Thread role: the spawner. Whether every added task arrived (`external`: the spawner
  /// marked the counter); once true, their effects and exceptions are visible.
  bool done(bool external = false) const {
    // acquire (counter.load): pairs with every arrive().
    return owned_.read() + pending_.load(Mem::order(Sites::counter_load)) ==
           (external ? external_waiter : 0);
  }
  /// Thread role: the spawner. Waits until the count changes (then call done() again).
  void await() const {
    const std::int64_t v = pending_.load(Mem::order(Sites::counter_load));
    if (owned_.read() + v != 0) Mem::spin_while_equal(pending_, v, Mem::order(Sites::counter_load));
  }

  /// Thread role: the spawner, not a worker (every task runs on another thread). Folds its
  /// own count into `pending` and marks it; false if nothing is pending (then do not wait).
  /// Call unmark_external() after the wait.
  bool mark_external() {
    const std::int64_t owned = std::exchange(owned_.write(), 0);
    // acquire (counter.mark_external): see the site.
    return pending_.fetch_add(external_waiter + owned, Mem::order(Sites::counter_mark)) + owned !=
           0;
  }
  void unmark_external() {
    pending_.fetch_sub(external_waiter, Mem::order(Sites::counter_unmark));  // relaxed: the site
  }

  /// Thread role: the spawner, not a worker. Blocks in p.block_until (pool::block_until:
  /// waits, never spins) until every task arrived; the last task's runner sees the mark and
  /// calls p.notify_external(). Marks and unmarks the counter around the wait.
  template <class P>
  void wait_outside(P& p) {
    if (mark_external()) p.block_until([&] { return done(/*external=*/true); });
    unmark_external();
  }

  /// Thread role: the spawner, after done(). The first recorded exception (null: none);
  /// resets the record for the next round of tasks.
  std::exception_ptr take_error() {
    if (!error_.read()) return nullptr;
    std::exception_ptr e = std::exchange(error_.write(), nullptr);
    failed_.store(false, Mem::order(Sites::failed_reset));  // relaxed: the site
    return e;
  }

 private:
  typename Mem::template nonatomic<std::int64_t> owned_{named{"owned"}, 0};
  typename Mem::template atomic<std::int64_t> pending_{0, "pending"};
  typename Mem::template atomic<bool> failed_{false, "failed"};
  typename Mem::template nonatomic<std::exception_ptr> error_{named{"error"}};
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
