// scheduler/victims.hpp: which victims an idle or joining worker tries in one round of steal
// attempts (pool_options::victims), apart from the pool so that the order itself is tested.
//
// Thread role: a worker, on its own generator and its own last-victim slot.
// Complexity: at most P-1 attempts per round (last_victim: at most P).
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "scheduler/task.hpp"

namespace stealcheck::scheduler {

/// How a worker picks its victims. Each round makes at most P-1 steal attempts (last_victim:
/// one more, at the last victim first) and stops at the first task.
enum class victim_policy : std::uint8_t {
  /// Each attempt picks one of the other P-1 workers uniformly at random, with replacement:
  /// the policy Blumofe and Leiserson analyse (JACM 46(5) 1999: expected O(P·T∞) steal
  /// attempts). A round may try one victim twice and miss another.
  uniform,
  /// A random start, then every other worker once in index order: rayon-core's
  /// WorkerThread::steal (rayon-core/src/registry.rs), Tokio's Core::steal_work
  /// (tokio/src/runtime/scheduler/multi_thread/worker.rs). A round tries every victim.
  sweep,
  /// The worker it last stole from first, for as long as steals from it succeed; after a failed
  /// attempt there, uniform: LLVM's OpenMP runtime, __kmp_execute_tasks_template
  /// (openmp/runtime/src/kmp_tasking.cpp, td_deque_last_stolen).
  last_victim,
};

/// "uniform", "sweep", "last_victim".
constexpr std::string_view victim_policy_name(victim_policy p) noexcept {
  switch (p) {
    case victim_policy::uniform:
      return "uniform";
    case victim_policy::sweep:
      return "sweep";
    case victim_policy::last_victim:
      return "last_victim";
  }
  return "uniform";
}

/// A worker's memory of the victim its last successful steal took from (last_victim).
inline constexpr unsigned no_victim = std::numeric_limits<unsigned>::max();

/// One round of worker `self` of `p` (p >= 1): calls try_steal(v) for victims v != self in the
/// order `policy` gives, until it returns a non-null task*, and returns that task (nullptr after
/// the round). `last` is the worker's last-victim slot: set to the victim of a successful steal,
/// cleared after a failed attempt at it (read and written by every policy, used by last_victim).
template <class Steal>
task* steal_round_in_order(victim_policy policy, unsigned p, unsigned self, victim_rng& rng,
                           unsigned& last, Steal&& try_steal) {
  if (p < 2) return nullptr;
  auto attempt = [&](unsigned v) -> task* {
    task* t = try_steal(v);
    if (t != nullptr) {
      last = v;
    } else if (v == last) {
      last = no_victim;
    }
    return t;
  };
  // the j-th of the other workers, j in [0, p-1): every index but `self`
  auto other = [self](unsigned j) { return j >= self ? j + 1 : j; };
  if (policy == victim_policy::last_victim && last != no_victim && last != self && last < p) {
    if (task* t = attempt(last)) return t;
  }
  if (policy == victim_policy::sweep) {
    const unsigned start = rng.below(p - 1);
    for (unsigned k = 0; k + 1 < p; ++k) {
      if (task* t = attempt(other((start + k) % (p - 1)))) return t;
    }
    return nullptr;
  }
  for (unsigned k = 0; k + 1 < p; ++k) {
    if (task* t = attempt(other(rng.below(p - 1)))) return t;
  }
  return nullptr;
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
