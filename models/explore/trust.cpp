// models/explore/trust.cpp: the TruSt exploration and its driver, explorer::run (see trust.hpp).
#include "stealcheck/detail/models/explore/trust.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <utility>
#include <vector>

#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/models/graph/consistency.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/graph/rc11.hpp"
#include "stealcheck/detail/models/runtime/events.hpp"

namespace stealcheck::model::detail {

// Continues after thread t's pending operation got its events in ex_.g: on the live fibers
// (in step with the graph minus those events) or by re-executing the graph from the start.
void explorer::resume(std::size_t t, bool live) {
  if (live) {
    ex_.commit(t);
  } else if (!ex_.rerun()) {
    replay_failed();
    return;
  }
  visit();
}

// A choice taken among the coherent, atomic candidates: RC11 checks what remains (the SC
// axiom, when it can have changed); SC checks the whole graph.
bool explorer::choice_consistent(event_id added) {
  return ex_.checker.choice_consistent(ex_.g, added);
}

// A choice found consistent in place (append, check, undo) and appended again later: if psc
// ranks changed since its check (another choice's check, or its siblings' subtrees),
// they may not order its new psc edges, which the incremental SC check relies on
// (consistency.hpp); and an sc event appended again is ranked anew (by its stamp), which
// loses a rank its own check certified. Then check it again, which extends or renews the
// ranks. Its answer was "consistent" and stays so (the graph is the same).
void explorer::rank_again(event_id added, std::uint64_t epoch) {
  if (opt_.model == memory_model::rc11 &&
      (ex_.checker.rank_epoch() != epoch || is_sc(ex_.g.at(added))))
    ex_.checker.choice_consistent(ex_.g, added);
}

// Explores one alternative of a branch point with `alternatives` alternatives, unless the walk
// has a target piece and this call is off its path, or its mode (walk.hpp) does not run it
// (in a dive, not the drawn alternative), or it was given away (give_away). Returns whether it
// ran; a skipped alternative leaves the fibers in step, so callers may treat it as run (more
// re-execution, never less). An alternative that is a dead end may make no call: in a dive
// that is as if it came last and was drawn in vain, adding nothing, as it should.
constexpr std::size_t undrawn = ~std::size_t{0};

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > ~std::uint64_t{0} / b ? ~std::uint64_t{0} : a * b;
}

template <class F>
bool explorer::child(std::size_t alternatives, F&& explore_it) {
  // not a branch point, or inside the explored piece with nothing to ask its mode
  if (alternatives < 2 || (inside_ && !mode_->tracks_inside())) {
    explore_it();
    return true;
  }
  ++depth_;
  if (at_.size() <= depth_ + 1) at_.resize(depth_ + 2);
  level& l = at_[depth_];  // (valid until explore_it, which may grow at_)
  l.alternatives = alternatives;
  if (l.lo == undrawn) {  // below the target's path: the mode chooses
    const detail::alternatives run = mode_->choose(alternatives, l.from);
    l.lo = run.lo;
    l.hi = run.hi;
  }
  const std::size_t ordinal = l.calls++;
  bool run = ordinal >= l.lo && ordinal < l.hi;
  if (run && inside_ && !mode_->before_alternative(*this)) {
    stop_ = true;
    run = false;
  }
  if (run) {
    const std::size_t on_path = target_->path.size();
    level& below = at_[depth_ + 1];  // the branch point below is a new one
    below.calls = below.alternatives = 0;
    if (depth_ < on_path) {
      below.lo = target_->path[depth_];
      below.hi = below.lo + 1;
    } else {
      below.lo = undrawn;
      below.from = depth_ == on_path ? target_->from : 0;
    }
    reached_ = reached_ || depth_ == on_path;
    const std::uint64_t saved = weight_;
    if (depth_ > on_path) weight_ = saturating_mul(weight_, alternatives);
    const bool was_inside = inside_;
    inside_ = inside_ || (mode_->explores() && depth_ == on_path);
    explore_it();
    inside_ = was_inside;
    weight_ = saved;
  }
  --depth_;
  return run;
}

