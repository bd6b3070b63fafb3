// models/explore/explore.hpp: the user-facing test API of the model checker (one call).
//
//   model::options opt;                      // rc11 by default
//   model::result r = model::explore(opt, [](model::client& c) {
//     model::memory::atomic<int> x{0};       // shared state lives in the client body
//     auto t = c.spawn([&] { x.store(1, std::memory_order_release); });
//     c.join(t);                             // join before the body's locals die
//     c.check(x.load(std::memory_order_relaxed) == 1, "x is 1 after the join");
//   });
//   EXPECT_TRUE(r.ok()) << r.bug->trace;    // or: r.bug->kind == model::error_kind::...
//
// The body is the client's main thread (thread 0); it spawns the other model threads, which
// share its locals by reference. It is re-executed once per explored execution and must be
// deterministic given the values its atomic reads return (no clocks, no randomness, no
// global state that survives a run). Only the main thread may spawn. The body must join
// (c.join / c.join_all) every thread that uses its locals before they go out of scope;
// threads still running when the body returns are joined then.
//
// Thread role: call explore from any one OS thread; client methods from model threads only.
// With options::jobs > 1, explore starts that many OS threads and joins them before it returns.
// Returns: a result with complete/blocked counts, time and executions per second, or the
// first bug found (kind, message, per-thread trace, DOT, replay token).
// Complexity: one re-execution per explored execution; the number of executions is the
// number of consistent (rf, mo) classes of the client (exponential in the client's size).
// Source: TruSt exploration (Kokologiannakis et al., POPL 2022) over RC11 (PLDI 2017).
#pragma once

#include <boost/container/static_vector.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "deques/memory.hpp"
#include "models/graph/event.hpp"
#include "models/graph/memory_model.hpp"
#include "models/report/verdict.hpp"
#include "models/runtime/memory.hpp"

namespace stealcheck::model {

// Internals the API names only by reference (models/graph/graph.hpp, models/graph/hb.hpp,
// models/graph/consistency.hpp): a test that inspects graphs (options::on_complete) or
// happens-before includes those headers itself.
class graph;
class consistency_checker;
struct hb_clocks;

struct options {
  memory_model model = memory_model::rc11;
  /// Events per thread before the thread is cut (blocked, reported). Bounds spin loops.
  /// At most max_events_cap (32,000: the hb clocks count events in 16 bits); a larger
  /// value acts as that cap, which the bound's report then names.
  std::uint32_t max_events_per_thread = 1000;
  /// Stop after this many executions (0 = exhaustive); result::limit_reached says so.
  std::uint64_t max_executions = 0;
  /// Run-time memory-order overrides by site name (deques/memory.hpp sites).
  std::vector<std::pair<std::string, std::memory_order>> sites;
  /// Replay exactly the execution of this token (from bug_report::replay_token) instead of
  /// exploring.
  std::string replay;
  /// Bug reports list every event of the failing execution, not only those of the
  /// operations the failed check is about (and the writes they read).
  bool full_trace = false;
  /// Called with the graph of every complete execution and its consistency checker (which
  /// holds the graph's hb clocks and psc ranks) (testing, statistics). Optional.
  /// With jobs > 1: called from the worker threads, one call at a time, in no fixed order;
  /// when a bug or bound hit makes the run start again sequentially, that rerun calls it no
  /// more (the calls then cover only part of the executions, as after any bug).
  std::function<void(const graph&, const consistency_checker&)> on_complete;
  /// Explorer threads. 1: sequential. With jobs > 1 the body runs on `jobs` OS threads at
  /// once (each with its own fibers and graph), so it must not share state outside itself;
  /// the built-in clients do not. One thread starts at the root; whenever a thread waits for
  /// work, a busy one gives it the untried alternatives of the shallowest branch point it is
  /// inside (trust.hpp, explorer::run_pieces), so the threads stay busy to the end. The counts
  /// are the sequential ones; a bug or a bound hit makes the exploration run again
  /// sequentially, so that the report is the sequential one. Sequential anyway with
  /// max_executions or replay.
  unsigned jobs = 1;
  /// Sharding over machines: with shard_count > 1, this exploration is shard shard_index
  /// (0 .. shard_count - 1) of shard_count. The tree is divided into pieces (subtrees named by
  /// their paths) by splitting the piece with the largest estimated size (random dives, as
  /// estimate_exploration) until each is small against the total, and the pieces are assigned
  /// to the shards largest first, each to the shard with the least estimated work. All of it
  /// is deterministic: the same division and assignment on every machine, which
  /// result::division's fingerprint shows. The shards' executions partition the client's:
  /// their counts add up to the sequential ones (`stealcheck merge`). A tree with no branch
  /// point is one piece, shard 0's. Combines with jobs (the shard's pieces shared among its
  /// threads), not with replay or max_executions. The estimates are rough on lopsided trees, so
  /// the shards' shares are uneven (measure_balance says how much); division_counts evens them.
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  /// With shard_count > 1: the executions below nodes of the tree, counted by an earlier run
  /// of the same client (result::counted, added up over its shards). The division then takes
  /// a node's count for its size instead of estimating it, and splits only nodes it has a
  /// count for (and their children), so a piece the estimates would leave too large is split:
  /// the shards' shares follow the counts. Counts of another client or version only misguide
  /// the division, never the partition: the shards still add up to the sequential counts.
  std::shared_ptr<const node_counts> division_counts;
  /// A model thread that runs this many seconds without a model operation (an endless loop
  /// the event bound cannot see: it counts only model operations), or an explorer step that
  /// takes this long, ends the process with one error line and exit code 2
  /// (models/runtime/watchdog.cpp). Counted in wakeups of a once-a-second watchdog, so a process
  /// stopped in a debugger is not judged. 0: never. Token replays are not watched.
  std::uint32_t stall_seconds = 60;
};

/// The handle a client body gets. Thread role: model threads of the running exploration.
class client {
 public:
  /// Starts a model thread running f(). Thread role: the main thread (thread 0) only.
  /// Returns its thread number (1, 2, ... in spawn order).
  std::size_t spawn(std::function<void()> f);
  /// Waits for thread t (its events happen-before the caller's next events).
  void join(std::size_t t);
  /// Joins every spawned thread not yet joined.
  void join_all();
  /// A client assertion: when false, the exploration stops with error_kind::assertion and
  /// the message `what` plus this execution's trace. The message's first line is `what`'s
  /// first line and the source location; further lines of `what` follow it.
  void check(bool ok, std::string_view what, source_loc src = source_loc::current());
  /// Hands the bug report this execution's operations, before a failing check (a deque
  /// client's history does, with the operations the check is about marked implicated). The
  /// report then lists the operations per thread before the events, and the events of the
  /// implicated operations with the writes they read. Costs nothing unless called.
  void describe_operations(std::vector<operation_span> ops);
  /// Names the deque operation the calling thread is in ("pop"; nullptr: none, a string
  /// literal): a thread cut at the event bound is reported as that operation never returning.
  void operation(const char* name);
  /// The calling thread's number and the index its next event will get.
  event_id position() const;
  /// Whether event a happens-before event b in the execution so far (both must exist; call
  /// after joining the threads involved).
  bool happens_before(event_id a, event_id b) const;
  /// The happens-before relation of the execution so far, for many queries (hb(a, b)).
  /// The reference is valid until this thread's next memory operation (no copy is made).
  const hb_clocks& happens_before_relation() const;

