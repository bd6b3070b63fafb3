// scheduler/fork_join.hpp: the user-facing fork-join API over scheduler/pool.hpp:
//   fork_join(pool, a, b)   runs a and b, possibly in parallel, and returns when both are done;
//   task_group g(pool);     g.spawn(f)...; g.wait();   (oneTBB task_group style).
//
// Fast path (the work-first principle of Cilk-5, Frigo, Leiserson, Randall, PLDI 1998, section
// 3): fork_join builds the task for b in its own stack frame, pushes a pointer to it, runs a
// inline, then pops; if the pop returns b, nobody stole it and b runs inline too (the join
// protocol adds no atomic read-modify-write and no allocation; the deque's pop may). Only a
// stolen b costs a release store of its `done` flag. That fast path is inlined into the caller;
// the stolen, throwing and non-worker paths are out of line, so the caller's frame stays small.
// With pool_options::throttle = K, a fork on a worker whose deque already holds K tasks pushes
// nothing and runs a then b as two calls (scheduler/pool.hpp says why no parallelism is lost).
// task_group keeps spawned closures in a bump arena inside the group (an inline block in the
// group object, then 4 KiB heap blocks reused across waits), so spawning allocates at most once
// per ~4 KiB of closures, never per task. Its join counter (join_counter, scheduler/join.hpp)
// counts the tasks the spawning worker runs itself in plain data, so a spawned task that is not
// stolen costs no atomic read-modify-write either; only stolen tasks decrement an atomic.
// Joins help: a worker waiting for a stolen b or for a group's tasks pops its own deque, then
// steals (pool::help_until), as in Blumofe-Leiserson's (JACM 1999) work-stealing scheduler.
//
// The join protocol itself (done flag, pending counter, exception propagation) is
// scheduler/join.hpp, written against a memory backend, and fork_join and task_group are written
// against the pool's backend (scheduler/pool.hpp, pool_backend): the model checker runs this same
// code on a pool on model::memory (scheduler/model_clients.hpp, `stealcheck model sched`).
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
#include "scheduler/join.hpp"
#include "scheduler/pool.hpp"

namespace stealcheck::scheduler {

namespace detail {

// fork_join's second branch, in the forking frame. Mem/Sites: the join protocol's backend and
// orders (scheduler/join.hpp); the pool uses the defaults, the model clients model::memory.
template <class F, class Mem = native_memory, class Sites = join_sites>
struct fork_task final : task {
  explicit fork_task(F& fn) : task{&run_stolen}, f(fn) {}
  F& f;
  join_flag<Mem, Sites> join;