// Gives `to` the untried alternatives of the shallowest branch point the walk is inside that
// has any (the most work, as a rule), and skips them here from now on. The ordinal running at
// each depth above is that depth's last call.
bool explorer::give_away(piece_source& to) {
  for (std::size_t d = 1; d <= depth_; ++d) {
    level& l = at_[d];
    if (l.hi != every_alternative || l.calls >= l.alternatives) continue;
    piece p;
    p.path.reserve(d - 1);
    for (std::size_t k = 1; k < d; ++k)
      p.path.push_back(static_cast<std::uint32_t>(at_[k].calls - 1));
    p.from = static_cast<std::uint32_t>(l.calls);
    l.hi = l.calls;
    to.give(std::move(p));
    return true;
  }
  return false;
}

void explorer::replay_failed() {
  report(ex_.error() ? ex_.error()->kind : error_kind::nondeterminism,
         ex_.error() ? ex_.error()->message : "replay failed");
}

// Explores another graph (a backward revisit) and then puts the current one back. The fibers
// are left torn down: the caller re-executes before it goes on (its `live` becomes false).
void explorer::visit_other(graph other, consistency_checker checker) {
  ex_.teardown();
  graph saved = std::move(ex_.g);
  consistency_checker saved_checker = std::move(ex_.checker);
  if (ex_.restart(std::move(other), std::move(checker)))
    visit();
  else
    replay_failed();
  ex_.teardown();
  ex_.g = std::move(saved);
  ex_.checker = std::move(saved_checker);
}

void explorer::visit() {
  for (;;) {
    if (stop_) return;
    for (std::size_t t = 0; t < ex_.threads.size(); ++t)
      if (ex_.threads[t]->half_rmw) {
        handle_rmw_write(t);
        return;
      }
    for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
      // every thread to its next operation (or its end), adding its loads that have no
      // choice on the way (add_choice_free)
      ex_.advance(t);
      if (ex_.error()) {
        report(ex_.error()->kind, ex_.error()->message);
        return;
      }
    }
    std::size_t next = ex_.threads.size();
    for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
      const model_thread& th = *ex_.threads[t];
      if (!th.has_op) continue;
      if (th.op.kind == op_kind::join && !ex_.threads[th.op.aux]->finished) continue;
      next = t;
      break;
    }
    if (next == ex_.threads.size()) {
      leaf();
      return;
    }
    const pending_op& op = ex_.threads[next]->op;
    switch (op.kind) {
      case op_kind::fence:
      case op_kind::join: {
        const event_id id = ex_.g.append(next, make_fence_or_join(op));
        ex_.commit(next);
        // A fence accesses nothing and has no outgoing mo/rb edge: under RC11 it is always
        // consistent (choice_consistent asks nothing of it); SC checks the graph.
        if (op.kind == op_kind::fence && !choice_consistent(id)) return;
        continue;
      }
      case op_kind::store:
        handle_write(next);
        return;
      default:
        handle_read(next);
        return;
    }
  }
}

// The choices of a load, or of a store that no read may revisit, checked in place and
// explored in the order given (mo-maximal first): `add(c)` appends choice c and returns the new
// event, `undo(c)` removes it again. They are checked in the reverse order, so the first to
// explore, when consistent, is the one still appended after the checks: it runs as it stands,
// on the live fibers. The others are appended again after rewinding the graph to this point
// (TruSt's forward revisits need no copy: every event added since has a larger stamp), their
// ranks re-checked if need be (rank_again), and re-executed.
template <class Add, class Undo>
void explorer::explore_in_place(std::size_t t, const std::size_t* choices, std::size_t count,
                                Add&& add, Undo&& undo) {
  const std::uint32_t here = ex_.g.next_stamp;
  boost::container::small_vector<std::pair<std::size_t, std::uint64_t>, 8> ok;  // i, epoch
  for (std::size_t i = count; i-- > 0;) {
    const event_id id = add(choices[i]);
    const bool consistent = choice_consistent(id);
    if (consistent) ok.emplace_back(i, ex_.checker.rank_epoch());
    if (i > 0 || !consistent) undo(choices[i]);
  }
  bool live = true;
  for (std::size_t j = ok.size(); j-- > 0 && !stop_;) {  // ok is in reverse order
    const auto [i, epoch] = ok[j];
    if (i > 0) {  // (the first choice, explored first, is still appended)
      rewind(here);
      rank_again(add(choices[i]), epoch);
    }
    if (child(ok.size(), [&] { resume(t, live); })) live = false;
  }
}

// Whether thread t's pending operation is a new one of kind k (not a replayed one, not the
// write part of an RMW) on a location the graph has.
bool explorer::posts_new(std::size_t t, op_kind k) const {
  const model_thread& th = *ex_.threads[t];
  return th.op.kind == k && !th.half_rmw && th.cursor == ex_.g.threads[t].size() &&
         (k == op_kind::fence || th.op.loc < ex_.g.mo.size());
}

