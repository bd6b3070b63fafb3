// scheduler/mini_pool.hpp: a two-worker pool built from the scheduler's own synchronization
// components, on any memory backend: the event count (scheduler/event_count.hpp), the join
// protocol (scheduler/join.hpp, detail::fork_join_on of scheduler/fork_join.hpp) and a deque
// variant D<task*, Mem>. With Mem = model::memory it is what the model checker runs
// (scheduler/model_clients.hpp, `stealcheck model sched`); with native_memory the same source
// runs on real threads (scheduler/tests).
//
// What it keeps of pool<D> (scheduler/pool.hpp): a worker pops its own deque, then takes an
// injected task (worker_loop only, never inside a join), then steals from the other one (steal
// half for a batch-stealing deque), the injected task and the steal only when the search limit
// lets it search (pool_options::search, scheduler/search.hpp: with half, one of the two workers;
// a worker that saw work when it went to park searches whatever the limit, and the last
// searcher to leave with a task wakes a sleeper), and then parks in the event count,
// looking for work and for shutdown after registering (event_count::sleep_unless); a push
// wakes a sleeper with hint_one(), a steal cascades with hint_one(), shutdown is a release
// store of `stopping` and a strict notify_all(); a join pops, then helps, exactly as fork_join;
// run() from a thread that is not a worker is pool::run's own code (run_outside: the injection
// queue and the outside wait of scheduler/inject.hpp).
// What it leaves out: threads (the caller runs worker_loop on its own threads, or the model
// checker's), statistics, random victims (there is one other worker), and the idle spin before
// parking (one round stands for it). On a deque whose owner shares (owner_shares_v: split) a worker
// that found nothing parks even when the other deque holds private items: it could not take them
// before their owner shares them at its next push or pop, and a thief that retried at once would
// make the exploration unbounded. The owner's next push wakes it (hint_one), as in the pool. A join
// that finds nothing to run waits for its flag or counter to change (join_flag::await: a spin
// natively, a blocking read under the model checker) instead of trying again: that explores every
// execution of clients whose stolen tasks fork nothing more, as the model clients' tasks do; deeper
// helping is not explored.
//
// Thread role: worker_loop(i), push(i, ...), pop(i), wait_for(i, ...), fork_join(i, ...) and
// spawn_and_wait(i, ...) on worker i's thread; run(f) and spawn_and_wait_outside(...) on a
// thread that runs no worker_loop;
// shutdown() on any thread, once.
// Memory ordering: the components' sites (EcSites, JoinSites, InjectSites); stopping: release
// store / acquire load (as pool<D>). Complexity: O(1) deque operations per task; a park is O(1).
// Source: Blumofe, Leiserson, JACM 1999 (work stealing with helping joins); D. Vyukov 2008
// (eventcount).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "scheduler/event_count.hpp"
#include "scheduler/fork_join.hpp"
#include "scheduler/inject.hpp"
#include "scheduler/join.hpp"
#include "scheduler/pool.hpp"
#include "scheduler/search.hpp"
#include "scheduler/task.hpp"
#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::scheduler {

template <template <class, class> class D, class Mem = native_memory,
          class EcSites = event_count_sites, class JoinSites = join_sites,
          class InjectSites = inject_sites, class Wake = inject_wake_strict>
class mini_pool {
 public:
  using deque_type = D<task*, Mem>;
  using join_type = join_flag<Mem, JoinSites>;
  using counter_type = join_counter<Mem, JoinSites>;
  static constexpr unsigned workers = 2;

  /// Ensures: two empty deques of the given initial capacity; nobody parked; not stopping; at
  /// most `search` searchers at once (pool_options::search; with half, one of the two).
  explicit mini_pool(std::int64_t capacity, search_limit search = search_limit::any)
      : deques_{deque_type(capacity), deque_type(capacity)}, search_(search, workers) {}

  /// Thread role: worker i. Runs tasks until shutdown() (see the file comment). pool's
  /// main_loop and spin_then_park with one steal round for the spin: its own deque, then, if
  /// the search limit lets it in (or it saw work when it went to park), the injection queue and
  /// a steal; the last searcher to leave with a task wakes a sleeper (hint_one); then it parks.
  void worker_loop(unsigned i) {
    bool saw_work = false;
    for (;;) {
      if (std::optional<task*> t = deques_[i].pop()) {
        (*t)->execute(*t);
        continue;
      }
      if (saw_work) search_.force_enter();
      if (saw_work || search_.enter()) {
        task* t = search(i, /*take_injected=*/true);
        const bool last = search_.leave();
        if (t != nullptr) {
          if (last) sleep_.hint_one();
          saw_work = false;
          t->execute(t);
          continue;
        }
      }
      if (stopping()) return;
      saw_work = !sleep_.sleep_unless([&] { return work_visible() || stopping(); }, [] {});
    }
  }

  /// Thread role: any, once, after the work it waits for is done. Wakes every parked worker;
  /// worker_loop returns on each.
  void shutdown() {
    // release: pairs with the acquire load in stopping(); publishes nothing else (as ~pool).
    stopping_.store(true, std::memory_order_release);
    sleep_.notify_all();  // strict: the store above precedes it (event_count protocol)
  }

  /// Thread role: a thread that runs no worker_loop. pool::run's outside path: f runs on a
  /// worker; returns its result, rethrows its exception.
  template <class F>
  std::invoke_result_t<F&> run(F&& f) {
    return run_outside<Mem, JoinSites>(*this, f);
  }
  /// The hooks of run_outside (scheduler/inject.hpp), as pool<D> has them.
  void inject(task* t) { injected_.push(t, sleep_, search_); }
  template <class Done>
  void block_until(Done&& done) {
    external_.block_until(done);
  }
  void notify_external() { external_.notify(); }

