// scheduler/search.hpp: how many idle workers of a pool may steal at once
// (pool_options::search), apart from the pool so that the limit itself is tested, and written
// against a memory backend (deques/memory.hpp) as the event count is: the pool runs
// search_slots = basic_search_slots<native_memory> (std::atomic, the same code as hand-written),
// and the pool on model::memory runs the same source under the model checker (the clients
// "<client>.<deque>.search_half" of `stealcheck model sched`).
//
// An idle worker *searches* while it spins stealing (pool.hpp, spin_then_park). With a limit, a
// worker that finds the searchers' slots taken parks at once instead of spinning, and the
// searchers find the work; the last searcher to leave with a task wakes one sleeper to search in
// its place, since a task found is a sign of more. This is what Go and Tokio do: on P cores, P-1
// thieves that spin and fail cost the busy workers their caches and the machine its power.
//
// Progress does not rest on the limit or its wake-up: a worker that parks still goes through the
// event count's protocol (scheduler/event_count.hpp: register, re-check for work, sleep), and
// work is announced to sleepers whether or not somebody searches (injected work with the strict
// notify_one, pushes and steals with hint_one, as without a limit); a worker that found work
// visible at that re-check searches next whatever the limit. So the count is a heuristic: its
// accesses are relaxed, and a stale count lets one searcher too many in or keeps one out, never
// loses a task. The model checker checks this with the limit in force (`stealcheck model sched`,
// clients "*.search_half"). Go and Tokio go further: a submitter that sees a searcher wakes
// nobody (Tokio's notify_should_wakeup, Go's wakep), so the count becomes synchronization and
// both sides need sequentially consistent accesses (the searcher's decrement against the
// submitter's read, each after its own write). The KNOWN-BAD variant sched_search_skip
// (scheduler/known_bad.hpp) takes that rule over this file's relaxed count: the model checker
// finds the lost wake-up (store buffering).
//
// Thread role: enter/leave on a worker's own thread; searching() from any thread (a snapshot).
// Complexity: O(1); with search_limit::any nothing is counted (no shared access at all).
// Source: Tokio, tokio/src/runtime/scheduler/multi_thread/idle.rs (transition_worker_to_searching
// refuses when 2 * num_searching >= num_workers; transition_worker_from_searching tells the last
// searcher to notify a parked worker); Go, runtime/proc.go (findRunnable stops spinning when
// 2 * nmspinning >= the busy Ps; resetspinning wakes a P when the last spinning M found work).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>

#include "stealcheck/detail/deques/memory.hpp"

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

/// The memory-order sites of the searchers' count (deques/memory.hpp, "site").
struct search_sites {
  static constexpr std::string_view variant = "search";
  using mo = std::memory_order;
  static constexpr site enter_load{"search::enter.load", mo::relaxed, site_kind::load,
                                   "the CAS below re-reads the count"};
  static constexpr site enter_cas{
      "search::enter.cas", mo::relaxed, site_kind::rmw,
      "a count, not a publication: a searcher reads the deques through their own orders, and a "
      "refused worker parks through the event count's protocol"};
  static constexpr site enter_cas_failure{"search::enter.cas_failure", mo::relaxed,
                                          site_kind::cas_failure, "retried with the value read"};
  static constexpr site force_rmw{"search::force_enter.rmw", mo::relaxed, site_kind::rmw,
                                  "as enter.cas: a count"};
  static constexpr site leave_rmw{
      "search::leave.rmw", mo::relaxed, site_kind::rmw,
      "as enter.cas; the wake-up that may follow is a hint (event_count::hint_one), and no "
      "submitter reads the count to skip a wake-up (see the file comment)"};
  static constexpr site searching_load{"search::searching.load", mo::relaxed, site_kind::load,
                                       "a snapshot for tests and statistics"};

  /// Every site of the variant `S` (this struct or one derived from it), in source order.
  template <class S>
  static constexpr auto list() {
    return std::array{&S::enter_load, &S::enter_cas, &S::enter_cas_failure,
                      &S::force_rmw,  &S::leave_rmw, &S::searching_load};
  }
};

/// The searchers of one pool of `workers` workers, on memory backend Mem with the orders of
/// Sites.
template <class Mem = native_memory, class Sites = search_sites>
class basic_search_slots {
 public:
  basic_search_slots(search_limit limit, unsigned workers) noexcept
      : limit_(limit), max_(workers <= 1 ? 1 : (workers + 1) / 2) {}

  /// Takes a slot if the limit allows; always true (and counts nothing) with search_limit::any.
  bool enter() {
    if (limit_ == search_limit::any) return true;
    // relaxed (enter.load, enter.cas): a count, not a publication (see the sites); a stale value
    // only lets one searcher more in or one fewer, and the CAS keeps the count itself exact. A
    // strong CAS: under the model checker a weak one's spurious failures would each be an
    // execution.
    unsigned n = searching_.load(Mem::order(Sites::enter_load));
    do {
      if (n >= max_) return false;
    } while (!searching_.compare_exchange_strong(n, n + 1, Mem::order(Sites::enter_cas),
                                                 Mem::order(Sites::enter_cas_failure)));
    return true;
  }

  /// Takes a slot whatever the limit: a worker that saw work when it went to park (Go's
  /// stopm path re-checks the queues and spins again when they hold work).
  void force_enter() {
    // relaxed (force_enter.rmw): as enter()
    if (limit_ != search_limit::any) searching_.fetch_add(1, Mem::order(Sites::force_rmw));
  }

  /// Gives the slot back. True if it was the last slot taken: the caller, if it found a task,
  /// wakes one sleeper to search in its place. Always false with search_limit::any.
  bool leave() {
    if (limit_ == search_limit::any) return false;
    // relaxed (leave.rmw): as enter(); the wake-up that may follow is a hint.
    return searching_.fetch_sub(1, Mem::order(Sites::leave_rmw)) == 1;
  }

  /// Workers searching now (a snapshot; 0 with search_limit::any).
  unsigned searching() const {
    return searching_.load(Mem::order(Sites::searching_load));  // relaxed: a snapshot
  }
  /// The most searchers enter() lets in.
  unsigned max_searchers() const noexcept { return max_; }
  /// The limit this pool was built with.
  search_limit limit() const noexcept { return limit_; }

 private:
  search_limit limit_;
  unsigned max_;
  typename Mem::template atomic<unsigned> searching_{0, "searching"};
};

/// The pool's searchers (std::atomic).
using search_slots = basic_search_slots<>;

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