bool explorer::eager_load(std::size_t t, event_id only_from) {
  if (!posts_new(t, op_kind::load)) return false;
  graph& g = ex_.g;
  const pending_op& op = ex_.threads[t]->op;
  const auto& m = g.mo[op.loc];
  const std::size_t n = m.size();
  if (n == 0 || ex_.checker.coherence_floor(g, t, op.loc) != static_cast<int>(n) - 1) return false;
  const event_id w = m[n - 1];
  if (only_from.valid() && !(only_from == w)) return false;
  const event_id rid = g.append(t, make_read(op));
  set_reads_from(g, rid, w);
  g.at(rid).added_max = true;  // (it reads the mo-maximal write)
  return ex_.commit(t);
}

bool explorer::eager_store(std::size_t t) {
  if (!posts_new(t, op_kind::store)) return false;
  graph& g = ex_.g;
  const pending_op& op = ex_.threads[t]->op;
  const std::size_t n = g.mo[op.loc].size();
  if (n == 0 || ex_.checker.coherence_floor(g, t, op.loc) != static_cast<int>(n) - 1 ||
      read_outside(g, op.loc, ex_.checker.porf_before_next(g, t), /*revisitable_only=*/false))
    return false;
  const event_id wid = g.append(t, make_store(op, /*last=*/true));
  g.mo_insert(wid, n);
  return ex_.commit(t);
}

bool explorer::eager_fence(std::size_t t) {
  if (!posts_new(t, op_kind::fence)) return false;
  ex_.g.append(t, make_fence_or_join(ex_.threads[t]->op));
  return ex_.commit(t);
}

void explorer::handle_load(std::size_t t) {
  const pending_op op = ex_.threads[t]->op;
  const std::size_t n = ex_.g.mo[op.loc].size();
  const int floor = ex_.checker.coherence_floor(ex_.g, t, op.loc);
  boost::container::small_vector<std::size_t, 8> ks;  // mo positions of the writes to read
  for (std::size_t k = n; k-- > 0 && static_cast<int>(k) >= floor;)
    ks.push_back(k);
  explore_in_place(
      t, ks.data(), ks.size(),
      [&](std::size_t k) {
        const event_id rid = ex_.g.append(t, make_read(op));
        set_reads_from(ex_.g, rid, ex_.g.mo[op.loc][k]);
        ex_.g.at(rid).added_max = k + 1 == n;
        return rid;
      },
      [&](std::size_t) { pop_back(t); });
}

void explorer::handle_read(std::size_t t) {
  const pending_op op = ex_.threads[t]->op;
  if (op.kind == op_kind::load) {
    handle_load(t);
    return;
  }
  const std::uint32_t here = ex_.g.next_stamp;
  const boost::container::small_vector<event_id, 8> m(ex_.g.mo[op.loc].begin(),
                                                      ex_.g.mo[op.loc].end());
  const int floor = ex_.checker.coherence_floor(ex_.g, t, op.loc);
  const int sps = op.weak ? 2 : 1;
  const std::size_t alternatives =
      (m.size() - static_cast<std::size_t>(std::max(floor, 0))) * static_cast<std::size_t>(sps);
  bool live = true;
  for (std::size_t k = m.size(); k-- > 0 && static_cast<int>(k) >= floor && !stop_;) {
    for (int sp = 0; sp < sps && !stop_; ++sp) {
      rewind(here);
      event r = make_read(op);
      r.spurious = sp == 1;
      const event_id rid = ex_.g.append(t, r);
      set_reads_from(ex_.g, rid, m[k]);
      event& re = ex_.g.at(rid);
      if (re.spurious && re.value != re.expected) continue;
      re.added_max = k + 1 == m.size() && !re.spurious;
      if (needs_write_part(re)) {
        // Another RMW reading m[k] makes this graph inconsistent, but its backward revisits
        // are still explored (one may make that RMW read this one's write instead).
        const bool atomic = rmw_may_read(ex_.g, op.loc, k);
        const event_id wid = ex_.g.append(t, make_write_part(ex_.g, re));
        ex_.g.mo_insert(wid, k + 1);
        bool used = false;
        child(alternatives,
              [&] { used = explore_write(wid, t, live, atomic && choice_consistent(wid)); });
        if (used) live = false;
      } else if (choice_consistent(rid)) {
        if (child(alternatives, [&] { resume(t, live); })) live = false;
      }
    }
  }
}

