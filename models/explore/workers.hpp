// models/explore/workers.hpp: explorers on OS threads that share one exploration tree
// (options::jobs): each worker is an explorer with its own execution (fibers and graph) on its
// own thread, exploring the pieces a shared source hands out (walk.hpp, sharing_walk); a busy
// worker gives the untried alternatives of its shallowest branch point to an idle one. The
// pieces partition the executions, so the workers' counts add up to the sequential ones. The
// division of a tree among shards (models/divide/) runs on the same workers.
//
// Thread role: the calling OS thread starts the workers and joins them before returning.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/explore/trust.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/runtime/crash.hpp"
#include "stealcheck/detail/models/runtime/runtime.hpp"
#include "stealcheck/detail/models/runtime/watchdog.hpp"

namespace stealcheck::model::detail {

// For its lifetime, also when the exploration throws: x is the calling OS thread's
// execution, with the crash report installed and, unless it is a token replay, watched by the
// stall watchdog (a slot left active would be reported as a stall later).
class exploring {
 public:
  exploring(execution& x, const options& opt) : x_(x), outer_(current_execution()) {
    install_crash_report();
    if (opt.replay.empty() && opt.stall_seconds != 0)
      x.watch(acquire_progress_slot(opt.stall_seconds));
    set_current_execution(&x);
  }
  ~exploring() {
    release_progress_slot(x_.watched());
    x_.watch(nullptr);  // ~execution's teardown runs after the exploration
    set_current_execution(outer_);
  }
  exploring(const exploring&) = delete;
  exploring& operator=(const exploring&) = delete;

 private:
  execution& x_;
  execution* outer_;
};

// One explorer on the calling OS thread (its own execution: fibers and graph), handed to f.
template <class F>
auto with_explorer(const options& opt, const std::function<void(client&)>& body, F&& f) {
  run_config cfg;
  cfg.model = opt.model;
  cfg.max_events_per_thread = std::min(opt.max_events_per_thread, hb_clocks::max_events);
  cfg.sites = opt.sites;
  execution x(cfg, [&body] {
    client c;
    body(c);
    c.join_all();
  });
  const exploring scope(x, opt);
  explorer e(opt, x);
  return f(e);
}

/// One explorer on the calling thread, exploring the whole tree (or replaying a token).
result explore_one(const options& opt, const std::function<void(client&)>& body);

/// The options of the runs that only measure or count: no on_complete calls, no limit, one
/// job, no token.
options quiet_options(const options& opt);

// The pieces of a parallel exploration: at first `start` (the whole tree, or a shard's share);
// then what busy workers give away while another waits (explorer::give_away). The run ends
// when every worker waits, or at once when one stops with a bug or a bound hit (abort).
// In lockstep (measure_balance), every worker exploring a piece waits after each execution
// until each of them has made one: a round ("tick") is one execution per busy worker, as if
// all ran at one speed, and the number of rounds is when the last would finish.
class shared_source final : public piece_source {
 public:
  shared_source(unsigned workers, std::deque<piece> start, bool lockstep = false)
      : workers_(workers), lockstep_(lockstep), queue_(std::move(start)) {
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  bool next(piece& out) override {
    std::unique_lock lock(mutex_);
    while (queue_.empty() && !stop_) {
      if (++idle_ == workers_) {  // nobody explores, nothing is queued: done
        stop_ = true;
        ready_.notify_all();
        break;
      }
      if (round_complete()) next_round();
      waiting_.store(idle_, std::memory_order_relaxed);
      ready_.wait(lock, [&] { return !queue_.empty() || stop_; });
      waiting_.store(--idle_, std::memory_order_relaxed);
    }
    if (stop_) return false;
    out = std::move(queue_.front());
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_relaxed);
    ++handed_;
    ++busy_;
    return true;
  }
  // relaxed: hints read at every branch point; the queue itself is under the mutex
  bool hungry() const noexcept override {
    return waiting_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed);
  }
  bool stopped() const noexcept override { return aborted_.load(std::memory_order_relaxed); }
  void give(piece&& p) override {
    const std::scoped_lock lock(mutex_);
    queue_.push_back(std::move(p));
    queued_.store(queue_.size(), std::memory_order_relaxed);
    ready_.notify_all();
  }
  void executed() override {
    if (!lockstep_) return;
    std::unique_lock lock(mutex_);
    const std::uint64_t round = rounds_;
    ++arrived_;
    if (round_complete()) {
      next_round();
    } else {
      ready_.wait(lock, [&] { return rounds_ != round || stop_; });
    }
  }
  void finished() override {
    const std::scoped_lock lock(mutex_);
    --busy_;
    if (round_complete()) next_round();
  }
  void abort() {
    const std::scoped_lock lock(mutex_);
    stop_ = true;
    aborted_.store(true, std::memory_order_relaxed);
    ready_.notify_all();
  }
  std::uint64_t handed() const {
    const std::scoped_lock lock(mutex_);
    return handed_;
  }
  std::uint64_t rounds() const {
    const std::scoped_lock lock(mutex_);
    return rounds_;
  }

