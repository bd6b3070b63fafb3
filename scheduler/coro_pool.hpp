// scheduler/coro_pool.hpp: the continuation-stealing mode of the pool. coro_pool<D> runs
// fork-join coroutines (scheduler/coro_task.hpp) on a pool<D> (scheduler/pool.hpp): the same
// workers, deques (any deque variant D, as pool<D>), victim selection, spinning, parking in the
// event count and statistics; only what the deques carry differs. Child stealing (pool.hpp's
// fork_join, task_group) pushes the spawned child and lets thieves take it; here a fork pushes
// the *parent's continuation* and runs the child at once (work-first), so thieves take
// continuations and a worker never waits inside a task: a join that must wait suspends its
// coroutine and the worker goes back to stealing.
//
// Space (Blumofe, Leiserson, JACM 1999, section 5): a serial execution that needs S1 live frames
// needs at most P*S1 on P workers under work-first continuation stealing, since each worker runs
// one serial-order slice of at most S1 frames; child stealing keeps every spawned but unstarted
// child alive, so a loop of n spawns keeps up to n tasks. peak_frames() measures it
// (scheduler/frame_arena.hpp says what it counts).
//
// Thread role: construct/destroy and run() on a thread that is not a worker of this pool; the
// static context functions (push, pop, unpop, allocate, deallocate, root_done) on workers only, as
// coro_task calls them. Requires (destruction): no run() in progress.
// Memory ordering: run() as pool::run (the injection queue's mutex; the root's join_flag, a
// release store read by an acquire load); inside a job, the deques' own and coro_task.hpp's.
// Complexity: see coro_task.hpp (per fork) and pool.hpp (per steal round).
// Source: Frigo, Leiserson, Randall, PLDI 1998 (work-first); Blumofe, Leiserson, JACM 46(5)
// 1999 (bounds); libfork by C. Williams (continuation stealing with C++20 coroutines).
#pragma once

#include <cassert>
#include <concepts>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "scheduler/coro_task.hpp"
#include "scheduler/frame_arena.hpp"
#include "scheduler/join.hpp"
#include "scheduler/pool.hpp"
#include "stealcheck/detail/deques/deque.hpp"

namespace stealcheck::scheduler {

/// The correct policy: a join waits for stolen children; freed frames are reused.
struct coro_policy {
  static constexpr bool wait_for_stolen = true;
  static constexpr bool reuse_frames = true;
};

template <class D, class Policy = coro_policy>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
class coro_pool {
 public:
  using deque_type = D;
  template <class T>
  using task_type = coro_task<T, coro_pool>;

  /// As pool<D>'s constructor: `threads` workers, 1..255.
  explicit coro_pool(unsigned threads, pool_options opts = {}) : pool_(threads, opts) {}

  unsigned size() const noexcept { return pool_.size(); }
  /// Counters summed over workers, as pool::stats(): `tasks` counts pushed continuations.
  scheduler_stats stats() const noexcept { return pool_.stats(); }
  /// Sum of the workers' peaks of live frames since reset_stats() (frame_arena.hpp).
  std::int64_t peak_frames() const noexcept { return pool_.peak_frames(); }
  /// Requires: no job runs.
  void reset_stats() noexcept { pool_.reset_stats(); }
  std::uint32_t sleeping() const noexcept { return pool_.sleeping(); }
  /// The workers' CPU time in seconds (pool::workers_cpu_seconds).
  double workers_cpu_seconds() const noexcept { return pool_.workers_cpu_seconds(); }

  /// Runs the coroutine f() returns on a worker until it finished; returns its result and
  /// rethrows its exception.
  /// Thread role: any thread that is not a worker of this pool (it blocks, without spinning).
  /// Requires: f() returns coro_task<T, coro_pool> with T void or default-constructible.
  /// Ensures: every frame of the job was freed; its effects happen-before the return.
  template <class F>
  auto run(F&& f);

  // ---- the context of coro_task<T, coro_pool> (called on workers) ----
  static constexpr bool wait_for_stolen = Policy::wait_for_stolen;
  /// Pushes a continuation on the calling worker's deque; false if a bounded deque is full.
  static bool push(task* t) { return current_worker<D>->push(t); }
  /// Pops the calling worker's newest continuation; null if a thief emptied the deque.
  static task* pop() {
    std::optional<task*> t = current_worker<D>->deque.pop();
    return t ? *t : nullptr;
  }
  /// Pushes back a task pop() returned (not counted as a fork; the deque has room for it).
  static void unpop(task* t) {
    [[maybe_unused]] const bool pushed = push_task(current_worker<D>->deque, t);
    assert(pushed && "coro_pool: a deque refused a task it just gave back");
  }
  static void* allocate(std::size_t n) { return frame_arena::allocate(arena(), n); }
  static void deallocate(void* p, std::size_t /*n*/) noexcept {
    frame_arena::deallocate(arena(), p, Policy::reuse_frames);
  }
  /// The outermost coroutine of a run() finished: publish and wake the caller.
  static void root_done(frame_base* record) noexcept;

 private:
  static frame_arena* arena() noexcept {
    worker<D>* w = current_worker<D>;
    return w != nullptr ? &w->frames : nullptr;
  }

  // What the outermost coroutine reports to (its parent link), in run()'s frame.
  struct root_record : frame_base {
    join_flag<> done;
    pool<D>* owner = nullptr;
  };

  template <class T, class F>
  struct root final : task {
    root(pool<D>& p, F& fn) : task{&start}, owner(p), f(fn) {}
    root_record record;
    pool<D>& owner;
    F& f;
    std::conditional_t<std::is_void_v<T>, char, T> value{};

    static void start(task* t) {
      auto* self = static_cast<root*>(t);
      self->record.owner = &self->owner;
      std::coroutine_handle<> h;
      try {
        h = start_root<T, coro_pool>(self->f(), self->record, &self->value);
      } catch (...) {  // f() itself threw (before any coroutine started)
        self->record.record(std::current_exception());
        root_done(&self->record);
        return;
      }
      resume_chain(h);
    }
  };

  pool<D> pool_;
};

template <class D, class Policy>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
void coro_pool<D, Policy>::root_done(frame_base* record) noexcept {
  auto* r = static_cast<root_record*>(record);
  pool<D>* p = r->owner;  // read first: the record lives in run()'s frame
  // release (join::flag.store_done): pairs with run()'s acquire load; publishes the result
  // (written by the root's return_value before) and the exception.
  r->done.finish(std::exchange(r->error, nullptr));
  p->notify_external();
}

template <class D, class Policy>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
template <class F>
auto coro_pool<D, Policy>::run(F&& f) {
  using T = typename std::invoke_result_t<F&>::value_type;
  assert(pool_.own_worker() == nullptr && "coro_pool::run on its own worker");
  root<T, std::remove_reference_t<F>> r(pool_, f);
  pool_.inject(&r);
  // acquire (join::flag.load_done): pairs with root_done()'s finish().
  pool_.block_until([&] { return r.record.done.done(); });
  r.record.done.rethrow_if_failed();
  if constexpr (!std::is_void_v<T>) return std::move(r.value);
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
