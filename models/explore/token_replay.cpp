// models/explore/token_replay.cpp: re-running exactly the execution a replay token describes.
//
// The client runs with the token's choices: a read takes the write the token names (once
// that write exists), a write is placed by its final mo rank. Threads run in the usual
// deterministic order, skipping a read whose write is not there yet. Every forced choice is
// checked for consistency (RC11 or SC, as explored) before its value reaches the client:
// the events added so far form a porf-closed prefix of the token's execution, and RC11 and
// SC are closed under such prefixes, so an inconsistent prefix means the token does not
// describe an execution of this program (a stale token after a fix, another client's token).
// The first such choice is reported as bad_replay, naming the read or write. The resulting
// graph is judged like any explored execution.
#include <string>

#include "stealcheck/detail/models/explore/trust.hpp"
#include "stealcheck/detail/models/graph/consistency.hpp"
#include "stealcheck/detail/models/report/report.hpp"
#include "stealcheck/detail/models/runtime/events.hpp"

namespace stealcheck::model::detail {

namespace {
std::size_t choices_so_far(const graph& g, std::size_t t) {
  std::size_t n = 0;
  for (const event& e : g.threads[t])
    if (e.kind == event_kind::read || e.kind == event_kind::write) ++n;
  return n;
}
}  // namespace

void explorer::replay(const replay_plan& plan) {
  if (!ex_.restart(graph{}, consistency_checker(opt_.model))) {
    report(ex_.error()->kind, ex_.error()->message);
    return;
  }
  while (!stop_ && replay_step(plan)) {
  }
}

bool explorer::replay_step(const replay_plan& plan) {
  auto bad = [&](const std::string& why) {
    report(error_kind::bad_replay, "replay token does not fit this client: " + why);
    return false;
  };
  // A forced choice the memory model does not allow: the event and the choice, named.
  auto forbidden = [&](event_id id, const std::string& choice_made) {
    return bad(event_line(ex_.g, id) + ": " + choice_made + " is not allowed by " +
               std::string(model_name(opt_.model)) +
               " (the token is of another program, or of this one before a change)");
  };
  // The mo position of a write ranked `rank` among the writes to loc so far (unranked ones,
  // the init writes, rank 0).
  auto position = [&](const graph& g, std::uint32_t loc, std::uint32_t rank) {
    std::size_t pos = 0;
    for (const event_id x : g.mo[loc]) {
      const auto it = ranks_.find({x.thread, x.index});
      const std::uint32_t rx = it == ranks_.end() ? 0 : it->second;
      if (rx < rank) ++pos;
    }
    return pos;
  };
  auto place = [&](graph& g, event_id w, std::uint32_t rank) {
    ranks_[{w.thread, w.index}] = rank;
    g.mo_insert(w, position(g, g.at(w).loc, rank));
  };
  auto mo_last = [&](const graph& g, std::uint32_t loc, std::uint32_t rank) {
    return loc < g.mo.size() && position(g, loc, rank) == g.mo[loc].size();
  };
  auto choice = [&](std::size_t t, std::size_t k) -> std::optional<replay_choice> {
    if (t >= plan.size() || k >= plan[t].size()) return std::nullopt;
    return plan[t][k];
  };
  for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
    for (;;) {
      ex_.advance(t);  // every thread to its next operation (or its end)
      if (ex_.error()) {
        report(ex_.error()->kind, ex_.error()->message);
        return false;
      }
      // As the exploration does (add_choice_free: eager_load, eager_store, eager_fence): a fence,
      // a load with one coherent write, a store with one coherent mo position and no read to
      // revisit are added as soon as they are posted, when the token makes the same choice
      // (the write it names; a rank that places the store mo-last).
      if (!ex_.threads[t]->has_op) break;
      if (eager_fence(t)) continue;
      const auto c = choice(t, choices_so_far(ex_.g, t));
      if (!c) break;
      if (c->read) {
        if (!eager_load(t, c->rf)) break;
        continue;
      }
      const std::size_t w = ex_.g.threads[t].size();
      if (!mo_last(ex_.g, ex_.threads[t]->op.loc, c->rank) || !eager_store(t)) break;
      ranks_[{static_cast<std::int32_t>(t), static_cast<std::int32_t>(w)}] = c->rank;
    }
  }
  // A token taken when a check failed while other threads still ran ends early for them: a
  // thread whose next read or write the token does not hold waits there, the others go on,
  // and the failure recurs before every thread is waiting.
  std::size_t next = ex_.threads.size();
  bool token_ended = false;
  for (std::size_t t = 0; t < ex_.threads.size() && next == ex_.threads.size(); ++t) {
    if (ex_.threads[t]->half_rmw) {
      const auto c = choice(t, choices_so_far(ex_.g, t));
      if (!c || c->read) return bad("missing write part in thread " + std::to_string(t));
      const auto& evs = ex_.g.threads[t];
      if (evs.empty()) return bad("no read part in thread " + std::to_string(t));
      const event part = make_write_part(ex_.g, evs[evs.size() - 1]);
      const event_id wid = ex_.g.append(t, part);
      place(ex_.g, wid, c->rank);
      if (!ex_.checker.consistent(ex_.g)) return forbidden(wid, "its recorded place in mo");
      ex_.commit(t);
      return true;
    }
    const model_thread& th = *ex_.threads[t];
    if (!th.has_op) continue;
    if (th.op.kind == op_kind::join && !ex_.threads[th.op.aux]->finished) continue;
    if (th.op.kind == op_kind::store && !choice(t, choices_so_far(ex_.g, t))) {
      token_ended = true;
      continue;
    }
    if (th.op.kind != op_kind::store && th.op.kind != op_kind::fence &&
        th.op.kind != op_kind::join) {
      const auto c = choice(t, choices_so_far(ex_.g, t));
      if (!c) {
        token_ended = true;
        continue;
      }
      if (!c->read) return bad("thread " + std::to_string(t) + " has more reads");
      if (!ex_.g.contains(c->rf)) continue;
    }
    next = t;
  }
  if (next == ex_.threads.size()) {
    if (token_ended)
      return bad(
          "the token ends before the execution does, and the failure it was taken at "
          "did not recur");
    // a join that waits for a blocked thread (a false spin_assume, the bound) is stuck as the
    // exploration leaves it: the execution ends blocked and is judged; any other pending
    // operation here is a read whose write never came
    for (const auto& th : ex_.threads)
      if (th->has_op && th->op.kind != op_kind::join) return bad("a read's write never appears");
    if (!ex_.checker.consistent(ex_.g)) return bad("the execution is not consistent");
    leaf();
    return false;
  }
  const std::size_t t = next;
  const pending_op op = ex_.threads[t]->op;
  const std::size_t k = choices_so_far(ex_.g, t);
  if (op.kind == op_kind::fence || op.kind == op_kind::join) {
    ex_.g.append(t, make_fence_or_join(op));
  } else if (op.kind == op_kind::store) {
    const auto c = choice(t, k);
    if (!c || c->read) return bad("thread " + std::to_string(t) + " has more writes");
    const event_id wid = ex_.g.append(t, make_store(op, /*last=*/true));
    place(ex_.g, wid, c->rank);
    if (!ex_.checker.consistent(ex_.g)) return forbidden(wid, "its recorded place in mo");
  } else {
    const auto c = choice(t, k);
    const event& src = ex_.g.at(c->rf);
    if (!is_write(src) || src.loc != op.loc) return bad("a read names a write elsewhere");
    event r = make_read(op);
    r.spurious = c->spurious;
    const event_id rid = ex_.g.append(t, r);
    set_reads_from(ex_.g, rid, c->rf);
    if (!ex_.checker.consistent(ex_.g))
      return forbidden(rid, "reading from " + event_name(ex_.g, c->rf) + " there");
    const event& re = ex_.g.at(rid);
    if (re.rmw || (re.op == rmw_op::cas && re.cas_ok)) {
      const auto cw = choice(t, k + 1);
      if (!cw || cw->read) return bad("missing RMW write part");
      const event_id wid = ex_.g.append(t, make_write_part(ex_.g, ex_.g.at(rid)));
      place(ex_.g, wid, cw->rank);
      if (!ex_.checker.consistent(ex_.g)) return forbidden(wid, "its recorded place in mo");
    }
  }
  ex_.commit(t);
  return true;
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