  // Runs only when stolen (the fast path calls f directly).
  static void run_stolen(task* t) {
    auto* self = static_cast<fork_task*>(t);
    std::exception_ptr error;
    try {
      self->f();
    } catch (...) {
      error = Mem::caught_exception();
    }
    // The frame may be gone right after finish() (its release store publishes b's effects and
    // error), so it is the last access to *self.
    self->join.finish(std::move(error));
  }
};

// b was stolen: helps until the thief finished b. Every task pushed after tb was consumed
// before a() returned, so `back`, if any, is older than tb: with single steals there is none (a
// thief took tb, the oldest task left), but a batch steal (steal_into) may have left a victim's
// older tasks in this deque. Running it here is helping: it does not depend on b.
// Out of line: the fast path of fork_join_on stays small enough to inline into the caller.
template <class P, class W, class T>
[[gnu::noinline]] void join_stolen(P& p, W& w, T& tb, std::optional<task*> back) {
  if (back) (*back)->execute(*back);
  p.wait_for(w, tb.join);  // acquire (join::flag.load_done): pairs with run_stolen's finish()
}

// Runs b after a threw: b's own exception, if any, is dropped (a's wins, file comment).
template <class Mem, class B>
void run_after_throw(B& b) {
  try {
    b();
  } catch (...) {
    static_cast<void>(Mem::caught_exception());
  }
}

// a() threw (its exception is the one in flight): finishes b as fork_join_on would, then
// rethrows a's exception.
template <class Mem, class P, class W, class T, class B>
[[gnu::noinline, gnu::cold, noreturn]] void join_after_throw(P& p, W& w, T& tb, B& b) {
  std::exception_ptr ea = Mem::caught_exception();
  std::optional<task*> back = p.pop(w);
  if (back && *back == &tb) {
    run_after_throw<Mem>(b);
  } else {
    join_stolen(p, w, tb, back);
  }
  std::rethrow_exception(ea);
}

// Runs a() then b() on the calling thread, with fork_join's exception rule: b runs even when a
// throws, and a's exception wins over b's. Costs nothing over the two calls unless a throws.
template <class Mem, class A, class B>
STEALCHECK_OWNER_INLINE inline void run_both_inline(A& a, B& b) {
  try {
    a();
  } catch (...) {
    std::exception_ptr ea = Mem::caught_exception();
    run_after_throw<Mem>(b);
    std::rethrow_exception(ea);
  }
  b();
}
// The same, out of line: for the rare full bounded deque, so the fork's fast path stays small.
template <class Mem, class A, class B>
[[gnu::noinline]] void run_both_out_of_line(A& a, B& b) {
  run_both_inline<Mem>(a, b);
}

/// The fork-join protocol on worker `w` of a pool `p` (a basic_pool, on either backend). P
/// offers push(w, task*) -> bool
/// (false: a bounded deque is full), pop(w) -> std::optional<task*>, and wait_for(w, join),
/// which runs other tasks until join.done().
/// The fast path (b not stolen, nothing thrown) is inline in the caller: a push, a(), a pop
/// and b(); the stolen and the throwing paths are out of line.
template <class Mem, class Sites, class P, class W, class A, class B>
STEALCHECK_OWNER_INLINE inline void fork_join_on(P& p, W& w, A& a, B& b) {
  fork_task<std::remove_reference_t<B>, Mem, Sites> tb(b);
  if (!p.push(w, &tb)) [[unlikely]] {  // a bounded deque is full: run both inline
    run_both_out_of_line<Mem>(a, b);
    return;
  }
  try {
    a();
  } catch (...) {
    join_after_throw<Mem>(p, w, tb, b);  // rethrows a's exception
  }
  std::optional<task*> back = p.pop(w);
  if (back && *back == &tb) [[likely]] {  // not stolen: b runs here
    b();
    return;
  }
  join_stolen(p, w, tb, back);
  tb.join.rethrow_if_failed();
}

// fork_join called on a thread that is not a worker of p: submits itself (pool::run blocks).
template <class D, class Be, class A, class B>
[[gnu::noinline]] void fork_join_outside(basic_pool<D, Be>& p, A& a, B& b) {
  p.run([&] {
    fork_join_on<typename Be::memory, typename Be::join_sites>(p, p.calling_worker(), a, b);
  });
}

}  // namespace detail

/// Runs a() and b(), b possibly on another worker; returns when both have finished.
/// Thread role: any (a non-worker thread blocks in pool::run). Requires: a and b callable with
/// no arguments; they outlive the call (they are used by reference).
/// Ensures: a's and b's effects happen-before the return; exceptions as in the file comment.
/// Memory ordering: a stolen b's completion is published by the release store of its done flag,
///   read by the acquire load in the join (join_flag, scheduler/join.hpp); an unstolen b runs
///   on the calling thread.
/// Complexity: O(1) deque operations when b is not stolen; a join that finds b stolen helps;
///   a throttled fork (pool_options::throttle) reads the deque's size and makes two calls.
template <class D, class Be, class A, class B>
STEALCHECK_OWNER_INLINE inline void fork_join(basic_pool<D, Be>& p, A&& a, B&& b) {
  using Mem = typename Be::memory;
  worker<D, Be>* w = p.own_worker();
  if (w == nullptr) [[unlikely]] {
    detail::fork_join_outside(p, a, b);
    return;
  }
  if (w->throttled()) {  // pool_options::throttle: enough tasks wait already, push nothing
    detail::run_both_inline<Mem>(a, b);
    return;
  }
  detail::fork_join_on<Mem, typename Be::join_sites>(p, *w, a, b);
}

/// A set of tasks spawned by one thread and waited for together.
/// Thread role: spawn() and wait() by the thread that constructed the group (a worker of the
/// pool, or any other thread); the tasks run on workers.
/// Requires: the pool outlives the group; spawned callables are move-constructible.
/// Ensures: after wait() returns, every spawned task has finished and its effects are visible.
/// Memory ordering: join_counter (scheduler/join.hpp): a task run by the spawning thread itself
///   counts down in plain data; a task run by another worker decrements an atomic count with
///   a release RMW after its effects, and wait() returns after an acquire load of that count,
///   which synchronizes with every such decrement (they form one release sequence of RMWs).
/// Complexity: spawn O(1) (amortised arena growth) and no atomic RMW unless the task is
///   stolen; wait O(tasks) plus helping.
template <class D, class Be = native_pool>
class task_group {
  using Mem = typename Be::memory;

