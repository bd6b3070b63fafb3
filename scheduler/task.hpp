// scheduler/task.hpp: the unit of work the scheduler's deques carry, its statistics and the
// per-worker random generator used for victim selection.
//
// A task is a type-erased function pointer at the start of an object that lives in its
// parent's stack frame (fork_join) or in its task_group's arena (task_group::spawn). The deques
// hold `task*`, which is trivially copyable and lock-free as an atomic, so every deque variant
// stores it inline (deques/slot.hpp): a spawn allocates nothing on the heap.
//
// Thread role: a task is executed exactly once, by the worker that popped or stole it.
// Source: the closure-in-parent-frame layout follows Cilk-5's frames (Frigo, Leiserson, Randall,
// "The Implementation of the Cilk-5 Multithreaded Language", PLDI 1998, section 3).
#pragma once

#include <atomic>
#include <cstdint>
#include <iterator>

#include "stealcheck/detail/harness/random.hpp"

namespace stealcheck::scheduler {

/// The type-erased header every scheduled object starts with.
struct task {
  /// Runs the task. Requires: it does not throw (each task catches what its callable throws and
  /// hands it to its joiner). Not noexcept: under the model checker an abandoned execution
  /// unwinds the model threads' stacks through it. Ensures: the object is not touched by the
  /// scheduler afterwards (its owner may free it as soon as its completion signal, written
  /// inside `execute`, is observed).
  void (*execute)(task* self);
};

/// Counters of one run, summed over workers (see pool::stats()).
struct scheduler_stats {
  std::uint64_t tasks = 0;           ///< spawned tasks (fork_join's second branch, spawn())
  std::uint64_t steal_attempts = 0;  ///< calls of steal()/steal_into() on another worker's deque
  std::uint64_t steals = 0;          ///< attempts that returned an item
  /// Tasks that steals took: one per steal, plus, for a batch-stealing deque, the tasks the
  /// steal moved into the thief's deque (its size right after the steal: a task another thief
  /// took from it in between is not counted). Equals `steals` for single-steal deques.
  std::uint64_t stolen_tasks = 0;
  std::uint64_t steal_empty = 0;  ///< attempts that found the victim empty
  std::uint64_t steal_abort = 0;  ///< attempts that lost a race (steal_status::abort)
  std::uint64_t parks = 0;        ///< times a worker blocked in the event count

  /// Every counter with its name (the names are the JSON keys of `stealcheck bench --json`);
  /// what sums, averages or prints the counters walks this list.
  struct field {
    const char* name;
    std::uint64_t scheduler_stats::*member;
  };
  static constexpr field fields[] = {{"tasks", &scheduler_stats::tasks},
                                     {"steal_attempts", &scheduler_stats::steal_attempts},
                                     {"steals", &scheduler_stats::steals},
                                     {"stolen_tasks", &scheduler_stats::stolen_tasks},
                                     {"steal_empty", &scheduler_stats::steal_empty},
                                     {"steal_abort", &scheduler_stats::steal_abort},
                                     {"parks", &scheduler_stats::parks}};

  std::uint64_t failed_steals() const noexcept { return steal_empty + steal_abort; }
  bool operator==(const scheduler_stats&) const = default;
  scheduler_stats& operator+=(const scheduler_stats& o) noexcept {
    for (const field& f : fields)
      this->*f.member += o.*f.member;
    return *this;
  }
  /// Every counter divided by n (integer division; the mean of n runs' sum). Requires: n > 0.
  scheduler_stats divided_by(std::uint64_t n) const noexcept {
    scheduler_stats m = *this;
    for (const field& f : fields)
      m.*f.member /= n;
    return m;
  }
};

static_assert(sizeof(scheduler_stats) == std::size(scheduler_stats::fields) * sizeof(std::uint64_t),
              "scheduler_stats::fields lists every counter");

/// Owner-written, anyone-read counters of one worker, one per scheduler_stats field. Each is a
/// relaxed atomic updated with a load and a store (no read-modify-write: only the owner writes),
/// so the increment costs a plain add, and pool::stats() may read them while workers run without
/// a data race.
struct worker_counters {
  std::atomic<std::uint64_t> tasks{0}, steal_attempts{0}, steals{0}, stolen_tasks{0},
      steal_empty{0}, steal_abort{0}, parks{0};

  /// Thread role: the owning worker only.
  static void bump(std::atomic<std::uint64_t>& c, std::uint64_t n = 1) noexcept {
    // relaxed: a statistic; no other access is ordered by it (readers tolerate a stale value).
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  void add_to(scheduler_stats& s) const noexcept {
    for (const auto& [counter, field] : pairs)
      // relaxed: snapshot of statistics; exact once the pool is quiescent (after run()
      // returned, which happens-after every task of the job).
      s.*field += (this->*counter).load(std::memory_order_relaxed);
  }
  void reset() noexcept {
    for (const auto& p : pairs)
      (this->*p.counter).store(0, std::memory_order_relaxed);  // relaxed: only while quiescent
  }

 private:
  struct pair {
    std::atomic<std::uint64_t> worker_counters::*counter;
    std::uint64_t scheduler_stats::*field;
  };
  static constexpr pair pairs[] = {
      {&worker_counters::tasks, &scheduler_stats::tasks},
      {&worker_counters::steal_attempts, &scheduler_stats::steal_attempts},
      {&worker_counters::steals, &scheduler_stats::steals},
      {&worker_counters::stolen_tasks, &scheduler_stats::stolen_tasks},
      {&worker_counters::steal_empty, &scheduler_stats::steal_empty},
      {&worker_counters::steal_abort, &scheduler_stats::steal_abort},
      {&worker_counters::parks, &scheduler_stats::parks}};
  static_assert(std::size(pairs) == std::size(scheduler_stats::fields),
                "every scheduler_stats field has its worker counter");

 public:
  /// No counter and no field twice in the map from counters to scheduler_stats's fields; with
  /// the sizes asserted below, every counter is summed into exactly one field.
  static constexpr bool one_to_one() {
    for (std::size_t i = 0; i < std::size(pairs); ++i)
      for (std::size_t j = i + 1; j < std::size(pairs); ++j)
        if (pairs[i].counter == pairs[j].counter || pairs[i].field == pairs[j].field) return false;
    return true;
  }
};

static_assert(worker_counters::one_to_one(), "a worker counter or a field is mapped twice");
static_assert(sizeof(worker_counters) ==
                  std::size(scheduler_stats::fields) * sizeof(std::atomic<std::uint64_t>),
              "every worker counter is mapped to a scheduler_stats field");

/// xoshiro128** (Blackman, Vigna 2018) seeded through splitmix64: a small, fast generator, one
/// per worker, so victim selection needs no shared state. Thread role: its owner only.
class victim_rng {
 public:
  explicit victim_rng(std::uint64_t seed) noexcept {
    for (auto& w : s_)
      w = static_cast<std::uint32_t>(splitmix64_next(seed) >> 16) | 1u;
  }
  std::uint32_t next() noexcept {
    const std::uint32_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint32_t t = s_[1] << 9;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 11);
    return result;
  }
  /// Uniform in [0, n) by Lemire's multiply-shift (bias < n / 2^32, irrelevant here).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{next()} * n) >> 32);
  }

 private:
  static std::uint32_t rotl(std::uint32_t x, int k) noexcept { return (x << k) | (x >> (32 - k)); }
  std::uint32_t s_[4]{};
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
