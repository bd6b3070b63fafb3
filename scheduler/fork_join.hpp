// scheduler/fork_join.hpp: the user-facing fork-join API over scheduler/pool.hpp:
//   fork_join(pool, a, b)   runs a and b, possibly in parallel, and returns when both are done;
//   task_group g(pool);     g.spawn(f)...; g.wait();   (oneTBB task_group style).
//
// Fast path (the work-first principle of Cilk-5, Frigo, Leiserson, Randall, PLDI 1998, section
// 3): fork_join builds the task for b in its own stack frame, pushes a pointer to it, runs a
// inline, then pops; if the pop returns b, nobody stole it and b runs inline too (no atomic
// read-modify-write, no allocation). Only a stolen b costs a release store of its `done` flag.
// task_group keeps spawned closures in a bump arena inside the group (an inline block in the
// group object, then 4 KiB heap blocks reused across waits), so spawning allocates at most once
// per ~4 KiB of closures, never per task.
// Joins help: a worker waiting for a stolen b or for a group's tasks pops its own deque, then
// steals (pool::help_until), as in Blumofe-Leiserson's (JACM 1999) work-stealing scheduler.
//
// Exceptions: fork_join always runs both a and b; if either throws it rethrows the exception of
// a, else of b, after both finished. task_group::wait() runs or waits for every spawned task and
// rethrows the first exception recorded (the others are dropped, as in oneTBB).
// Calls from a non-worker thread: fork_join submits itself through pool::run (blocking);
// task_group::spawn injects the task (pool::inject) and wait() blocks (pool::block_until).
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

#include "scheduler/group_arena.hpp"
#include "scheduler/pool.hpp"

namespace stealcheck::scheduler {

namespace detail {

// fork_join's second branch, in the forking frame.
template <class F>
struct fork_task final : task {
  explicit fork_task(F& fn) : task{&run_stolen}, f(fn) {}
  F& f;
  std::exception_ptr error;
  std::atomic<bool> done{false};

  // Runs only when stolen (the fast path calls f directly).
  static void run_stolen(task* t) noexcept {
    auto* self = static_cast<fork_task*>(t);
    try {
      self->f();
    } catch (...) {
      self->error = std::current_exception();
    }
    // release: pairs with the acquire load in fork_join's join; publishes b's effects and
    // error. Relaxed would let the forking frame return before b's writes are visible. The frame
    // may be gone right after this store, so it is the last access to *self.
    self->done.store(true, std::memory_order_release);
  }
};

}  // namespace detail

/// Runs a() and b(), b possibly on another worker; returns when both have finished.
/// Thread role: any (a non-worker thread blocks in pool::run). Requires: a and b callable with
/// no arguments; they outlive the call (they are used by reference).
/// Ensures: a's and b's effects happen-before the return; exceptions as in the file comment.
/// Memory ordering: a stolen b's completion is published by the release store of its done flag,
///   read by the acquire load in the join; an unstolen b runs on the calling thread.
/// Complexity: O(1) deque operations when b is not stolen; a join that finds b stolen helps.
template <class D, class A, class B>
void fork_join(pool<D>& p, A&& a, B&& b) {
  worker<D>* w = current_worker<D>;
  if (w == nullptr || w->owner != &p) {
    p.run([&] { fork_join(p, a, b); });
    return;
  }
  detail::fork_task<std::remove_reference_t<B>> tb(b);
  if (!w->push(&tb)) {  // a bounded deque is full: run both inline
    a();
    b();
    return;
  }
  std::exception_ptr ea;
  try {
    a();
  } catch (...) {
    ea = std::current_exception();
  }
  std::optional<task*> back = w->deque.pop();
  if (back && *back == &tb) {  // not stolen: b runs here
    if (!ea) {
      b();
      return;
    }
    try {
      b();
    } catch (...) {  // a's exception wins (file comment)
    }
    std::rethrow_exception(ea);
  }
  // b was stolen. Every task pushed after tb was consumed before a() returned, so `back`, if
  // any, is older than tb: with single steals there is none (a thief took tb, the oldest task
  // left), but a batch steal (steal_into) may have left a victim's older tasks in this deque.
  // Running it here is helping: it does not depend on b.
  if (back) (*back)->execute(*back);
  // acquire: pairs with the release store in fork_task::run_stolen.
  p.help_until(*w, [&] { return tb.done.load(std::memory_order_acquire); });
  if (ea) std::rethrow_exception(ea);
  if (tb.error) std::rethrow_exception(tb.error);
}

/// A set of tasks spawned by one thread and waited for together.
/// Thread role: spawn() and wait() by the thread that constructed the group (a worker of the
/// pool, or any other thread); the tasks run on workers.
/// Requires: the pool outlives the group; spawned callables are move-constructible.
/// Ensures: after wait() returns, every spawned task has finished and its effects are visible.
/// Memory ordering: each task decrements `pending_` with a release RMW after its effects; wait()
///   returns after an acquire load reads 0, which synchronizes with every decrement (they form
///   one release sequence of RMWs).
/// Complexity: spawn O(1) (amortised arena growth), wait O(tasks) plus helping.
template <class D>
class task_group {
 public:
  explicit task_group(pool<D>& p) : pool_(p) {}
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  /// Waits for unfinished tasks (dropping their exceptions; call wait() to see them).
  ~task_group() {
    if (pending_.load(std::memory_order_acquire) != 0) {  // acquire: as in wait()
      try {
        wait();
      } catch (...) {  // NOLINT(bugprone-empty-catch): documented drop
      }
    }
  }

