// models/explore/workers.cpp: explorers on OS threads sharing one tree (see workers.hpp).
#include "stealcheck/detail/models/explore/workers.hpp"

#include <chrono>
#include <mutex>

namespace stealcheck::model::detail {

result explore_one(const options& opt, const std::function<void(client&)>& body) {
  return with_explorer(opt, body, [](explorer& e) { return e.run(); });
}

options quiet_options(const options& opt) {
  options quiet = opt;
  quiet.on_complete = nullptr;
  quiet.max_executions = 0;
  quiet.replay.clear();
  quiet.jobs = 1;
  return quiet;
}

counted_run run_pieces_counting(explorer& e, piece_source& source, std::size_t count_depth,
                                const std::function<void(std::uint64_t)>& done) {
  if (count_depth != no_counts) e.count_nodes(count_depth);
  counted_run r;
  r.run = e.run_pieces(source, done);
  if (count_depth != no_counts) {
    r.counted = e.node_counts();
    r.counted_depth = count_depth;
  }
  return r;
}

namespace {
// Runs opt.jobs workers on `source` (each its own explorer on its own OS thread) and returns
// their results; a worker that stops with a bug or a bound hit stops the others.
std::vector<counted_run> run_shared(const options& opt, const std::function<void(client&)>& body,
                                    shared_source& source, std::size_t count_depth) {
  std::vector<counted_run> runs(opt.jobs);
  run_threads(
      opt.jobs,
      [&](unsigned k) {
        runs[k] = with_explorer(
            opt, body, [&](explorer& e) { return run_pieces_counting(e, source, count_depth); });
        if (runs[k].run.bug || runs[k].run.bound_hits > 0) source.abort();
      },
      [&] { source.abort(); });
  return runs;
}
}  // namespace

void add_counts(counted_run& total, const counted_run& w) {
  total.run.complete += w.run.complete;
  total.run.blocked += w.run.blocked;
  total.run.blocked_mutex += w.run.blocked_mutex;
  total.run.blocked_assume += w.run.blocked_assume;
  for (const auto& [path, n] : w.counted)
    total.counted[path] += n;
  total.counted_depth = std::max(total.counted_depth, w.counted_depth);
}

std::optional<counted_run> explore_shared(const options& opt,
                                          const std::function<void(client&)>& body,
                                          std::deque<piece> start, std::size_t count_depth,
                                          std::uint64_t* rounds) {
  std::mutex complete_mutex;
  options shared = opt;
  if (opt.on_complete)
    shared.on_complete = [&](const graph& g, const consistency_checker& c) {
      std::scoped_lock lock(complete_mutex);
      opt.on_complete(g, c);
    };
  shared_source source(opt.jobs, std::move(start), rounds != nullptr);
  const std::vector<counted_run> runs = run_shared(shared, body, source, count_depth);
  counted_run total;
  for (const counted_run& w : runs) {
    if (w.run.bug || w.run.bound_hits > 0) return std::nullopt;
    add_counts(total, w);
    total.run.busiest_job = std::max(total.run.busiest_job, w.run.executions());
  }
  total.run.pieces = source.handed();
  if (rounds != nullptr) *rounds = source.rounds();
  return total;
}

result explore_parallel(const options& opt, const std::function<void(client&)>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<counted_run> shared = explore_shared(opt, body, {piece{}});
  result r = shared ? std::move(shared->run) : explore_one(quiet_options(opt), body);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
