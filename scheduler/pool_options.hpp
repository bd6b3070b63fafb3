// scheduler/pool_options.hpp: the options of scheduler::pool and coro_pool (scheduler/pool.hpp),
// apart from the pool so that a front end can name them without the pool's templates.
#pragma once

#include <chrono>
#include <cstdint>

#include "scheduler/idle.hpp"
#include "scheduler/search.hpp"
#include "scheduler/victims.hpp"

namespace stealcheck::scheduler {

/// How much one successful steal takes from a batch-stealing deque (deques/deque.hpp's
/// batch_stealing_deque: steal_into); any other deque's steal takes one task.
enum class steal_amount : std::uint8_t {
  /// Half of the victim's tasks, the rest landing in the thief's own deque: Hendler and Shavit,
  /// "Non-blocking Steal-Half Work Queues" (PODC 2002); Tokio's steal_into, crossbeam's
  /// Stealer::steal_batch_and_pop.
  half,
  /// One task (the deque's steal()), as rayon-core steals from crossbeam's deques.
  one,
};

struct pool_options {
  /// How long an idle worker keeps stealing before it parks (time, not iterations).
  std::chrono::microseconds spin{50};
  /// Seed of the per-worker victim generators (worker i uses seed + i).
  std::uint64_t seed = 0x5eed;
  /// Throttling of binary forks: fork_join runs both branches inline on the calling worker,
  /// pushing nothing, while that worker's deque already holds at least `throttle` tasks
  /// (owner_size, scheduler/pool.hpp). 0: never, every fork is pushed (the work-first fork of
  /// Cilk-5). The waiting tasks are older than the fork and thieves take the oldest first, so a
  /// thief finds work as long as the deque holds any; as they are stolen, the owner's next forks
  /// are pushed again. What it saves is the push, the pop and the task record of every fork made
  /// while the deque is full enough (libgomp and LLVM's OpenMP run tasks undeferred past a
  /// task-count limit in the same way). task_group is never throttled: running a spawned task
  /// inline would hide the rest of the spawning loop, usually the larger part, from thieves.
  /// coro_pool ignores it for the same reason: a fork that did not push its continuation would
  /// hide the rest of the forking function from thieves.
  std::uint32_t throttle = 0;
  /// Which victims a worker tries in a round of steal attempts (scheduler/victims.hpp, each
  /// policy with its source). Help while joining (pool::help_until) uses the same order.
  victim_policy victims = victim_policy::uniform;
  /// What a steal from a batch-stealing deque takes (ignored by the others).
  steal_amount steal = steal_amount::half;
  /// The wait between failed steal attempts while a worker spins or helps at a join
  /// (scheduler/idle.hpp, each policy with its source); `spin` bounds how long it spins before
  /// it parks.
  idle_policy idle = idle_policy::pause;
  /// How many idle workers may search (steal while spinning) at once (scheduler/search.hpp,
  /// with its sources): any, or half of them as Tokio and Go allow; the others park until a
  /// push or the last searcher to find a task wakes them.
  search_limit search = search_limit::any;
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
