// scheduler/pool.hpp: a fork-join work-stealing pool of P workers, one deque each; the deque
// variant is a template parameter ("bring your own deque": any D that models
// work_stealing_deque with value_type scheduler::task*; batch_stealing_deque variants steal half).
//
// Scheduling (Blumofe, Leiserson, "Scheduling Multithreaded Computations by Work Stealing",
// JACM 46(5) 1999; Arora, Blumofe, Plaxton, "Thread Scheduling for Multiprogrammed
// Multiprocessors", SPAA 1998):
//   - a worker pushes spawned work on the bottom of its own deque and pops from the bottom;
//   - a worker without work steals from the top of a victim chosen uniformly at random by its
//     own seeded generator (victim_rng), so the expected number of steal attempts is O(P*T_inf)
//     as those papers bound it (pool_options::victims selects the runtimes' other orders,
//     scheduler/victims.hpp); when P exceeds the cores, failed attempts yield the processor
//     (ABP's yield, which their multiprogrammed bound needs);
//   - a worker waiting for a join helps: it pops its own deque, then steals from the other
//     deques (the join itself lives in scheduler/fork_join.hpp). It never takes injected work,
//     which could wait for the very frame it would sit on (pool::help_until);
//   - an idle worker spins (stealing) for a bounded *time*, pool_options::spin, then parks in an
//     event_count (scheduler/event_count.hpp). An idle pool therefore burns no CPU. With
//     pool_options::search = half, at most half of the workers spin at once and the others
//     park at once (scheduler/search.hpp: Tokio's and Go's limit on searching workers).
// Wake-ups: work submitted from outside (run(), spawn() from a non-worker thread) goes to a
// locked injection queue and is announced with the strict event_count::notify_one(), so it is
// never left with every worker asleep. A push by a worker is announced with hint_one() (one
// relaxed load on the hot path); a miss there costs parallelism, never progress, because the
// pushing worker is awake and will pop the task itself before its own join completes (for
// the same reason a deque with a LIFO slot may skip it: scheduler/lifo_slot.hpp). A thief
// that steals also calls hint_one(), so sleepers wake in a cascade as work spreads.
//
// An idle worker re-checks for work after it registered in the event count and before it sleeps
// (work_visible): the injection queue and what a thief can take from each deque (a deque whose
// owner shares, split, counts only its shared items: its private ones wait for their owner, who
// runs them or shares them at its next push, and that push wakes a sleeper).
//
// One source, two backends (pool_backend): pool<D> runs on native_memory with its own threads;
// the same class on model::memory (with a deque on model::memory) is what the model checker runs
// (scheduler/model_clients.hpp, `stealcheck model sched`): no threads of its own (the client runs
// worker_loop on its threads), one steal round for the spin, a join that finds nothing to run
// waits for its flag or counter to change (a blocking read) instead of backing off, and no
// statistics are read.
//
// Thread role: construct/destroy on any thread not a worker of this pool; run() from any thread.
// Requires (destruction): no run() in progress. Ensures: all workers joined.
// Complexity: spawn/pop O(1) deque operations plus one relaxed load; a steal round O(P).
#pragma once

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "scheduler/event_count.hpp"
#include "scheduler/frame_arena.hpp"
#include "scheduler/inject.hpp"
#include "scheduler/join.hpp"
#include "scheduler/lifo_slot.hpp"
#include "scheduler/pool_options.hpp"
#include "scheduler/search.hpp"
#include "scheduler/task.hpp"
#include "stealcheck/detail/deques/deque.hpp"