  template <class F>
  void spawn(F&& f) {
    using T = group_task<std::decay_t<F>>;
    T* t = new (arena_.allocate(sizeof(T), alignof(T))) T(this, std::forward<F>(f));
    // relaxed: the count is read with acquire only after the decrements; the increment happens
    // before the push that makes the task reachable, in this thread.
    pending_.fetch_add(1, std::memory_order_relaxed);
    worker<D>* w = current_worker<D>;
    if (w != nullptr && w->owner == &pool_) {
      if (!w->push(t)) t->execute(t);  // bounded deque full: run inline
    } else {
      pool_.inject(t);
    }
  }

  /// Runs or waits for every task spawned so far; rethrows the first exception recorded.
  void wait() {
    worker<D>* w = current_worker<D>;
    if (w != nullptr && w->owner == &pool_) {
      // acquire: pairs with the release decrement of each task (see the class comment).
      pool_.help_until(*w, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    } else {
      // Blocks here, never on a worker (pool::block_until says why). The mark tells the task
      // that brings the count to 0 to call notify_external(); groups waited for on workers
      // never pay for that. acq_rel: an RMW, so it lies in the decrements' release sequence,
      // and the one decrement it precedes in mo sees the mark (or it reads 0 and never waits).
      if (pending_.fetch_add(external_waiter, std::memory_order_acq_rel) != 0) {
        // acquire: pairs with the release decrement of each task (see the class comment).
        pool_.block_until(
            [&] { return pending_.load(std::memory_order_acquire) == external_waiter; });
      }
      // relaxed: only this thread reads the count again before the next spawn's increment.
      pending_.fetch_sub(external_waiter, std::memory_order_relaxed);
    }
    arena_.reset();
    if (error_) {
      std::exception_ptr e = std::exchange(error_, nullptr);
      // relaxed: only this thread reads the flag again, after the next tasks' decrements.
      failed_.store(false, std::memory_order_relaxed);
      std::rethrow_exception(e);
    }
  }

 private:
  template <class F>
  struct group_task final : task {
    group_task(task_group* g, F&& fn) : task{&run_it}, group(g), f(std::move(fn)) {}
    group_task(task_group* g, const F& fn) : task{&run_it}, group(g), f(fn) {}
    task_group* group;
    F f;
    static void run_it(task* t) noexcept {
      auto* self = static_cast<group_task*>(t);
      task_group* g = self->group;
      try {
        self->f();
      } catch (...) {
        g->record(std::current_exception());
      }
      pool<D>& p = g->pool_;  // read before the decrement: g may be gone after it
      self->~group_task();    // the arena memory is recycled by wait()
      // release: pairs with wait()'s acquire load; publishes the task's effects and error.
      if (g->pending_.fetch_sub(1, std::memory_order_release) == external_waiter + 1)
        p.notify_external();  // the last task, and a thread blocks in wait()
    }
  };

  void record(std::exception_ptr e) noexcept {
    // relaxed: only picks the one writer of error_; error_ is published by that task's release
    // decrement of pending_.
    if (!failed_.exchange(true, std::memory_order_relaxed)) error_ = std::move(e);
  }

  // Added to pending_ while a non-worker thread blocks in wait(); far above any task count.
  static constexpr std::int64_t external_waiter = std::int64_t{1} << 40;

  pool<D>& pool_;
  std::atomic<std::int64_t> pending_{0};  // unfinished tasks (+ external_waiter, see wait())
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
  group_arena arena_;
};

}  // namespace stealcheck::scheduler
