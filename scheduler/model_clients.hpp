// scheduler/model_clients.hpp: bounded model-checker clients of the pool that ships
// (scheduler/pool.hpp: basic_pool on model::memory, two workers, with a deque variant on
// model::memory) and of the fork-join API over it (scheduler/fork_join.hpp: fork_join,
// task_group), run by `stealcheck model sched` (and its known-bad variants,
// scheduler/known_bad.hpp) and by `stealcheck verify`.
//
// The client's main thread acts as worker 0 (attach) and runs a job while worker 1 runs the
// pool's worker loop (worker_loop: pop, search, park in the event count); the main thread then
// shuts the pool down and joins worker 1. The outside clients' main thread is no worker: it
// calls run() or a task_group as a thread outside the pool would. Results are plain data
// (model::memory::nonatomic), so a join that does not order a stolen task's writes before the
// joiner's reads is a data race; a lost wake-up leaves worker 1 waiting on an event-count word
// that never changes again, a deadlock; a task run twice or never fails a check.
//   fork2_join          fork_join(a, b): a and b write one result each; the joiner reads both.
//   steal_while_join    fork_join with an empty a: the parent is in its join (pop, then wait
//                       for the flag) while b may be stolen; b writes two results.
//   park_while_push     worker 0 spawns two tasks in a task_group (join_counter) while worker 1
//                       parks or steals; every task runs once, none is lost.
//   stolen_exception    fork_join where b throws: the exception reaches the joiner, after a.
//   shutdown_parking    no work: worker 1 parks while worker 0 shuts the pool down; worker 1
//                       must see `stopping` or be woken (the strict notify_all).
//   run_from_outside    the main thread, no worker, calls run(f) (inject with the strict
//                       notify_one, then block_until) while worker 1 parks: f runs once, its
//                       result and write reach the caller, nobody sleeps forever.
//   group_from_outside  the main thread, no worker, spawns two tasks in a task_group and waits
//                       (task_group's outside path: inject, mark the counter, block_until):
//                       each task runs once and its write reaches the waiter, nobody sleeps
//                       forever.
// Each client also runs with search_limit::half ("<client>.<deque>.search_half": one searcher
// of the two workers; worker 1, the only one that searches, is the last searcher whenever it
// leaves), with one more:
//   refused_from_outside  run_from_outside while the main thread holds the only search slot (a
//                       searcher stalled for the whole run): worker 1 is refused, parks at once,
//                       and must still run f once, through the event count's re-check and the
//                       forced entry past the limit; nobody sleeps forever.
// What the model leaves out of the pool (pool_backend, scheduler/pool.hpp): its own threads,
// the timed spin (one steal round stands for it), the backoff of a join that finds nothing to
// run (it waits for its flag or counter to change instead: every execution of joins whose
// stolen tasks fork nothing more, as these clients' tasks do), and statistics.
//
// The clients are model test bodies in the public body API (models/front/body.hpp:
// model::thread, assert_that), as a user writes one; as_client hands each to the explorer.
//
// Thread role: run inside model::explore. Complexity: a few dozen events per thread.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "scheduler/event_count.hpp"
#include "scheduler/fork_join.hpp"
#include "scheduler/inject.hpp"
#include "scheduler/join.hpp"
#include "scheduler/pool.hpp"
#include "scheduler/search.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/body.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck::scheduler::model_clients {

using mem = model::memory;

/// The sites of the scheduler's synchronization, event count, join protocol, then injection
/// and outside wait, then the searchers' count (for `stealcheck list --sites sched` and --site
/// overrides).
template <class Ec, class Js, class Is = inject_sites>
struct sched_sites {
  template <class S>
  static constexpr auto list() {
    return concat_sites(Ec::template list<Ec>(), Js::template list<Js>(), Is::template list<Is>(),
                        search_sites::list<search_sites>());
  }
};

/// Runs job(p) on the main thread, as worker 0 when `as_worker` (else as a thread outside the
/// pool), while worker 1 runs its loop; then shuts down.
template <class P, class Job>
void with_pool(Job&& job, bool as_worker = true) {
  P p;
  if (as_worker) p.attach(0);
  model::thread w1([&] { p.worker_loop(1); });
  job(p);
  p.shutdown();
  w1.join();
}

template <class P>
void fork2_join() {
  mem::nonatomic<int> ra(named{"ra"}, 0), rb(named{"rb"}, 0);
  with_pool<P>([&](P& p) {
    fork_join(
        p, [&] { ra.write() = 1; }, [&] { rb.write() = 2; });
    const int a = ra.read(), b = rb.read();
    model::assert_that(a == 1 && b == 2, failure_kind::wrong_result,
                       "after the join a's result is " + std::to_string(a) + " and b's is " +
                           std::to_string(b) + " (1 and 2 expected)");
  });
}

template <class P>
void steal_while_join() {
  mem::nonatomic<int> r1(named{"r1"}, 0), r2(named{"r2"}, 0);
  with_pool<P>([&](P& p) {
    fork_join(
        p, [] {},
        [&] {
          r1.write() = 1;
          r2.write() = 2;
        });
    const int x = r1.read(), y = r2.read();
    model::assert_that(x == 1 && y == 2, failure_kind::wrong_result,
                       "after the join b's results are " + std::to_string(x) + ", " +
                           std::to_string(y) + " (1, 2 expected)");
  });
}