 private:
  // the threads this client spawned, and whether each is joined (at most max_threads: no
  // allocation per run)
  boost::container::static_vector<std::size_t, max_threads> spawned_;
  boost::container::static_vector<bool, max_threads> joined_;
};

result explore(const options& opt, const std::function<void(client&)>& body);

/// How big an exploration is, before running it: Knuth's estimator ("Estimating the efficiency
/// of backtrack programs", Math. Comp. 1975), as GenMC's estimation mode uses it. Each sample
/// is one random path from the root of the exploration tree: at each branch point one
/// alternative drawn uniformly; the leaf it reaches counts as the product of the branching
/// factors on the path, an unbiased estimate of the number of leaves (executions). The mean of
/// the samples, with a 95% interval of the mean (normal approximation: mean +- 1.96 sd/sqrt(K);
/// the estimator's distribution is skewed on lopsided trees, so the interval is a guide), and
/// the time on this machine: that estimate times the seconds per execution of a short
/// exploration (at most 2,000 executions). Sequential; options::jobs and shards do not apply.
struct estimate {
  std::uint64_t samples = 0;
  std::uint64_t seed = 0;
  double executions = 0;  ///< complete + blocked
  double low = 0, high = 0;
  double seconds = 0, seconds_low = 0, seconds_high = 0;
  double elapsed = 0;  ///< what the estimate itself took, in seconds
};
estimate estimate_exploration(const options& opt, const std::function<void(client&)>& body,
                              std::uint64_t samples, std::uint64_t seed);

/// How evenly a client's exploration is shared among N workers, in executions, for each N
/// asked for (explore.cpp).
/// - Shards (options::shard_count): the client is explored once, piece by piece (on
///   options::jobs threads), with the division for the largest N, counting each piece's
///   executions; the division for a smaller N is coarser (the same splits, fewer of them), so
///   each of its pieces holds a known set of those. Each shard's executions follow from the
///   fixed assignment shards use. The division and the assignment run on estimates (dives);
///   the counts are exact.
/// - Shards of a second run: the counts a first run's shards would have written (the nodes
///   down to count_below levels under its deepest piece), and the division for N from them
///   (options::division_counts); each piece's executions come from the same exploration,
///   which counts nodes deep enough for every such piece.
/// - Jobs (options::jobs): N explorer threads in lockstep, one execution per round each while it
///   has work, giving work away as in a parallel run (a round waits for a thread not yet woken
///   for a piece): the number of rounds is when the last of N equally fast workers would finish.
/// A share is the busiest worker's executions (rounds, for jobs) against the mean (1: all
/// equal): N workers are at most N / share times as fast as one.
struct balance_row {
  std::uint32_t workers = 0;
  std::uint64_t pieces = 0;   ///< shards: the division's pieces
  std::size_t depth = 0;      ///< shards: the deepest piece's branching depth
  std::uint64_t busiest = 0;  ///< shards: the busiest shard's executions
  double share = 0;           ///< shards: busiest / (executions / workers)
  double divide_seconds = 0;  ///< shards: what building this division took
  std::uint64_t rounds = 0;   ///< jobs: rounds in lockstep
  double jobs_share = 0;      ///< jobs: rounds / (executions / workers)
  std::uint64_t given = 0;    ///< jobs: pieces handed out (the root and those given away)
  /// Shards of a second run, divided by the counts of a first one (options::division_counts):
  /// its pieces and its busiest shard's executions and share.
  std::uint64_t counted_pieces = 0;
  std::uint64_t counted_busiest = 0;
  double counted_share = 0;
};
struct balance {
  result total;  ///< the exploration (counts as the sequential run's)
  std::vector<balance_row> rows;
};
/// Throws std::logic_error if a division is not a refinement of the next one (a bug).
balance measure_balance(const options& opt, const std::function<void(client&)>& body,
                        const std::vector<std::uint32_t>& workers);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
