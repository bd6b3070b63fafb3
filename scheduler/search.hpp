// scheduler/search.hpp: how many idle workers of a pool may steal at once
// (pool_options::search), apart from the pool so that the limit itself is tested.
//
// An idle worker *searches* while it spins stealing (pool.hpp, spin_then_park). With a limit, a
// worker that finds the searchers' slots taken parks at once instead of spinning, and the
// searchers find the work; the last searcher to leave with a task wakes one sleeper to search in
// its place, since a task found is a sign of more. This is what Go and Tokio do: on P cores, P-1
// thieves that spin and fail cost the busy workers their caches and the machine its power.
//
// Progress does not rest on the limit or its wake-up: a worker that parks still goes through the
// event count's protocol (scheduler/event_count.hpp: register, re-check for work, sleep), which
// the model checker checks (`stealcheck model sched`), and a worker that found work visible at
// that re-check searches next whatever the limit. So the count is a heuristic: its accesses are
// relaxed, and a stale count lets one searcher too many in or keeps one out, never loses a task.
//
// Thread role: enter/leave on a worker's own thread; searching() from any thread (a snapshot).
// Complexity: O(1); with search_limit::any nothing is counted (no shared access at all).
// Source: Tokio, tokio/src/runtime/scheduler/multi_thread/idle.rs (transition_worker_to_searching
// refuses when 2 * num_searching >= num_workers; transition_worker_from_searching tells the last
// searcher to notify a parked worker); Go, runtime/proc.go (findRunnable stops spinning when
// 2 * nmspinning >= the busy Ps; resetspinning wakes a P when the last spinning M found work).
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace stealcheck::scheduler {

/// How many idle workers may search (steal while spinning) at once.
enum class search_limit : std::uint8_t {
  /// Every idle worker spins until pool_options::spin ends: Blumofe and Leiserson's thieves,
  /// rayon-core's idle rounds. The default.
  any,
  /// At most half of the workers, rounded up (at least one): Tokio's and Go's limit.
  half,
};

/// "any", "half".
constexpr std::string_view search_limit_name(search_limit l) noexcept {
  return l == search_limit::half ? "half" : "any";
}

/// The searchers of one pool of `workers` workers.
class search_slots {
 public:
  search_slots(search_limit limit, unsigned workers) noexcept
      : limit_(limit), max_(workers <= 1 ? 1 : (workers + 1) / 2) {}

  /// Takes a slot if the limit allows; always true (and counts nothing) with search_limit::any.
  bool enter() noexcept {
    if (limit_ == search_limit::any) return true;
    // relaxed: a count, not a publication (see the file comment); a stale value only lets one
    // searcher more in or one fewer, and the CAS keeps the count itself exact.
    unsigned n = searching_.load(std::memory_order_relaxed);
    do {
      if (n >= max_) return false;
    } while (!searching_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
    return true;
  }

  /// Takes a slot whatever the limit: a worker that saw work when it went to park (Go's
  /// stopm path re-checks the queues and spins again when they hold work).
  void force_enter() noexcept {
    // relaxed: as enter()
    if (limit_ != search_limit::any) searching_.fetch_add(1, std::memory_order_relaxed);
  }

  /// Gives the slot back. True if it was the last slot taken: the caller, if it found a task,
  /// wakes one sleeper to search in its place. Always false with search_limit::any.
  bool leave() noexcept {
    if (limit_ == search_limit::any) return false;
    // relaxed: as enter(); the wake-up that may follow is a hint (event_count::hint_one).
    return searching_.fetch_sub(1, std::memory_order_relaxed) == 1;
  }

  /// Workers searching now (a snapshot; 0 with search_limit::any).
  unsigned searching() const noexcept {
    return searching_.load(std::memory_order_relaxed);  // relaxed: a snapshot for tests
  }
  /// The most searchers enter() lets in.
  unsigned max_searchers() const noexcept { return max_; }

 private:
  search_limit limit_;
  unsigned max_;
  std::atomic<unsigned> searching_{0};
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