void explorer::handle_write(std::size_t t) {
  const pending_op op = ex_.threads[t]->op;
  const std::uint32_t here = ex_.g.next_stamp;
  const std::size_t n = ex_.g.mo[op.loc].size();
  // coherent and atomic mo positions: after the floor, not between an RMW and its source
  const auto lo =
      static_cast<std::size_t>(std::max(1, ex_.checker.coherence_floor(ex_.g, t, op.loc) + 1));
  auto atomic = [&](std::size_t p) { return mo_insert_keeps_atomicity(ex_.g, op.loc, p); };
  if (!read_outside(ex_.g, op.loc, ex_.checker.porf_before_next(ex_.g, t),
                    /*revisitable_only=*/true)) {
    // No backward revisit possible: as a load, the mo positions are checked in place.
    boost::container::small_vector<std::size_t, 8> ps;  // coherent, atomic mo positions
    for (std::size_t p = n; p >= lo; --p)
      if (atomic(p)) ps.push_back(p);
    explore_in_place(
        t, ps.data(), ps.size(),
        [&](std::size_t p) {
          const event_id wid = ex_.g.append(t, make_store(op, p == n));
          ex_.g.mo_insert(wid, p);
          return wid;
        },
        [&](std::size_t p) {
          auto& m = ex_.g.mo[op.loc];
          m.erase(m.begin() + static_cast<std::ptrdiff_t>(p));
          pop_back(t);
        });
    return;
  }
  bool live = true;
  // Splitting an RMW from its source is inconsistent, but the backward revisits of such a
  // placement are explored (one may make that RMW read this write instead).
  for (std::size_t p = n; p >= lo && !stop_; --p) {  // after the init write, mo-last first
    rewind(here);
    const bool ok = atomic(p);
    const event_id wid = ex_.g.append(t, make_store(op, p == n));
    ex_.g.mo_insert(wid, p);
    bool used = false;
    child(n + 1 - lo, [&] { used = explore_write(wid, t, live, ok && choice_consistent(wid)); });
    if (used) live = false;
  }
}

void explorer::handle_rmw_write(std::size_t t) {
  const event r = ex_.g.threads[t].back();
  const int p = ex_.g.mo_pos(r.rf);
  const event_id wid = ex_.g.append(t, make_write_part(ex_.g, r));
  ex_.g.mo_insert(wid, static_cast<std::size_t>(p) + 1);
  explore_write(wid, t, true, ex_.checker.consistent_after(ex_.g, wid));
}

