// scheduler/known_bad.hpp: KNOWN-BAD orders of the scheduler's synchronization. Deliberately
// broken; never use them for work. Each is the unmodified source (scheduler/event_count.hpp,
// scheduler/join.hpp, scheduler/inject.hpp) with sites weakened or a wake-up policy that can
// miss a sleeper, run by the model clients of scheduler/model_clients.hpp, which must catch it
// (`stealcheck verify --include-known-bad`);
// and a policy of the continuation-stealing pool (scheduler/coro_pool.hpp) whose join does not
// wait, which the result checks of scheduler/tests/coro_pool_test.cpp must catch.
//
// Thread role: types only. Complexity: none.
#pragma once

#include <atomic>
#include <string_view>

#include "scheduler/event_count.hpp"
#include "scheduler/inject.hpp"
#include "scheduler/join.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::scheduler {

/// KNOWN-BAD: the event count's two RMWs relaxed (no acquire, no release). A sleeper whose
/// prepare_wait() comes after a waker's notify in the word's modification order no longer
/// synchronizes with it: it can miss the condition the waker set (shutdown's `stopping`) and wait
/// on a word that never changes again. The model checker reports a deadlock (a lost wake-up) in
/// shutdown_parking.
struct event_count_sites_relaxed : event_count_sites {
  static constexpr site prepare_rmw{"event_count::prepare_wait.rmw", std::memory_order_relaxed,
                                    site_kind::rmw, "KNOWN-BAD: relaxed (no acquire)"};
  static constexpr site notify_rmw{"event_count::notify.rmw", std::memory_order_relaxed,
                                   site_kind::rmw, "KNOWN-BAD: relaxed (no release)"};
};

/// KNOWN-BAD: a stolen task's done flag stored relaxed. The joiner's acquire load can read it
/// without synchronizing with the thief: it reads the task's results while they are written,
/// a data race (fork2_join).
struct join_sites_relaxed_done : join_sites {
  static constexpr site flag_store{"join::flag.store_done", std::memory_order_relaxed,
                                   site_kind::store, "KNOWN-BAD: relaxed (no release)"};
};

/// KNOWN-BAD: a stolen group task's decrement of the join counter relaxed. The spawner's
/// acquire load can read the count it leaves without synchronizing with the thief: it reads the
/// task's result while it is written, a data race (park_while_push).
struct join_sites_relaxed_arrive : join_sites {
  static constexpr site counter_arrive{"join::counter.arrive", std::memory_order_relaxed,
                                       site_kind::rmw, "KNOWN-BAD: relaxed (no release)"};
};

/// KNOWN-BAD: work injected from outside announced with the non-strict hint_one() instead of
/// notify_one(). hint_one()'s relaxed load of the event-count word can miss a worker that has
/// just registered as a sleeper, while that worker's check misses the queued task (store
/// buffering): it sleeps, the caller waits for the task forever. The model checker reports a
/// deadlock in run_from_outside.
struct inject_wake_hint {
  template <class Sleep, class Search>
  static void announce(Sleep& sleep, const Search& /*searchers*/) {
    sleep.hint_one();  // KNOWN-BAD: may miss a sleeper registering now
  }
};

/// KNOWN-BAD: injected work announced only when no worker searches (Tokio's
/// notify_should_wakeup, Go's wakep), on the pool's relaxed count of searchers
/// (scheduler/search.hpp). The submitter reads a searcher that has in fact already failed to find
/// the task, while that searcher, leaving and parking, misses the queued task (store buffering):
/// it sleeps, the caller waits for the task forever. The model checker reports a deadlock in
/// run_from_outside.chase_lev.search_half. Tokio and Go make the rule sound with sequentially
/// consistent accesses on both sides; the pool keeps a relaxed count and never skips.
struct inject_wake_unless_searching {
  template <class Sleep, class Search>
  static void announce(Sleep& sleep, const Search& searchers) {
    if (searchers.searching() == 0) sleep.notify_one();  // KNOWN-BAD: see above
  }
};

/// KNOWN-BAD: the outside wait's epoch bump relaxed (no release). A waiter can read the bump
/// without synchronizing with the completion before it, see done() false and wait on an epoch
/// that never moves again: a deadlock in run_from_outside.
struct inject_sites_relaxed_notify : inject_sites {
  static constexpr site external_rmw{"external::notify.rmw", std::memory_order_relaxed,
                                     site_kind::rmw, "KNOWN-BAD: relaxed (no release)"};
};

/// KNOWN-BAD: coro_pool<D, coro_policy_join_skips_stolen>: join() returns at once even when a
/// continuation was stolen, without waiting for the children still running elsewhere: the parent
/// reads their results before they are written (a wrong result the tests detect). Freed frames
/// are never reused in this policy, so the late children's writes into their finished parent's
/// frame hit memory no other frame owns (the arena frees it with the pool).
struct coro_policy_join_skips_stolen {
  static constexpr bool wait_for_stolen = false;
  static constexpr bool reuse_frames = false;
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