// A task_group of two tasks, each adding 1 to its own result: after the wait each ran once.
template <class P>
void group_of_two(P& p) {
  mem::nonatomic<int> r1(named{"r1"}, 0), r2(named{"r2"}, 0);
  task_group g(p);
  g.spawn([&] { r1.write() += 1; });
  g.spawn([&] { r2.write() += 1; });
  g.wait();
  const int x = r1.read(), y = r2.read();
  model::assert_that(x == 1 && y == 1, failure_kind::wrong_result,
                     "after the wait the tasks ran " + std::to_string(x) + " and " +
                         std::to_string(y) + " times (once each expected)");
}

template <class P>
void park_while_push() {
  with_pool<P>([&](P& p) { group_of_two(p); });
}

template <class P>
void stolen_exception() {
  mem::nonatomic<int> ra(named{"ra"}, 0);
  with_pool<P>([&](P& p) {
    std::string caught = "nothing";
    try {
      fork_join(
          p, [&] { ra.write() = 1; }, [] { throw std::runtime_error("from b"); });
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
    const int a = ra.read();
    model::assert_that(caught == "from b" && a == 1, failure_kind::wrong_result,
                       "the joiner caught '" + caught + "' with a's result " + std::to_string(a) +
                           " ('from b' and 1 expected)");
  });
}

template <class P>
void shutdown_parking() {
  with_pool<P>([](P&) {});
}

template <class P>
void run_from_outside() {
  mem::nonatomic<int> r1(named{"r1"}, 0);
  with_pool<P>(
      [&](P& p) {
        const int got = p.run([&] {
          r1.write() = 1;
          return 7;
        });
        const int x = r1.read();
        model::assert_that(got == 7 && x == 1, failure_kind::wrong_result,
                           "run returned " + std::to_string(got) +
                               " with r1 = " + std::to_string(x) + " (7 and 1 expected)");
      },
      /*as_worker=*/false);
}

template <class P>
void refused_from_outside() {
  mem::nonatomic<int> r1(named{"r1"}, 0);
  P p;
  // the main thread, outside the pool, takes the only search slot before worker 1 starts and
  // never gives it back, as a searcher that stalls for the whole run would: worker 1 is
  // refused and must still run f
  const bool took = p.searchers().enter();
  model::thread w1([&] { p.worker_loop(1); });
  const int got = p.run([&] {
    r1.write() += 1;
    return 7;
  });
  const int x = r1.read();
  model::assert_that(took && got == 7 && x == 1, failure_kind::wrong_result,
                     "run returned " + std::to_string(got) + " with the task run " +
                         std::to_string(x) + " times (7 and once expected)");
  p.shutdown();
  w1.join();
}

template <class P>
void group_from_outside() {
  with_pool<P>([&](P& p) { group_of_two(p); }, /*as_worker=*/false);
}

/// The model pool: basic_pool on model::memory with the orders Ec, Js, Is and the wake-up
/// policy Wake, over D<task*, model::memory> with 4 slots, two workers, search limit S.
template <template <class, class> class D, class Ec, class Js, class Is, class Wake, search_limit S>
struct sched_pool : basic_pool<D<task*, mem>, pool_backend<mem, Ec, Js, Is, Wake, 4>> {
  sched_pool() : sched_pool::basic_pool(2, options()) {}
  static pool_options options() {
    pool_options o;
    o.search = S;
    return o;
  }
};

/// The seven clients on sched_pool<D, Ec, Js, Is, Wake, any>, named "<client>.<deque>"; with
/// S = search_limit::half, the seven and refused_from_outside under that limit, named
/// "<client>.<deque>.search_half".
template <template <class, class> class D, class Ec = event_count_sites, class Js = join_sites,
          class Is = inject_sites, class Wake = inject_wake_strict,
          search_limit S = search_limit::any>
void add_clients(std::vector<model::clients::client_entry>& out, std::string_view deque) {
  using P = sched_pool<D, Ec, Js, Is, Wake, S>;
  const std::string suffix = S == search_limit::half ? ".search_half" : "";
  const std::array<std::pair<std::string_view, void (*)()>, 8> all{{
      {"fork2_join", &fork2_join<P>},
      {"steal_while_join", &steal_while_join<P>},
      {"park_while_push", &park_while_push<P>},
      {"stolen_exception", &stolen_exception<P>},
      {"shutdown_parking", &shutdown_parking<P>},
      {"run_from_outside", &run_from_outside<P>},
      {"group_from_outside", &group_from_outside<P>},
      {"refused_from_outside", &refused_from_outside<P>},
  }};
  static std::set<std::string, std::less<>> names;  // client_entry names are views: kept here
  for (const auto& [name, run] : all) {
    if (S == search_limit::any && name == "refused_from_outside") continue;  // nothing refused
    out.push_back({*names.insert(std::string(name) + "." + std::string(deque) + suffix).first,
                   model::as_client(run)});
  }
}

}  // namespace stealcheck::scheduler::model_clients
// SPDX-License-Identifier: Apache-2.0