// Visits ex_.g (if `consistent`; w is its last event), then every maximal backward revisit
// by w. Returns whether anything was visited (the live fibers are then out of step).
bool explorer::explore_write(event_id w, std::size_t t, bool live, bool consistent) {
  const graph& g1 = ex_.g;
  const std::uint32_t loc = g1.at(w).loc;
  const std::uint32_t after_w = g1.at(w).stamp + 1;
  // The maximal backward revisits (pure in g1), found before the forward visit changes ex_.g.
  std::vector<std::pair<event_id, view>> cands;
  const view pre = ex_.checker.porf_prefix(g1, w);
  const int w_pos = g1.mo_pos(w);
  for (std::size_t u = 0; u < g1.threads.size(); ++u) {
    // reads in w's porf-prefix cannot read from w
    for (auto i = static_cast<std::size_t>(pre[u]); i < g1.threads[u].size(); ++i) {
      const event& e = g1.threads[u][i];
      if (!is_read(e) || e.loc != loc || !e.revisitable) continue;
      // the revisited read must be coherent reading w (a necessary condition of the full
      // check below, without building the revisited graph)
      if (ex_.checker.coherence_floor_at(g1, u, i, loc) > w_pos) continue;
      const event_id rid{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
      view keep(g1.threads.size(), 0);
      for (std::size_t v = 0; v < g1.threads.size(); ++v) {
        const auto& tv = g1.threads[v];  // stamps grow along po: binary search
        const auto n = static_cast<std::int32_t>(
            std::partition_point(tv.begin(), tv.end(),
                                 [&](const event& x) { return x.stamp <= e.stamp; }) -
            tv.begin());
        keep[v] = std::max(n, v < pre.size() ? pre[v] : 0);
      }
      if (maximal(g1, rid, w, keep)) cands.emplace_back(rid, std::move(keep));
    }
  }
  const std::size_t alternatives = (consistent ? 1 : 0) + cands.size();
  bool used = false;
  if (consistent) {
    child(alternatives, [&] { resume(t, live); });
    used = true;  // even if skipped: the revisits below leave the fibers torn down anyway
  }
  for (const auto& [rid, keep] : cands) {
    if (stop_) break;
    child(alternatives, [&] {
      rewind(after_w);  // back to g1
      graph g2;
      consistency_checker c2;
      std::vector<event_id> repaired;
      if (!revisit(rid, w, keep, pre, g2, c2, repaired)) return;
      if (!c2.revisit_consistent(g2, rid, w, repaired)) return;
      visit_other(std::move(g2), std::move(c2));
      used = true;
    });
  }
  return used;
}

bool explorer::maximal(const graph& g, event_id r, event_id w, const view& keep) const {
  auto in = [&](event_id e) {
    return static_cast<std::size_t>(e.thread) < keep.size() &&
           e.index < keep[static_cast<std::size_t>(e.thread)];
  };
  const auto& m = g.mo[g.at(w).loc];
  if (!g.at(w).rmw) {
    const auto p = static_cast<std::size_t>(g.mo_pos(w));
    if (p + 1 < m.size() && !in(m[p + 1])) return false;  // mo-successor must stay
  }
  // r and every event the revisit deletes (those outside keep) must have been added maximally
  auto deletable = [&](event_id id) {
    const event& e = g.at(id);
    if (!e.revisitable || !e.added_max) return false;
    if (is_access(e)) {
      const event_id x = is_read(e) ? e.rf : id;
      const auto& mx = g.mo[e.loc];
      for (std::size_t k = static_cast<std::size_t>(g.mo_pos(x)) + 1; k < mx.size(); ++k)
        if (in(mx[k]) && !(mx[k] == w)) return false;  // co-before the saved prefix
    }
    return !(is_read(e) && !in(e.rf) && g.at(e.rf).stamp > e.stamp);
  };
  if (!deletable(r)) return false;
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const auto from = static_cast<std::size_t>(std::max(0, u < keep.size() ? keep[u] : 0));
    for (std::size_t i = from; i < g.threads[u].size(); ++i)
      if (!deletable({static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)})) return false;
  }
  return true;
}

bool explorer::revisit(event_id r, event_id w, const view& keep, const view& pre, graph& out,
                       consistency_checker& out_checker, std::vector<event_id>& repaired) const {
  out = ex_.g.prefix(keep);
  out_checker = ex_.checker.restricted(out);
  // r and the reads repaired below change; every other kept event keeps its clocks (none
  // depends on them: r is the last kept event of its thread, and so is each repaired read)
  out_checker.truncate(static_cast<std::size_t>(r.thread), static_cast<std::size_t>(r.index));
  set_reads_from(out, r, w);
  out.at(r).added_max = out.mo_max(out.at(r).loc) == w;
  for (std::size_t v = 0; v < out.threads.size() && v < pre.size(); ++v)
    for (std::size_t i = 0; i < out.threads[v].size() && static_cast<std::int32_t>(i) < pre[v]; ++i)
      out.threads[v][i].revisitable = false;
  for (std::size_t v = 0; v < out.threads.size(); ++v) {
    for (std::size_t i = 0; i < out.threads[v].size(); ++i) {
      event& e = out.threads[v][i];
      if (!is_read(e) || out.contains(e.rf)) continue;
      if (i + 1 != out.threads[v].size()) return false;  // cannot happen (porf-closed view)
      const event_id id{static_cast<std::int32_t>(v), static_cast<std::int32_t>(i)};
      out_checker.truncate(v, i);
      set_reads_from(out, id, out.mo_max(e.loc));
      out.at(id).added_max = true;
      repaired.push_back(id);
    }
  }
  return true;
}

