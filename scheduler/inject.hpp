// scheduler/inject.hpp: how work enters a pool from a thread that is not one of its workers, and
// how that thread waits for the work to finish. Written against a memory backend, as the event
// count and the join protocol are, so the pool (scheduler/pool.hpp) runs the same source natively
// (native_memory) and under the model checker (model::memory, scheduler/model_clients.hpp).
//
//   basic_inject_queue   a FIFO of tasks under a mutex, plus a relaxed size hint that workers
//                        read without the lock. push() queues a task and wakes a worker with
//                        the strict event_count::notify_one(): a worker that registered as a
//                        sleeper before the notify is woken, one that registers after it reads
//                        the hint through the event count's RMWs (event_count.hpp), so
//                        the task is never left with every worker asleep. The non-strict
//                        hint_one() would lose it (the KNOWN-BAD inject_wake_hint policy of
//                        scheduler/known_bad.hpp: a lost wake-up the model checker reports).
//   basic_external_wait  an epoch word: block_until(done) blocks the outside thread in an
//                        atomic wait until done() holds; notify() (by whoever made done() true)
//                        bumps the epoch with a release RMW and wakes every waiter. A waiter
//                        that reads the bump (acquire) then sees done() true, so it cannot
//                        sleep on an epoch that has already moved past its condition.
//
// Thread role: push(), block_until() on any thread; take() and visible() on the pool's
// workers; notify() on any thread, after making a waiter's done() true.
// Memory ordering: each site's comment names its partner (inject_sites). Writes before push()
// happen-before the task runs (the mutex); done()'s acquire load publishes what the task did.
// Complexity: push/take one lock; block_until an atomic wait per notify; notify one RMW and a
// futex wake when some thread waits.
// Source: D. Vyukov, "Eventcount" (2008) for the wake protocol; C++20 [atomics.wait].
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "scheduler/join.hpp"
#include "scheduler/task.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::scheduler {

/// The memory-order sites of the injection queue and the outside wait.
struct inject_sites {
  static constexpr std::string_view variant = "inject";
  using mo = std::memory_order;
  static constexpr site push_store_size{
      "inject::push.store_size", mo::relaxed, site_kind::store,
      "a hint that work is queued: the mutex orders the queue, and push's notify.rmw (release) "
      "orders this store before a later sleeper's visible.load_size"};
  static constexpr site take_load_size{"inject::take.load_size", mo::relaxed, site_kind::load,
                                       "a hint: the mutex below orders the queue and the task"};
  static constexpr site take_store_size{"inject::take.store_size", mo::relaxed, site_kind::store,
                                        "as push.store_size: only a hint"};
  static constexpr site visible_load_size{
      "inject::visible.load_size", mo::relaxed, site_kind::load,
      "read after prepare_wait.rmw, which orders it after the store of any push whose "
      "notify.rmw came first (event_count.hpp)"};
  static constexpr site external_load{
      "external::block_until.load", mo::acquire, site_kind::load,
      "pairs with external::notify.rmw: a waiter that reads the bump sees the completion made "
      "before it; relaxed lets it read the bump, miss done() and wait forever (killed in "
      "run_from_outside.chase_lev: deadlock)"};
  static constexpr site external_wait{
      "external::block_until.wait", mo::relaxed, site_kind::load,
      "only decides when to look again: the acquire load at the top of the loop re-reads"};
  static constexpr site external_rmw{
      "external::notify.rmw", mo::release, site_kind::rmw,
      "pairs with block_until.load: publishes the completion (made before) to a waiter that "
      "reads the bump; relaxed lets the waiter miss it and wait forever (killed in "
      "run_from_outside.chase_lev: deadlock)"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_store_size,   &S::take_load_size, &S::take_store_size,
                      &S::visible_load_size, &S::external_load,  &S::external_wait,
                      &S::external_rmw};
  }
};

/// The correct policy: injected work is announced with the strict notify_one(), whether or not
/// some worker searches (scheduler/search.hpp). A policy is a type with a static
/// announce(sleep, searchers) called after the queue write; the KNOWN-BAD ones are in
/// scheduler/known_bad.hpp.
struct inject_wake_strict {
  template <class Sleep, class Search>
  static void announce(Sleep& sleep, const Search& /*searchers*/) {
    sleep.notify_one();  // strict: the queue write precedes its release RMW
  }
};

