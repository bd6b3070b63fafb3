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

#include <atomic>
#include <boost/container/static_vector.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/models/graph/event.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"
#include "stealcheck/detail/models/report/verdict.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

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
  /// Sampling instead of exhaustive exploration (`stealcheck fuzz`): with executions > 0, that
  /// many executions drawn from `seed`'s stream by `strategy`:
  /// - random (the default), pct: forward sampling (models/explore/forward.hpp): each
  ///   execution built from the empty graph one event at a time, the strategy choosing the
  ///   thread that runs next, the write each read takes among those RC11 allows, and each
  ///   write's mo position; one run of the client per execution, no revisit. random draws
  ///   every choice uniformly (C11Tester); pct runs PCT's priorities with depth pct_depth and
  ///   as many stale reads (PCTWM).
  /// - tree: one random walk of the exploration tree (models/explore/walk.hpp, random_walk: at
  ///   every branch point one alternative drawn uniformly), which costs a re-execution per
  ///   backward revisit drawn.
  /// Each execution is consistent and checked as an exhaustive run checks it (values, spec,
  /// races, memory errors, the event bound); a bug is reported with its trace and replay
  /// token, and the same seed and strategy draw the same executions. The result counts the
  /// executions drawn (one may be drawn twice; a dead end is drawn again, at most 16 attempts
  /// per execution) and says result::sampled: NOT exhaustive. Sequential: jobs, replay and
  /// max_executions do not apply.
  enum class sampler : std::uint8_t { random, pct, tree };
  struct sampling {
    std::uint64_t executions = 0;  ///< 0: exhaustive exploration
    std::uint64_t seed = 1;
    sampler strategy = sampler::random;
    unsigned pct_depth = 3;  ///< pct: the bug depth d (d-1 change points, d-1 stale reads)
  };
  sampling sample;
  /// A model thread that runs this many seconds without a model operation (an endless loop
  /// the event bound cannot see: it counts only model operations), or an explorer step that
  /// takes this long, ends the process with one error line and exit code 2
  /// (models/runtime/watchdog.cpp). Counted in wakeups of a once-a-second watchdog, so a process
  /// stopped in a debugger is not judged. 0: never. Token replays are not watched.
  std::uint32_t stall_seconds = 60;
  /// When set, incremented (relaxed) once per execution explored, complete or blocked, from the
  /// explorer's threads, for a progress display to read (`stealcheck model` on a terminal).
  /// The explorer never reads it. A run that starts again sequentially after a bug counts again.
  std::atomic<std::uint64_t>* progress = nullptr;
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
  /// check() naming what failed (deques/failure.hpp: a value lost, a wrong order...), which
  /// the bug report carries (bug_report::failure; without it, a failed check is wrong_result).
  void check(bool ok, failure_kind failure, std::string_view what,
             source_loc src = source_loc::current());
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

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