namespace stealcheck::scheduler {

/// What a pool runs on: the memory backend of its synchronization (deques/memory.hpp) and the
/// orders of its components (the event count, the join protocol, the injection queue and its
/// wake-up policy; the model checker's known-bad variants change one). With native_memory the
/// pool starts its own threads; on any other backend the caller runs worker_loop on its threads
/// and each deque starts with `Capacity` slots (0: the deque's default).
template <class Mem = native_memory, class EcSites = event_count_sites,
          class JoinSites = join_sites, class InjectSites = inject_sites,
          class Wake = inject_wake_strict, std::int64_t Capacity = 0>
struct pool_backend {
  using memory = Mem;
  using event_count_sites = EcSites;
  using join_sites = JoinSites;
  using inject_sites = InjectSites;
  using wake = Wake;
  static constexpr bool native = std::is_same_v<Mem, native_memory>;
  static constexpr std::int64_t capacity = Capacity;
};

/// The backend of pool<D>: std::atomic, the pool's own threads.
using native_pool = pool_backend<>;

template <class D, class B>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
class basic_pool;

/// The pool the scheduler ships (see the file comment).
template <class D>
using pool = basic_pool<D, native_pool>;

/// Thread role: d's owner. Pushes t; false if a bounded deque is full.
template <class D>
STEALCHECK_OWNER_INLINE inline bool push_task(D& d, task* t) {
  if constexpr (std::is_same_v<decltype(d.push(t)), bool>) {
    return d.push(t);
  } else {
    d.push(t);
    return true;
  }
}

/// Thread role: d's owner. The tasks waiting in d as its owner can count them cheaply: the
/// deque's owner_size_hint() if it has one (split: its private items, without reading the
/// thieves' word), else size_hint(). Used by the fork throttle (pool_options::throttle).
template <class D>
STEALCHECK_OWNER_INLINE inline std::int64_t owner_size(const D& d) {
  if constexpr (requires { d.owner_size_hint(); }) {
    return d.owner_size_hint();
  } else {
    return d.size_hint();
  }
}

/// Thread role: any. The tasks a thief could take from d now: the shared items of a deque whose
/// owner shares (split's shared_size_hint(), its private items wait for their owner), else
/// size_hint(). Used by the re-check before a worker parks (basic_pool::work_visible).
template <class D>
std::int64_t stealable_size(const D& d) {
  if constexpr (requires { d.shared_size_hint(); }) {
    return d.shared_size_hint();
  } else {
    return d.size_hint();
  }
}

/// Thread role: the owner of `mine`. One steal from `victim`: a batch-stealing deque steals
/// half (the rest lands in `mine`) unless `amount` is one, any other deque one item.
template <class D>
steal_result<task*> steal_task(D& victim, D& mine, steal_amount amount = steal_amount::half) {
  if constexpr (batch_stealing_deque<D>) {
    if (amount == steal_amount::half) return victim.steal_into(mine);
  }
  static_cast<void>(mine);
  static_cast<void>(amount);
  return victim.steal();
}

/// One worker: its deque, generator and counters. Thread role: everything here is used by the
/// worker's own thread, except `deque.steal*` (thieves) and the counters' reads (stats()).
template <class D, class B = native_pool>
struct alignas(64) worker {
  worker(basic_pool<D, B>& p, unsigned i, const pool_options& opts)
      : owner(&p), throttle(opts.throttle), index(i), rng(opts.seed + i) {}

  D deque = new_deque();
  basic_pool<D, B>* owner;
  std::uint32_t throttle;  // pool_options::throttle, beside `owner`: both read on every fork
  unsigned index;
  victim_rng rng;
  unsigned last_victim = no_victim;  // victim_policy::last_victim's slot
  worker_counters counters;
  /// Coroutine frames of the continuation-stealing mode (scheduler/coro_pool.hpp); child
  /// stealing never allocates from it.
  frame_arena frames;
  std::thread thread;

  /// Thread role: owner. Whether fork_join runs both branches inline (pool_options::throttle).
  STEALCHECK_OWNER_INLINE bool throttled() const {
    return throttle != 0 && owner_size(deque) >= throttle;
  }

  /// Thread role: owner. Pushes t; false if a bounded deque is full (the caller runs t inline).
  STEALCHECK_OWNER_INLINE bool push(task* t) {
    if constexpr (B::native) worker_counters::bump(counters.tasks);
    const bool pushed = push_task(deque, t);
    if (pushed && push_wakes(deque)) owner->wake_hint();  // lifo_slot.hpp: a quiet push
    return pushed;
  }

 private:
  static D new_deque() {
    if constexpr (B::capacity > 0) {
      return D(B::capacity);
    } else {
      return D();
    }
  }
};

/// The worker the calling thread is, for deque type D (nullptr on any other thread).
template <class D>
inline thread_local worker<D>* current_worker = nullptr;

template <class D, class B>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
class basic_pool {
  using Mem = typename B::memory;