  /// The searchers' count (scheduler/search.hpp). The model clients take a slot through it to
  /// stand for a searcher that stalls (refused_from_outside).
  basic_search_slots<Mem>& searchers() { return search_; }

  /// The hooks of detail::fork_join_on (scheduler/fork_join.hpp). Thread role: worker i.
  bool push(unsigned i, task* t) {
    const bool pushed = push_task(deques_[i], t);
    if (pushed && push_wakes(deques_[i])) sleep_.hint_one();  // as pool's worker::push
    return pushed;
  }
  std::optional<task*> pop(unsigned i) { return deques_[i].pop(); }
  /// Runs tasks until join.done(); waits for join to change when there is none.
  template <class Join>
  void wait_for(unsigned i, const Join& join) {
    while (!join.done()) {
      if (task* t = find_work(i)) {
        t->execute(t);
        continue;
      }
      join.await();
    }
  }

  /// Thread role: worker i. fork_join(a, b) as scheduler::fork_join runs it on a pool worker.
  template <class A, class B>
  void fork_join(unsigned i, A&& a, B&& b) {
    detail::fork_join_on<Mem, JoinSites>(*this, i, a, b);
  }

  /// Thread role: worker i. Spawns every f as a task counted by one join_counter (task_group's
  /// protocol), waits for all, and rethrows the first exception recorded.
  template <class... F>
  void spawn_and_wait(unsigned i, F&... fs) {
    counter_type join;
    std::array<counted_task, sizeof...(F)> tasks{counted_task(*this, join, fs)...};
    for (counted_task& t : tasks) {
      join.add();  // before the push that makes the task reachable
      if (!push(i, &t)) t.execute(&t);
    }
    wait_for(i, join);
    if (std::exception_ptr e = join.take_error()) std::rethrow_exception(e);
  }

  /// Thread role: a thread that runs no worker_loop. task_group's spawn and wait on a thread
  /// outside the pool: injects every f as a counted task, then blocks until all ran
  /// (join_counter::wait_outside, the same call task_group::wait makes); rethrows the first
  /// exception recorded.
  template <class... F>
  void spawn_and_wait_outside(F&... fs) {
    counter_type join;
    std::array<counted_task, sizeof...(F)> tasks{counted_task(*this, join, fs)...};
    for (counted_task& t : tasks) {
      join.add();  // before the injection that makes the task reachable
      inject(&t);
    }
    join.wait_outside(*this);
    if (std::exception_ptr e = join.take_error()) std::rethrow_exception(e);
  }

 private:
  // A task of spawn_and_wait: type-erased callable plus its counter (task_group's group_task).
  // The spawner's own runs arrive locally (the pool tells them by its worker, this by thread).
  struct counted_task final : task {
    template <class F>
    counted_task(mini_pool& p, counter_type& j, F& fn)
        : task{&run_it},
          pool(&p),
          join(&j),
          f(&fn),
          call(&call_as<F>),
          spawner(Mem::this_thread()) {}
    mini_pool* pool;
    counter_type* join;
    void* f;
    void (*call)(void*);
    typename Mem::thread_id spawner;
    template <class F>
    static void call_as(void* fn) {
      (*static_cast<F*>(fn))();
    }
    static void run_it(task* t) {
      auto* self = static_cast<counted_task*>(t);
      try {
        self->call(self->f);
      } catch (...) {
        self->join->fail(Mem::caught_exception());
      }
      if (Mem::this_thread() == self->spawner) {
        self->join->arrive_local();
        return;
      }
      mini_pool* p = self->pool;  // read before the decrement: the counter may be gone after it
      // release (join::counter.arrive): publishes the task's effects and error.
      if (self->join->arrive()) p->notify_external();  // the last, and a spawner blocks
    }
  };

  // Own deque first, then search (a join's helping: no injected task, no search slot, as
  // pool::help_until).
  task* find_work(unsigned i) {
    if (std::optional<task*> t = deques_[i].pop()) return *t;
    return search(i, /*take_injected=*/false);
  }

  // The injection queue (worker_loop only), then one steal from the other worker (hint_one on
  // success: the cascade).
  task* search(unsigned i, bool take_injected) {
    if (take_injected) {
      if (task* t = injected_.take()) return t;
    }
    steal_result<task*> r = steal_task(deques_[1 - i], deques_[i]);
    if (r.status() != steal_status::item) return nullptr;
    sleep_.hint_one();
    return *r;
  }

  // After prepare_wait(): anything to take? (pool::work_visible). A deque whose owner shares
  // (split) counts private items a thief cannot take until the owner next pushes or pops; a
  // thief that looked again at once would retry without end, so here it parks instead (see the
  // file comment).
  bool work_visible() const {
    if (injected_.visible()) return true;
    if constexpr (owner_shares_v<deque_type>) return false;
    return deques_[0].size_hint() > 0 || deques_[1].size_hint() > 0;
  }

  bool stopping() const {
    return stopping_.load(std::memory_order_acquire);  // acquire: pairs with shutdown()
  }

  deque_type deques_[workers];
  basic_event_count<Mem, EcSites> sleep_;
  basic_inject_queue<Mem, InjectSites, Wake> injected_;
  basic_search_slots<Mem> search_;
  basic_external_wait<Mem, InjectSites> external_;
  typename Mem::template atomic<bool> stopping_{false, "stopping"};
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