 public:
  explicit task_group(basic_pool<D, Be>& p) : pool_(p), worker_(p.own_worker()) {}
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  /// Waits for unfinished tasks (dropping their exceptions; call wait() to see them). Under the
  /// model checker an abandoned execution's unwinding waits for nothing (Mem::unwinding).
  ~task_group() {
    if (Mem::unwinding()) return;
    if (!join_.done()) {
      try {
        wait();
      } catch (...) {  // NOLINT(bugprone-empty-catch): documented drop
      }
    }
  }

  template <class F>
  void spawn(F&& f) {
    using T = group_task<std::decay_t<F>>;
    T* t = new (arena_.allocate<T>()) T(this, std::forward<F>(f));
    join_.add();  // before the push that makes the task reachable
    if (worker_ != nullptr) [[likely]] {
      if (!worker_->push(t)) t->execute(t);  // bounded deque full: run inline
    } else {
      pool_.inject(t);
    }
  }

  /// Runs or waits for every task spawned so far; rethrows the first exception recorded.
  void wait() {
    if (worker_ != nullptr) {
      pool_.wait_for(*worker_, join_);  // acquire (join::counter.load): pairs with each arrive()
    } else {
      // Blocks here, never on a worker (pool::block_until says why). The mark tells the task
      // that brings the count to 0 to call notify_external(); groups waited for on workers
      // never pay for that (join_counter::wait_outside; model-checked in sched
      // group_from_outside).
      join_.wait_outside(pool_);
    }
    arena_.reset();
    if (std::exception_ptr e = join_.take_error()) std::rethrow_exception(e);
  }

 private:
  template <class F>
  struct group_task final : task {
    group_task(task_group* g, F&& fn) : task{&run_it}, group(g), f(std::move(fn)) {}
    group_task(task_group* g, const F& fn) : task{&run_it}, group(g), f(fn) {}
    task_group* group;
    F f;
    static void run_it(task* t) {
      auto* self = static_cast<group_task*>(t);
      task_group* g = self->group;
      try {
        self->f();
      } catch (...) {
        g->join_.fail(Mem::caught_exception());
      }
      self->~group_task();        // the arena memory is recycled by wait()
      if (g->ran_by_spawner()) {  // the spawner ran it: no atomic access
        g->join_.arrive_local();
        return;
      }
      basic_pool<D, Be>& p = g->pool_;  // read before the decrement: g may be gone after it
      // release (join::counter.arrive): pairs with wait()'s acquire load; publishes the task's
      // effects and error.
      if (g->join_.arrive()) p.notify_external();  // the last, and one blocks
    }
  };

  // Whether the calling thread is the spawner (the thread-local natively; on another backend
  // the pool's look-up, which the constructor did for the spawner).
  bool ran_by_spawner() const noexcept {
    if constexpr (Be::native) {
      return current_worker<D> == worker_;
    } else {
      return pool_.own_worker() == worker_;
    }
  }

  basic_pool<D, Be>& pool_;
  // The constructing thread's worker in pool_, or nullptr if it is not one (spawn() and wait()
  // run on that thread, so it is looked up once).
  worker<D, Be>* worker_;
  // unfinished tasks (+ external_waiter, see wait()), first exception
  join_counter<Mem, typename Be::join_sites> join_;
  group_arena arena_;
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
