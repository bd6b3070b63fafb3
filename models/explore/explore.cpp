// models/explore/explore.cpp: the test API (see explore.hpp).
#include "models/explore/explore.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/random.hpp"
#include "models/explore/trust.hpp"
#include "models/graph/hb.hpp"
#include "models/runtime/crash.hpp"
#include "models/runtime/runtime.hpp"
#include "models/runtime/watchdog.hpp"

namespace stealcheck::model {

namespace {
detail::execution& ex() {
  detail::execution* e = detail::current_execution();
  if (e == nullptr) std::abort();
  return *e;
}

// The execution, for a client call that reads the run's graph or judges it: a fiber running
// on in teardown (execution::unwind_if_due) unwinds here, as the graph no longer matches it.
detail::execution& judging() {
  detail::execution& x = ex();
  if (x.tearing_down()) x.unwind_if_due();
  return x;
}
}  // namespace

std::size_t client::spawn(std::function<void()> f) {
  detail::execution& x = ex();
  if (x.current() != 0 && !x.tearing_down())
    x.fail(error_kind::assertion,
           "only the client's main thread may spawn (thread numbers must be deterministic)");
  const std::size_t t = x.spawn(std::move(f));
  if (spawned_.size() < spawned_.capacity()) {  // (more only while tearing down: x.spawn fails)
    spawned_.push_back(t);
    joined_.push_back(false);
  }
  return t;
}

void client::join(std::size_t t) {
  detail::execution& x = ex();
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (spawned_[k] == t) joined_[k] = true;
  if (x.tearing_down()) return;
  detail::pending_op op;
  op.kind = detail::op_kind::join;
  op.aux = static_cast<std::uint32_t>(t);
  x.post(op);
  // A join is never made from a destructor: a teardown that resumed it unwinds right here,
  // not at the next operation, which may be the first of a destructor that makes several (a
  // deque destroyed at the end of the client's scope), where throwing would terminate.
  x.unwind_if_due();
}

void client::join_all() {
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (!joined_[k]) join(spawned_[k]);
}

void client::describe_operations(std::vector<operation_span> ops) {
  detail::execution& x = ex();
  if (!x.tearing_down()) x.operations = std::move(ops);
}

void client::check(bool ok, std::string_view what, source_loc src) {
  if (ok) return;
  detail::execution& x = judging();
  if (x.tearing_down()) return;
  const char* f = src.file != nullptr ? std::strrchr(src.file, '/') : nullptr;
  // the location ends the first line: a multi-line `what` goes on below it
  const std::size_t eol = std::min(what.find('\n'), what.size());
  x.fail(error_kind::assertion, "check failed: " + std::string(what.substr(0, eol)) + " (" +
                                    (f != nullptr ? f + 1 : "?") + ":" + std::to_string(src.line) +
                                    ", thread " + std::to_string(x.current()) + ")" +
                                    std::string(what.substr(eol)));
}

void client::operation(const char* name) {
  ex().me().operation = name;
}

event_id client::position() const {
  detail::execution& x = ex();
  return {static_cast<std::int32_t>(x.current()), static_cast<std::int32_t>(x.me().cursor)};
}

bool client::happens_before(event_id a, event_id b) const {
  detail::execution& x = judging();
  const hb_clocks* c = x.checker.hb(x.g);
  if (c == nullptr || !x.g.contains(a) || !x.g.contains(b)) return false;
  return c->hb(a, b);
}

const hb_clocks& client::happens_before_relation() const {
  detail::execution& x = judging();
  const hb_clocks* c = x.checker.hb(x.g);
  if (c == nullptr)  // only a graph with a po ∪ rf cycle, which is never run
    x.fail(error_kind::nondeterminism, "happens-before asked of a cyclic execution graph");
  return *c;
}

namespace {

struct one_run {
  result r;
  std::uint64_t subtrees = 0;  // a probe's count of branch points at its cut
  double estimate = 0;         // a dive's estimate of the executions
};

// For its lifetime, also when the exploration throws: x is the calling OS thread's
// execution, with the crash report installed and, unless it is a token replay, watched by the
// stall watchdog (a slot left active would be reported as a stall later).
class exploring {
 public:
  exploring(detail::execution& x, const options& opt) : x_(x), outer_(detail::current_execution()) {
    detail::install_crash_report();
    if (opt.replay.empty() && opt.stall_seconds != 0)
      x.watch(detail::acquire_progress_slot(opt.stall_seconds));
    detail::set_current_execution(&x);
  }
  ~exploring() {
    detail::release_progress_slot(x_.watched());
    x_.watch(nullptr);  // ~execution's teardown runs after the exploration
    detail::set_current_execution(outer_);
  }
  exploring(const exploring&) = delete;
  exploring& operator=(const exploring&) = delete;

