// models/explore/forward.cpp: forward sampling (explorer::sample_forward) and its strategies
// (forward.hpp).
#include "stealcheck/detail/models/explore/forward.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <numeric>
#include <utility>

#include "stealcheck/detail/models/explore/trust.hpp"
#include "stealcheck/detail/models/graph/consistency.hpp"
#include "stealcheck/detail/models/graph/rc11.hpp"
#include "stealcheck/detail/models/runtime/events.hpp"

namespace stealcheck::model::detail {

namespace {
// n distinct points drawn uniformly from 1..range, ascending (fewer when range < n).
std::vector<std::uint64_t> points(std::uint64_t& state, std::size_t n, std::uint64_t range) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < n && out.size() < range; ++i) {
    std::uint64_t p = 0;
    do {
      p = 1 + splitmix64_next(state) % range;
    } while (std::find(out.begin(), out.end(), p) != out.end());
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

void pct_strategy::start() {
  // priorities depth_, depth_ + 1, ... in a random order (Fisher-Yates)
  std::iota(priority_.begin(), priority_.end(), std::uint64_t{depth_});
  for (std::size_t i = priority_.size(); i > 1; --i)
    std::swap(priority_[i - 1], priority_[draw(i)]);
  change_ = points(state_, depth_ - 1, steps_hint_);
  stale_ = points(state_, depth_ - 1, reads_hint_);
  step_ = read_ = 0;
}

std::size_t pct_strategy::thread(std::span<const std::size_t> runnable) {
  std::size_t best = runnable[0];
  for (const std::size_t t : runnable)
    if (priority_[t] > priority_[best]) best = t;
  ++step_;
  const auto at = std::find(change_.begin(), change_.end(), step_);
  if (at != change_.end()) priority_[best] = static_cast<std::uint64_t>(at - change_.begin()) + 1;
  return best;
}

std::size_t pct_strategy::read(std::size_t count) {
  if (count < 2) return 0;
  ++read_;
  if (std::find(stale_.begin(), stale_.end(), read_) == stale_.end()) return 0;
  return 1 + static_cast<std::size_t>(draw(count - 1));
}

// Adds thread t's pending operation with the strategy's choice among its consistent
// candidates and commits it. Returns false when no candidate is consistent (a dead end).
bool explorer::forward_step(std::size_t t, forward_strategy& s, std::uint64_t& reads) {
  graph& g = ex_.g;
  const pending_op op = ex_.threads[t]->op;
  switch (op.kind) {
    case op_kind::fence:
    case op_kind::join: {
      const event_id id = g.append(t, make_fence_or_join(op));
      if (op.kind == op_kind::fence && !choice_consistent(id)) return false;
      return ex_.commit(t);
    }
    case op_kind::store: {
      const std::size_t n = g.mo[op.loc].size();
      const auto lo =
          static_cast<std::size_t>(std::max(1, ex_.checker.coherence_floor(g, t, op.loc) + 1));
      boost::container::small_vector<std::size_t, 8> ps;  // mo-last first
      for (std::size_t p = n; p >= lo; --p)
        if (mo_insert_keeps_atomicity(g, op.loc, p)) ps.push_back(p);
      while (!ps.empty()) {
        const std::size_t i = s.write(ps.size());
        const event_id wid = g.append(t, make_store(op, ps[i] == n));
        g.mo_insert(wid, ps[i]);
        if (choice_consistent(wid)) return ex_.commit(t);
        auto& m = g.mo[op.loc];
        m.erase(m.begin() + static_cast<std::ptrdiff_t>(ps[i]));
        pop_back(t);
        ps.erase(ps.begin() + static_cast<std::ptrdiff_t>(i));
      }
      return false;
    }
    default:
      break;
  }
  // a read: a load, or an RMW's read part (with its write part when it writes)
  const std::size_t n = g.mo[op.loc].size();
  const int floor = std::max(ex_.checker.coherence_floor(g, t, op.loc), 0);
  boost::container::small_vector<std::pair<std::size_t, bool>, 8> ks;  // (mo position, spurious)
  for (std::size_t k = n; k-- > static_cast<std::size_t>(floor);) {
    ks.emplace_back(k, false);
    if (op.weak) ks.emplace_back(k, true);
  }
  // a lock takes a write that leaves the mutex free when there is one (it waits otherwise)
  if (op.kind == op_kind::lock && std::any_of(ks.begin(), ks.end(), [&](const auto& c) {
        return g.at(g.mo[op.loc][c.first]).value == op.expected;
      }))
    ks.erase(std::remove_if(
                 ks.begin(), ks.end(),
                 [&](const auto& c) { return g.at(g.mo[op.loc][c.first]).value != op.expected; }),
             ks.end());
  if (ks.size() > 1) ++reads;
  while (!ks.empty()) {
    const std::size_t i = s.read(ks.size());
    const auto [k, spurious] = ks[i];
    ks.erase(ks.begin() + static_cast<std::ptrdiff_t>(i));
    event r = make_read(op);
    r.spurious = spurious;
    const event_id rid = g.append(t, r);
    set_reads_from(g, rid, g.mo[op.loc][k]);
    event& re = g.at(rid);
    if (re.spurious && re.value != re.expected) {
      pop_back(t);
      continue;
    }
    re.added_max = k + 1 == n && !re.spurious;
    if (needs_write_part(re)) {
      const bool atomic = rmw_may_read(g, op.loc, k);
      const event_id wid = g.append(t, make_write_part(g, re));
      g.mo_insert(wid, k + 1);
      if (atomic && choice_consistent(wid)) return ex_.commit(t);
      auto& m = g.mo[op.loc];
      m.erase(m.begin() + static_cast<std::ptrdiff_t>(k + 1));
      pop_back(t);
      pop_back(t);
      continue;
    }
    if (choice_consistent(rid)) return ex_.commit(t);
    pop_back(t);
  }
  return false;
}

// One execution from the empty graph, each step as `s` chooses (see forward.hpp). A dead end
// (no consistent candidate) ends it with nothing counted.
void explorer::forward_execution(forward_strategy& s) {
  s.start();
  std::uint64_t steps = 0, reads = 0;
  if (!ex_.restart(graph{}, consistency_checker(opt_.model))) {
    report(ex_.error()->kind, ex_.error()->message);
    return;
  }
  // ranks the (nearly empty) graph's sc events now, so that every later SC axiom check is
  // the incremental one (models/graph/rc11.cpp: with no valid ranks the first check would
  // rank the whole graph as it then stands)
  ex_.checker.consistent(ex_.g);
  boost::container::small_vector<std::size_t, max_threads> runnable;
  while (!stop_) {
    for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
      ex_.advance(t);
      if (ex_.error()) {
        report(ex_.error()->kind, ex_.error()->message);
        break;
      }
    }
    if (stop_) break;
    // A thread waits while it joins a running thread, or locks a held mutex (as a scheduler
    // would not run it; when every thread waits, those that lock run, fail and block, and
    // leaf() reports the deadlock).
    runnable.clear();
    for (int pass = 0; pass < 2 && runnable.empty(); ++pass)
      for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
        const model_thread& th = *ex_.threads[t];
        if (!th.has_op) continue;
        if (th.op.kind == op_kind::join && !ex_.threads[th.op.aux]->finished) continue;
        const bool held = th.op.kind == op_kind::lock && !ex_.g.mo[th.op.loc].empty() &&
                          ex_.g.at(ex_.g.mo_max(th.op.loc)).value != th.op.expected;
        if (held && pass == 0) continue;
        runnable.push_back(t);
      }
    if (runnable.empty()) {
      leaf();
      break;
    }
    const std::size_t t = s.thread({runnable.data(), runnable.size()});
    ++steps;
    if (!forward_step(t, s, reads)) {
      if (ex_.error()) report(ex_.error()->kind, ex_.error()->message);
      break;
    }
  }
  ex_.teardown();
  s.finish(steps, reads);
}

result explorer::sample_forward(std::uint64_t executions, forward_strategy& s) {
  const auto t0 = std::chrono::steady_clock::now();
  inside_ = true;
  mode_ = &whole_tree_;
  ex_.add_choice_free_with(nullptr);  // every operation is a step the strategy schedules
  // a dead end is drawn again, at most 16 attempts per execution asked for
  for (std::uint64_t attempts = 0;
       res_.executions() < executions && attempts < 16 * executions && !stop_; ++attempts)
    forward_execution(s);
  res_.sampled = true;
  return finish(t0);
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