 private:
  // In lockstep, a round ends when every busy worker has made its execution and every other
  // worker waits for work, none of it queued: a worker starting up, between pieces or not yet
  // woken for a piece given to it holds the round back, so the rounds do not depend on how
  // the OS schedules the threads. (Under the mutex.)
  bool round_complete() const {
    return lockstep_ && arrived_ > 0 && arrived_ >= busy_ && idle_ + busy_ >= workers_ &&
           (queue_.empty() || idle_ == 0);
  }
  void next_round() {  // (under the mutex)
    arrived_ = 0;
    ++rounds_;
    ready_.notify_all();
  }

  const unsigned workers_;
  const bool lockstep_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<piece> queue_;
  unsigned idle_ = 0, busy_ = 0, arrived_ = 0;
  bool stop_ = false;
  std::uint64_t handed_ = 0, rounds_ = 0;
  std::atomic<unsigned> waiting_{0};
  std::atomic<std::size_t> queued_{0};
  std::atomic<bool> aborted_{false};
};

// Runs `jobs` OS threads, thread k calling work(k), and rethrows the first exception one
// of them threw, after calling stop() so that the others end (they may wait for work).
template <class Work, class Stop>
void run_threads(unsigned jobs, Work&& work, Stop&& stop) {
  std::vector<std::exception_ptr> errors(jobs);
  {
    std::vector<std::jthread> threads;
    for (unsigned k = 0; k < jobs; ++k)
      threads.emplace_back([&, k] {
        try {
          work(k);
        } catch (...) {
          errors[k] = std::current_exception();
          stop();
        }
      });
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

/// count_depth of a run that counts no nodes.
inline constexpr std::size_t no_counts = ~std::size_t{0};

/// A worker's result, with the executions it counted below each node down to counted_depth
/// (explorer::count_nodes; empty when it counted none).
struct counted_run {
  result run;
  node_counts counted;
  std::size_t counted_depth = 0;
};

/// The pieces `source` hands out, explored by e, counting each node's executions down to
/// count_depth unless it is no_counts; `done` as explorer::run_pieces.
counted_run run_pieces_counting(explorer& e, piece_source& source, std::size_t count_depth,
                                const std::function<void(std::uint64_t)>& done = nullptr);

/// Adds one worker's counts (complete, blocked and why, and per node) to `total`.
void add_counts(counted_run& total, const counted_run& w);

/// The pieces `start` explored on opt.jobs workers that give each other work (shared_source),
/// their results added up (result::pieces: the pieces handed out; busiest_job); nullopt when a
/// worker stopped with a bug or a bound hit (the sequential report depends on the order: the
/// caller explores again on one worker). With `rounds`: in lockstep, and the number of rounds
/// is stored there. Nodes are counted down to count_depth (run_pieces_counting).
std::optional<counted_run> explore_shared(const options& opt,
                                          const std::function<void(client&)>& body,
                                          std::deque<piece> start,
                                          std::size_t count_depth = no_counts,
                                          std::uint64_t* rounds = nullptr);

/// Parallel exploration: opt.jobs workers, one of them starting at the root. A bug or a bound
/// hit makes the exploration run again on one worker, so that the report is the sequential one.
result explore_parallel(const options& opt, const std::function<void(client&)>& body);

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