// One walk from the empty graph to the target piece (nullptr: the root), below it as the mode
// says. See the members' comment in trust.hpp.
void explorer::walk(const piece* target, walk_mode& mode) {
  static const piece root;
  target_ = target != nullptr ? target : &root;
  mode_ = &mode;
  const bool at_root = target_->path.empty();
  inside_ = mode.explores() && at_root;
  reached_ = at_root;
  depth_ = 0;
  weight_ = 1;
  at_.assign(2, level{});
  if (at_root)
    at_[1] = {0, undrawn, 0, 0, target_->from};
  else
    at_[1] = {0, target_->path[0], target_->path[0] + std::size_t{1}, 0, 0};
  ex_.add_choice_free_with(this);  // operations without a choice are added as posted
  if (ex_.restart(graph{}, consistency_checker(opt_.model)))
    visit();
  else
    report(ex_.error()->kind, ex_.error()->message);
  ex_.teardown();
  ex_.add_choice_free_with(nullptr);
  inside_ = true;
  mode_ = &whole_tree_;
}

result explorer::finish(std::chrono::steady_clock::time_point t0) {
  res_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res_.first_bound = first_bound_;
  if (!res_.bug && res_.complete == 0 && res_.bound_hits > 0 && first_bound_) {
    first_bound_->message = "no execution completed: " + first_bound_->message;
    res_.bug = first_bound_;
  }
  return res_;
}

// The driver: a token replay, or the exploration from the empty graph; then the result.
result explorer::run() {
  const auto t0 = std::chrono::steady_clock::now();
  if (!opt_.replay.empty()) {
    const auto plan = decode_token(opt_.replay);
    if (!plan) {
      res_.bug = bug_report{error_kind::bad_replay, "malformed replay token", "", "", ""};
    } else {
      replay(*plan);
    }
    ex_.teardown();
  } else {
    walk(nullptr, whole_tree_);
  }
  return finish(t0);
}

result explorer::sample(std::uint64_t executions, std::uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t stream = seed;
  // a walk may end in a dead end (a drawn alternative with no execution below it): draw
  // again, at most 16 walks per execution asked for
  for (std::uint64_t walks = 0; res_.executions() < executions && walks < 16 * executions && !stop_;
       ++walks) {
    random_walk random(splitmix64_next(stream), true);
    walk(nullptr, random);
  }
  res_.sampled = true;
  return finish(t0);
}

result explorer::run_pieces(piece_source& source, const std::function<void(std::uint64_t)>& done) {
  const auto t0 = std::chrono::steady_clock::now();
  sharing_walk sharing(source);
  piece p;
  while (!stop_ && source.next(p)) {
    const std::uint64_t before = res_.executions();
    walk(&p, sharing);
    source.finished();
    if (done) done(res_.executions() - before);
  }
  return finish(t0);
}

// The ordinal taken at each depth above is that depth's last call (as give_away reads it).
void explorer::count_execution() {
  std::uint32_t at = 0;
  ++trie_[0].executions;
  for (std::size_t d = 1; d <= std::min(depth_, count_depth_); ++d) {
    const std::size_t k = at_[d].calls - 1;
    if (trie_[at].children.size() <= k) trie_[at].children.resize(k + 1, 0);
    std::uint32_t next = trie_[at].children[k];
    if (next == 0) {
      next = static_cast<std::uint32_t>(trie_.size());
      trie_[at].children[k] = next;
      trie_.emplace_back();
    }
    at = next;
    ++trie_[at].executions;
  }
}

std::map<piece_path, std::uint64_t> explorer::node_counts() const {
  std::map<piece_path, std::uint64_t> out;
  if (trie_.empty()) return out;
  piece_path path;
  const auto visit_node = [&](const auto& self, std::uint32_t at) -> void {
    out.emplace(path, trie_[at].executions);
    for (std::size_t k = 0; k < trie_[at].children.size(); ++k) {
      if (trie_[at].children[k] == 0) continue;
      path.push_back(static_cast<std::uint32_t>(k));
      self(self, trie_[at].children[k]);
      path.pop_back();
    }
  };
  visit_node(visit_node, 0);
  return out;
}

dive_sample explorer::dive(const piece& p, std::uint64_t seed) {
  const result saved = res_;
  const std::optional<bug_report> saved_bound = first_bound_;
  est_complete_ = est_blocked_ = 0;
  random_walk random(seed | 1, false);  // (seed | 1: the stream every division is built from)
  walk(&p, random);
  dive_sample out;
  out.complete = est_complete_;
  out.blocked = est_blocked_;
  const std::size_t below = p.path.size() + 1;
  out.reached = reached_;
  out.children = reached_ && at_.size() > below ? static_cast<std::uint32_t>(at_[below].calls) : 0;
  res_ = saved;  // a dive only measures: what it met is no result
  first_bound_ = saved_bound;
  stop_ = false;
  return out;
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