/// The injection queue of the file comment. Sleep is the pool's event count type.
template <class Mem = native_memory, class Sites = inject_sites, class Wake = inject_wake_strict>
class basic_inject_queue {
 public:
  /// Thread role: any. Queues t and wakes a worker parked in `sleep` (see the file comment);
  /// `searchers` are the pool's searching workers (scheduler/search.hpp), which only a KNOWN-BAD
  /// wake-up policy reads. Requires: t stays valid until it ran. Complexity: one lock, one RMW,
  /// at most one wake.
  template <class Sleep, class Search>
  void push(task* t, Sleep& sleep, const Search& searchers) {
    {
      std::scoped_lock lock(mutex_);
      queue_.push_back(t);
      // relaxed (push.store_size): a hint; see the site.
      size_.store(queue_.size(), Mem::order(Sites::push_store_size));
    }
    Wake::announce(sleep, searchers);
  }

  /// Thread role: a worker. The oldest queued task, or null when the queue is empty.
  task* take() {
    // relaxed (take.load_size): a hint; the lock orders the queue and the task.
    if (size_.load(Mem::order(Sites::take_load_size)) == 0) return nullptr;
    std::scoped_lock lock(mutex_);
    if (queue_.empty()) return nullptr;
    task* t = queue_.front();
    queue_.pop_front();
    size_.store(queue_.size(), Mem::order(Sites::take_store_size));  // relaxed: a hint
    return t;
  }

  /// Thread role: a worker, after prepare_wait(): whether a task is queued (sound after the
  /// event count's RMW; see the file comment).
  bool visible() const {
    return size_.load(Mem::order(Sites::visible_load_size)) != 0;  // relaxed: see the site
  }

 private:
  typename Mem::template atomic<std::size_t> size_{0, "inject_size"};
  typename Mem::mutex mutex_{"inject_mutex"};
  std::deque<task*> queue_;  // guarded by mutex_
};

/// The outside wait of the file comment.
template <class Mem = native_memory, class Sites = inject_sites>
class basic_external_wait {
 public:
  /// Thread role: a thread that is not a worker of the pool. Blocks (no spinning) until done()
  /// holds; done() is re-evaluated after every notify().
  /// Requires: whatever makes done() true calls notify() afterwards.
  template <class Done>
  void block_until(Done&& done) {
    for (;;) {
      // acquire (block_until.load): pairs with notify()'s release RMW; see the site.
      const std::uint32_t e = epoch_.load(Mem::order(Sites::external_load));
      if (done()) return;
      epoch_.wait(e, Mem::order(Sites::external_wait));  // relaxed: the load above re-reads
    }
  }

  /// Thread role: any, after making a waiter's done() true. Touches only this word, so the
  /// object done() looks at may already be gone.
  void notify() {
    // release (notify.rmw): publishes the completion made before it; see the site.
    epoch_.fetch_add(1, Mem::order(Sites::external_rmw));
    epoch_.notify_all();
  }

 private:
  typename Mem::template atomic<std::uint32_t> epoch_{0, "external_done"};
};

namespace detail {

// The task run_outside() injects: lives in the outside caller's frame.
template <class Mem, class JoinSites, class P, class F, class R>
struct outside_task final : task {
  outside_task(P& p, F& fn) : task{&run_it}, pool(p), f(fn) {}
  P& pool;  // outlives the frame
  F& f;
  std::optional<std::conditional_t<std::is_void_v<R>, char, R>> result;
  join_flag<Mem, JoinSites> join;

  static void run_it(task* t) {
    auto* self = static_cast<outside_task*>(t);
    P& p = self->pool;
    std::exception_ptr error;
    try {
      if constexpr (std::is_void_v<R>) {
        self->f();
      } else {
        self->result.emplace(self->f());
      }
    } catch (...) {
      error = Mem::caught_exception();
    }
    // release (join::flag.store_done): pairs with the caller's acquire load in done();
    // publishes result and error.
    self->join.finish(std::move(error));
    p.notify_external();  // the frame may be gone from here on: only the pool is touched
  }
};

}  // namespace detail

/// Runs f() on a worker of p from a thread that is not one of them: injects it (p.inject, the
/// strict wake), blocks in p.block_until until it ran, returns its result or rethrows its
/// exception. pool::run from a thread outside the pool is this function.
/// Thread role: any thread that is not a worker of p.
/// Requires: f returns void or an object type; p's workers take injected tasks.
/// Ensures: f ran exactly once; its effects happen-before the return (join::flag).
template <class Mem, class JoinSites, class P, class F>
std::invoke_result_t<F&> run_outside(P& p, F& f) {
  using R = std::invoke_result_t<F&>;
  detail::outside_task<Mem, JoinSites, P, F, R> root(p, f);
  p.inject(&root);
  // acquire (join::flag.load_done): pairs with finish(); result and error are then visible.
  p.block_until([&] { return root.join.done(); });
  root.join.rethrow_if_failed();
  if constexpr (!std::is_void_v<R>) return std::move(*root.result);
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