 private:
  detail::execution& x_;
  detail::execution* outer_;
};

// One explorer on the calling OS thread (its own execution: fibers and graph).
one_run explore_one(const options& opt, const std::function<void(client&)>& body,
                    detail::split_plan s) {
  detail::run_config cfg;
  cfg.model = opt.model;
  cfg.max_events_per_thread = std::min(opt.max_events_per_thread, hb_clocks::max_events);
  cfg.sites = opt.sites;
  detail::execution x(cfg, [&body] {
    client c;
    body(c);
    c.join_all();
  });
  const exploring scope(x, opt);
  detail::explorer e(opt, x, s);
  result r = e.run();
  return {std::move(r), e.subtrees_seen(), e.estimated_complete() + e.estimated_blocked()};
}

// Parallel exploration (split_plan). The cut is the smallest branching depth with at
// least `per_job` subtrees per worker, found by probes that explore only the top of the tree
// (all workers then agree on it: the exploration is deterministic). A probe that finds no
// branch point at its depth has explored everything: its result is the answer.
result explore_parallel(const options& opt, const std::function<void(client&)>& body) {
  constexpr std::uint64_t per_job = 64;
  constexpr std::size_t deepest_cut = 64;
  const auto t0 = std::chrono::steady_clock::now();
  auto finish = [&](result r) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  options quiet = opt;  // probes and sequential reruns after a bug: no on_complete calls
  quiet.on_complete = nullptr;
  auto sequential = [&](const options& o) { return finish(explore_one(o, body, {}).r); };
  std::size_t cut = 0;
  std::uint64_t subtrees = 0;
  for (std::size_t d = 1; d <= deepest_cut && cut == 0; ++d) {
    one_run probe = explore_one(quiet, body, {d, true, true, nullptr});
    if (probe.r.bug || probe.r.bound_hits > 0) return sequential(quiet);
    if (probe.subtrees == 0)  // the probe explored everything: it is the answer
      return opt.on_complete ? sequential(opt) : finish(probe.r);
    if (probe.subtrees >= per_job * opt.jobs) {
      cut = d;
      subtrees = probe.subtrees;
    }
  }
  if (cut == 0) return sequential(opt);  // too narrow to split
  std::mutex complete_mutex;
  options shared = opt;
  if (opt.on_complete)
    shared.on_complete = [&](const graph& g, const consistency_checker& c) {
      std::scoped_lock lock(complete_mutex);
      opt.on_complete(g, c);
    };
  std::atomic<std::uint64_t> next{0};
  std::vector<one_run> runs(opt.jobs);
  std::vector<std::exception_ptr> errors(opt.jobs);
  {
    std::vector<std::jthread> workers;
    for (unsigned k = 0; k < opt.jobs; ++k)
      workers.emplace_back([&, k] {
        try {
          runs[k] = explore_one(shared, body, {cut, false, k == 0, &next});
        } catch (...) {
          errors[k] = std::current_exception();
        }
      });
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  result total;
  for (const one_run& w : runs) {
    // The sequential report (first bug, first bound hit) depends on the order: redo it.
    if (w.r.bug || w.r.bound_hits > 0) return sequential(quiet);
    total.complete += w.r.complete;
    total.blocked += w.r.blocked;
    total.blocked_mutex += w.r.blocked_mutex;
    total.blocked_assume += w.r.blocked_assume;
  }
  total.subtrees = subtrees;
  return finish(std::move(total));
}

// One shard (options::shard_count): the cut found as explore_parallel finds it, with a fixed
// share of the pieces instead of claimed ones.
result explore_shard(const options& opt, const std::function<void(client&)>& body) {
  constexpr std::uint64_t per_shard = 64;
  constexpr std::size_t deepest_cut = 64;
  const auto t0 = std::chrono::steady_clock::now();
  options quiet = opt;
  quiet.on_complete = nullptr;
  std::size_t cut = 0;
  std::uint64_t pieces = 0;
  for (std::size_t d = 1; d <= deepest_cut; ++d) {
    const one_run probe = explore_one(quiet, body, {d, true, true, nullptr});
    if (probe.subtrees == 0) break;  // the whole tree lies above depth d
    cut = d;
    pieces = probe.subtrees;
    if (pieces >= per_shard * opt.shard_count) break;
  }
  result r;
  if (cut != 0) {
    r = explore_one(opt, body,
                    {cut, false, opt.shard_index == 0, nullptr, opt.shard_index, opt.shard_count})
            .r;
  } else if (opt.shard_index == 0) {  // no branch point: one piece, shard 0's
    r = explore_one(opt, body, {}).r;
  }
  r.subtrees = pieces;
  r.cut = cut;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

estimate estimate_exploration(const options& opt, const std::function<void(client&)>& body,
                              std::uint64_t samples, std::uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  options quiet = opt;
  quiet.on_complete = nullptr;
  quiet.jobs = 1;
  quiet.shard_count = 1;
  estimate out;
  out.samples = samples;
  out.seed = seed;
  double sum = 0, sum_sq = 0;
  std::uint64_t stream = seed;
  for (std::uint64_t k = 0; k < samples; ++k) {
    detail::split_plan dive;
    dive.dive_seed = splitmix64_next(stream) | 1;  // 0 is "no dive"
    const double x = explore_one(quiet, body, dive).estimate;
    sum += x;
    sum_sq += x * x;
  }
  const double n = static_cast<double>(std::max<std::uint64_t>(samples, 1));
  out.executions = sum / n;
  const double var = samples > 1 ? std::max(0.0, (sum_sq - sum * sum / n) / (n - 1)) : 0.0;
  const double half = 1.96 * std::sqrt(var / n);
  out.low = std::max(0.0, out.executions - half);
  out.high = out.executions + half;
  quiet.max_executions = 2000;  // the rate of this machine on this client
  const result timed = explore_one(quiet, body, {}).r;
  const double per_execution =
      timed.executions() > 0 ? timed.seconds / static_cast<double>(timed.executions()) : 0.0;
  out.seconds = out.executions * per_execution;
  out.seconds_low = out.low * per_execution;
  out.seconds_high = out.high * per_execution;
  out.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

result explore(const options& opt, const std::function<void(client&)>& body) {
  if (opt.shard_count > 1) return explore_shard(opt, body);
  if (opt.jobs <= 1 || !opt.replay.empty() || opt.max_executions != 0)
    return explore_one(opt, body, {}).r;
  return explore_parallel(opt, body);
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