 public:
  using deque_type = D;
  using backend = B;
  using worker_type = worker<D, B>;

  /// Thread role: any thread that is not a worker of this pool.
  /// Requires: 1 <= threads <= 255 (the event count's limit). Ensures: `threads` workers, each
  /// with an empty deque and a generator seeded with opts.seed + index; natively each runs on a
  /// thread of its own (on another backend the caller runs worker_loop(i)).
  /// Complexity: O(threads) thread creations.
  explicit basic_pool(unsigned threads, pool_options opts = {})
      : opts_(opts), search_(opts.search, std::clamp(threads, 1u, 255u)) {
    assert(threads >= 1 && threads <= 255 && "pool: 1..255 workers");
    threads = std::clamp(threads, 1u, 255u);
    for (unsigned i = 0; i < threads; ++i)
      workers_.push_back(std::make_unique<worker_type>(*this, i, opts_));
    if constexpr (B::native) {
      for (auto& w : workers_)
        w->thread = std::thread([this, wp = w.get()] { main_loop(*wp); });
    }
  }

  basic_pool(const basic_pool&) = delete;
  basic_pool& operator=(const basic_pool&) = delete;

  ~basic_pool() {
    if constexpr (B::native) {
      stop();
      for (auto& w : workers_)
        w->thread.join();
    }
  }

  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()); }

  /// Thread role: any. The calling thread's worker in this pool, or nullptr if the caller is
  /// not one (another thread, or a worker of another pool). Complexity: one thread-local read
  /// (on another backend: a look-up among the threads worker_loop and attach named).
  worker_type* own_worker() const noexcept {
    if constexpr (B::native) {
      worker_type* w = current_worker<D>;
      return w != nullptr && w->owner == this ? w : nullptr;
    } else {
      for (const auto& [thread, w] : attached_)
        if (thread == Mem::this_thread()) return w;
      return nullptr;
    }
  }

  /// Thread role: a worker of this pool (f of run(), which runs f on one). That worker.
  worker_type& calling_worker() const noexcept {
    if constexpr (B::native) {
      return *current_worker<D>;
    } else {
      return *own_worker();
    }
  }

  /// Thread role: the thread that is to be worker i (not native: a model thread).
  /// Runs worker i's loop (what a native pool's thread runs) until the pool stops.
  void worker_loop(unsigned i) requires(!B::native) {
    attach(i);
    main_loop(*workers_[i]);
  }
  /// Thread role: the thread that is to act as worker i without running its loop (not native:
  /// the model client's main thread, which forks and joins as worker 0 would).
  void attach(unsigned i) requires(!B::native) {
    attached_.emplace_back(Mem::this_thread(), workers_[i].get());
  }
  /// Thread role: any, once, after the work it waits for is done (not native: the destructor
  /// of a native pool does this). Every parked worker wakes; worker_loop returns on each.
  void shutdown() requires(!B::native) { stop(); }
  /// The searchers' count (scheduler/search.hpp): a model client takes a slot through it to
  /// stand for a searcher that stalls.
  basic_search_slots<Mem>& searchers() noexcept { return search_; }
  const pool_options& options() const noexcept { return opts_; }

  /// Runs f() on a worker and returns its result; rethrows what f throws.
  /// Thread role: any. On a worker of this pool f runs inline; any other thread (a worker of
  /// another pool included: it blocks instead of helping) submits f to the injection queue and
  /// blocks in an atomic wait (no spinning) until f has run.
  /// Requires: f callable with no arguments, returning void or an object type; the pool is not
  /// being destroyed.
  /// Ensures: f ran exactly once, on a worker of this pool.
  /// Memory ordering: for any threads X (the caller) and Y (the worker running f): X's writes
  ///   before run() happen-before f starts (the injection queue's mutex), and f's effects
  ///   happen-before run() returns (release store of done / acquire load, see root_task).
  /// Complexity: f's cost plus one lock, one futex wake and one futex wait.
  template <class F>
  std::invoke_result_t<F&> run(F&& f);

  /// Sum of the workers' counters. `tasks` is exact after run() returned; the steal counters
  /// include the idle spinning after a job and are mutually consistent (attempts = steals +
  /// empty + abort) once every worker is parked (sleeping() == size()).
  scheduler_stats stats() const noexcept {
    scheduler_stats s;
    for (auto& w : workers_)
      w->counters.add_to(s);
    return s;
  }
  /// Requires: no job runs.
  void reset_stats() noexcept {
    for (auto& w : workers_) {
      w->counters.reset();
      w->frames.reset();
    }
  }
  /// Sum over workers of the peak of live coroutine frames since reset_stats() (an upper bound
  /// of the pool's peak: frame_arena.hpp). 0 when only child stealing ran.
  std::int64_t peak_frames() const noexcept {
    std::int64_t s = 0;
    for (auto& w : workers_)
      s += w->frames.peak();
    return s;
  }
  /// Sleepers registered right now (a snapshot; tests use it to see that an idle pool parks).
  std::uint32_t sleeping() const noexcept { return sleep_.sleepers(); }
  /// Workers searching for work right now under pool_options::search (a snapshot; always 0
  /// with search_limit::any, which counts nothing).
  unsigned searching() const noexcept { return search_.searching(); }
  /// CPU time (user + system, seconds) the workers' threads used since they started: the sum of
  /// their per-thread CPU clocks (pthread_getcpuclockid). A pool at rest adds nothing to it, so
  /// the difference over an idle window is what the pool itself spent there, whatever other
  /// threads the process runs. Thread role: any. Complexity: O(P) clock reads.
  double workers_cpu_seconds() const noexcept {
    double s = 0;
    for (const auto& w : workers_) {
      clockid_t c{};
      timespec t{};
      if (pthread_getcpuclockid(w->thread.native_handle(), &c) == 0 && clock_gettime(c, &t) == 0)
        s += static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    }
    return s;
  }

  /// Thread role: any. Queues t for the workers and wakes one (strict: event_count::notify_one).
  /// Used by run() and by task_group::spawn() on a non-worker thread.
  /// Requires: t stays valid until it ran. Ensures: some worker runs t, even if all were parked.
  /// Memory ordering: writes before inject() happen-before t runs (the queue's mutex).
  /// Complexity: one lock and at most one futex wake.
  void inject(task* t) { injected_.push(t, sleep_, search_); }  // strict (scheduler/inject.hpp)

  /// Thread role: a worker of this pool (w is the caller's own worker). Runs tasks until
  /// done() holds: pops its own deque first, then steals from other workers' deques; never
  /// blocks (ABP's yield when nothing can be stolen). It does not take injected tasks: a task
  /// submitted from outside starts only at the bottom of a worker's stack (main_loop), never
  /// above a frame whose completion it might wait for (run(f) may wait for anything).
  /// Requires: done() becomes true once the tasks it waits for ran.
  /// Memory ordering: as done() provides (callers use an acquire load of a flag or counter).
  /// Complexity: O(1) per task run; O(P) per failed steal round.
  /// Source: Blumofe-Leiserson 1999, section 3: a worker whose join stalls steals work.
  template <class Done>
  void help_until(worker_type& w, Done&& done) {
    help(w, done, [this](unsigned fails) { backoff(fails); });
  }

  STEALCHECK_OWNER_INLINE void wake_hint() noexcept { sleep_.hint_one(); }

  /// The hooks of the fork-join protocol (detail::fork_join_on, scheduler/fork_join.hpp).
  /// Thread role: w's own thread. push: false if a bounded deque is full; pop: w's newest task;
  /// wait_for: helps (help_until) until join.done() (an acquire load: join.done() publishes
  /// the joined tasks' effects); on a backend that is not native, a join that finds nothing to
  /// run waits for join to change (join.await(): a blocking read under the model checker)
  /// instead of backing off, which explores every execution of joins whose stolen tasks fork
  /// nothing more.
  STEALCHECK_OWNER_INLINE bool push(worker_type& w, task* t) { return w.push(t); }
  STEALCHECK_OWNER_INLINE std::optional<task*> pop(worker_type& w) { return w.deque.pop(); }
  template <class Join>
  void wait_for(worker_type& w, const Join& join) {
    if constexpr (B::native) {
      help_until(w, [&] { return join.done(); });
    } else {
      help(
          w, [&] { return join.done(); }, [&](unsigned) { join.await(); });
    }
  }

  /// Thread role: any thread that is not a worker of this pool (a worker must help instead:
  /// help_until). Blocks in an atomic wait, without spinning, until done() holds; done() is
  /// re-evaluated after every notify_external(). Never hands a blocking task to a worker: a
  /// worker could take such a task inside a join while the awaited work sits lower on its own
  /// stack, and wait for itself forever.
  /// Requires: whatever makes done() true calls notify_external() afterwards.
  /// Memory ordering: as done() provides (callers use an acquire load).
  template <class Done>
  void block_until(Done&& done) {
    external_.block_until(done);  // scheduler/inject.hpp, model-checked in sched run_from_outside
  }

  /// Thread role: any (a worker, after making a blocked thread's done() true). Wakes every
  /// thread in block_until(). Touches only the pool, so the caller may already have released
  /// the object done() looks at (a finished task's frame, a waited-for group).
  /// Complexity: one RMW; a futex wake only if some thread waits.
  void notify_external() noexcept { external_.notify(); }

 private:
  void main_loop(worker_type& w) {
    if constexpr (B::native) current_worker<D> = &w;
    for (;;) {
      if (std::optional<task*> t = w.deque.pop()) {
        (*t)->execute(*t);
        continue;
      }
      task* t = spin_then_park(w);
      if (t == nullptr) break;  // stopping
      t->execute(t);
    }
    if constexpr (B::native) current_worker<D> = nullptr;
  }

  // help_until's loop: own deque, then a steal round (no injected task), then idle(fails).
  template <class Done, class Idle>
  void help(worker_type& w, Done&& done, Idle&& idle) {
    unsigned fails = 0;
    while (!done()) {
      if (std::optional<task*> t = w.deque.pop()) {
        (*t)->execute(*t);
        continue;
      }
      if (task* t = steal_round(w, /*take_injected_first=*/false)) {
        fails = 0;
        t->execute(t);
        continue;
      }
      idle(++fails);
    }
  }

  // Every parked worker wakes and sees stopping_.
  void stop() {
    // release: pairs with the acquire loads of stopping_ in the workers' loops; nothing else is
    // published by it (the notify below is what makes a parked worker look).
    stopping_.store(true, std::memory_order_release);
    sleep_.notify_all();  // strict: the store above precedes it (event_count protocol)
  }

  // Searches (steals for up to opts_.spin) when pool_options::search lets it, then parks;
  // repeats until it gets a task or the pool stops. A worker that saw work visible when it went
  // to park searches next whatever the limit (scheduler/search.hpp); the last searcher to leave
  // with a task wakes a sleeper to search in its place.
  task* spin_then_park(worker_type& w) {
    bool saw_work = false;
    for (;;) {
      if (saw_work) search_.force_enter();
      if (saw_work || search_.enter()) {
        task* t = spin(w);
        const bool last = search_.leave();
        if (t != nullptr) {
          if (last) sleep_.hint_one();
          return t;
        }
      }
      if (stopping()) return nullptr;
      saw_work = !park(w);
    }
  }

  // Steal rounds for up to opts_.spin; a task, or nullptr when the time is up or the pool stops.
  // Not native: one round (the model checker explores its outcomes; a timed spin would only
  // repeat them).
  task* spin(worker_type& w) {
    if constexpr (!B::native) {
      if (stopping()) return nullptr;
      return steal_round(w, /*take_injected_first=*/true);
    }
    const auto deadline = std::chrono::steady_clock::now() + opts_.spin;
    unsigned fails = 0;
    do {
      for (int i = 0; i < 8; ++i) {
        if (stopping()) return nullptr;
        if (task* t = steal_round(w, /*take_injected_first=*/true)) return t;
        backoff(++fails);
      }
    } while (std::chrono::steady_clock::now() < deadline);
    return nullptr;
  }

  // False when it did not sleep: work was visible (or the pool stopping) after it registered.
  bool park(worker_type& w) {
    return sleep_.sleep_unless([&] { return work_visible() || stopping(); },
                               [&] {
                                 if constexpr (B::native) worker_counters::bump(w.counters.parks);
                               });
  }

  bool stopping() const noexcept {
    // acquire: pairs with the release store in ~pool(); only the flag itself is read after it.
    return stopping_.load(std::memory_order_acquire);
  }

  // After prepare_wait(): is there anything to steal? Sound for injected work (the injector's
  // notify_one() RMW orders the queue write before or after our prepare_wait(); see
  // event_count.hpp). For deque pushes it is a best-effort check (see the file comment); a
  // deque's private items do not count (stealable_size): a thief that looked again at once
  // could not take them, and under the model checker that retry would never end.
  bool work_visible() const {
    if (injected_.visible()) return true;
    return std::any_of(workers_.begin(), workers_.end(),
                       [](const auto& v) { return stealable_size(v->deque) > 0; });
  }

  // One round: the injection queue (only at the bottom of the stack, see help_until), then the
  // victims of pool_options::victims (by default P-1 chosen uniformly at random, with
  // replacement, as Blumofe-Leiserson analyse it). Returns a task or nullptr.
  task* steal_round(worker_type& w, bool take_injected_first) {
    if (take_injected_first) {
      if (task* t = take_injected()) return t;
    }
    return steal_round_in_order(opts_.victims, size(), w.index, w.rng, w.last_victim,
                                [&](unsigned v) { return steal_from(w, *workers_[v]); });
  }

  // Counts a statistic (natively; on another backend nothing is counted, nor read for it).
  static void count(std::atomic<std::uint64_t>& c, std::uint64_t n = 1) noexcept {
    if constexpr (B::native) worker_counters::bump(c, n);
  }

  // The tasks a successful steal took: with a batch steal, the rest of the batch is in the
  // thief's own deque (natively only, as count: the size is not read on another backend).
  static void count_stolen(worker_type& thief) noexcept {
    if constexpr (B::native && batch_stealing_deque<D>)
      count(thief.counters.stolen_tasks, 1 + static_cast<std::uint64_t>(thief.deque.size_hint()));
    else
      count(thief.counters.stolen_tasks);
  }

  task* steal_from(worker_type& thief, worker_type& victim) {
    count(thief.counters.steal_attempts);
    steal_result<task*> r = steal_task(victim.deque, thief.deque, opts_.steal);
    switch (r.status()) {
      case steal_status::item:
        count(thief.counters.steals);
        count_stolen(thief);
        sleep_.hint_one();  // the victim may have more: wake the next thief (cascade)
        return *r;
      case steal_status::empty:
        count(thief.counters.steal_empty);
        return nullptr;
      case steal_status::abort:
        count(thief.counters.steal_abort);
        return nullptr;
    }
    return nullptr;
  }

  task* take_injected() { return injected_.take(); }

  // Failed attempts: the wait of pool_options::idle (by default pause, and yield the processor
  // from time to time: ABP, with more workers than processors a thief that does not yield can
  // delay the worker holding the work).
  void backoff(unsigned fails) const noexcept {
    const idle_wait w = idle_wait_after(opts_.idle, fails);
    for (unsigned i = 0; i < w.pauses; ++i)
      cpu_relax();
    if (w.yield) std::this_thread::yield();
  }

  pool_options opts_;
  std::vector<std::unique_ptr<worker_type>> workers_;
  alignas(64) basic_event_count<Mem, typename B::event_count_sites> sleep_;
  alignas(64) typename Mem::template atomic<bool> stopping_{false, "stopping"};
  alignas(64) basic_inject_queue<Mem, typename B::inject_sites, typename B::wake> injected_;
  alignas(64) basic_external_wait<Mem, typename B::inject_sites> external_;  // block_until()
  alignas(64) basic_search_slots<Mem> search_;                               // pool_options::search
  // Not native: the threads that are workers (worker_loop, attach), for own_worker().
  std::vector<std::pair<typename Mem::thread_id, worker_type*>> attached_;
};

template <class D, class B>
requires builtin_deque<D> && std::same_as<typename D::value_type, task*>
template <class F>
std::invoke_result_t<F&> basic_pool<D, B>::run(F&& f) {
  using R = std::invoke_result_t<F&>;
  static_assert(std::is_void_v<R> || std::is_object_v<R>,
                "pool::run: f must return void or an object type (not a reference)");
  if (own_worker() != nullptr) return f();
  return run_outside<Mem, typename B::join_sites>(*this, f);  // scheduler/inject.hpp
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
