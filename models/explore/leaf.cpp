// models/explore/leaf.cpp: what happens when an execution ends: classification (complete, blocked,
// deadlock), the end-of-execution checks (data races, use-after-free races, leaks), bug
// reports.
#include <string>

#include "stealcheck/detail/models/explore/trust.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/report/cause.hpp"
#include "stealcheck/detail/models/report/report.hpp"

namespace stealcheck::model::detail {

void explorer::report(error_kind k, const std::string& message,
                      const std::vector<event_id>& focus) {
  if (stop_) return;
  stop_ = true;
  if (!ex_.error()) stealcheck_bug_hit(std::string(error_name(k)).c_str(), message.c_str());
  bug_report b;
  b.kind = k;
  b.failure = ex_.error() && ex_.error()->kind == k && ex_.error()->failure ? ex_.error()->failure
                                                                            : failure_of(k);
  b.message = message;
  const cause why = explain(ex_.g, ex_.operations, k, focus);
  b.trace = trace(ex_.g, ex_.operations, opt_.full_trace, why);
  b.dot = dot(ex_.g, ex_.operations, opt_.full_trace, why);
  b.replay_token = encode_token(ex_.g);
  res_.bug = std::move(b);
}

// Data races between non-atomic accesses, and accesses racing with the free of their
// location. Returns false after reporting a bug.
bool explorer::check_final(bool complete) {
  // Most executions have nothing to report: no non-atomic access, every access to a freed
  // location hb-before its free (the run tracks both as it records events and frees);
  // otherwise the ordered search below finds the bug to report (the same one as always: by
  // location, races first).
  if (!ex_.memory_bug_possible()) return check_leaks(complete);
  const hb_clocks* h = ex_.checker.hb(ex_.g);
  if (h == nullptr) return true;  // unreachable for consistent graphs
  const hb_clocks& c = *h;
  const graph& g = ex_.g;
  // Only locations with a non-atomic access or a free can report anything: collect those.
  auto& wanted = final_scratch_.wanted;
  wanted.assign(g.locs.size(), 0);
  for (const auto& th : g.threads)
    for (const event& e : th)
      if (is_na(e)) wanted[e.loc] = 1;
  for (std::size_t l = 0; l < g.locs.size(); ++l)
    if (ex_.mem.freed_by_any(l).valid()) wanted[l] = 1;
  auto& by_loc = final_scratch_.by_loc;
  if (by_loc.size() < g.locs.size()) by_loc.resize(g.locs.size());
  for (std::size_t l = 0; l < g.locs.size(); ++l)
    by_loc[l].clear();
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if ((is_access(e) || is_na(e)) && wanted[e.loc] != 0)
        by_loc[e.loc].push_back({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)});
    }
  for (std::size_t l = 0; l < g.locs.size(); ++l) {
    if (wanted[l] == 0) continue;
    const auto& v = by_loc[l];
    for (std::size_t a = 0; a < v.size(); ++a) {
      const event& ea = g.at(v[a]);
      if (!is_na(ea)) continue;
      for (std::size_t b = a + 1; b < v.size(); ++b) {
        const event& eb = g.at(v[b]);
        if (ea.kind != event_kind::na_write && eb.kind != event_kind::na_write) continue;
        if (c.hb(v[a], v[b]) || c.hb(v[b], v[a])) continue;
        report(error_kind::data_race,
               "data race on " + location_name(g, static_cast<std::uint32_t>(l)) + " between " +
                   event_line(g, v[a]) + " and " + event_line(g, v[b]),
               {v[a], v[b]});
        return false;
      }
    }
    if (const event_id f = ex_.mem.freed_by_any(l); f.valid())
      for (const event_id a : v)
        if (!c.hb_eq(a, f)) {
          report(error_kind::use_after_free,
                 "access " + event_line(g, a) + " is not ordered before the free at " +
                     event_name(g, f),
                 {a, f});
          return false;
        }
  }
  return check_leaks(complete);
}

// At the end of a complete execution, every model allocation must have been destroyed.
bool explorer::check_leaks(bool complete) {
  if (complete)
    for (const alloc_record& a : ex_.mem.allocations())
      if (a.live) {
        report(error_kind::leak, "leak: the allocation at " + event_name(ex_.g, a.alloc_event) +
                                     " (" + std::to_string(a.bytes) + " bytes) is never destroyed");
        return false;
      }
  return true;
}

void explorer::leaf() {
  if (!inside_ && mode_->explores()) return;  // on the way to a piece: not one of its executions
  bool complete = true;
  bool bound = false;
  bool mutex = false;
  std::size_t bound_thread = 0;
  // A wait that read the value it waits on is stuck for good when the location's last write
  // still holds that value; it is a deadlock only if no other thread is blocked where a later
  // write could let it go on (a stale read, a false spin_assume, the bound): that thread might
  // still make the change, and the execution where it does is explored on its own.
  bool any_stale = false;
  std::size_t stuck_thread = 0;
  const event* stuck = nullptr;
  for (std::size_t t = 0; t < ex_.threads.size(); ++t) {
    const model_thread& th = *ex_.threads[t];
    if (th.finished) continue;
    complete = false;
    if (!th.blocked) continue;  // waits in a join
    if (th.why == block_reason::bound && !bound) {
      bound = true;
      bound_thread = t;
    }
    if (th.why == block_reason::assume || th.why == block_reason::bound) any_stale = true;
    if (th.why == block_reason::mutex || th.why == block_reason::wait) {
      mutex = mutex || th.why == block_reason::mutex;
      const auto& evs = ex_.g.threads[t];
      const event& read = evs[evs.size() - 2];
      const std::uint64_t last = ex_.g.at(ex_.g.mo_max(read.loc)).value;
      if (th.why == block_reason::mutex && last != 0) {
        report(error_kind::deadlock, "deadlock: thread " + std::to_string(t) +
                                         " waits forever for the mutex " +
                                         location_name(ex_.g, read.loc));
        return;
      }
      const bool for_good = th.why == block_reason::wait && last == read.value;
      any_stale = any_stale || !for_good;
      if (for_good && stuck == nullptr) {
        stuck = &read;
        stuck_thread = t;
      }
    }
  }
  if (stuck != nullptr && !any_stale) {
    report(error_kind::deadlock,
           "deadlock: thread " + std::to_string(stuck_thread) + " waits forever on " +
               location_name(ex_.g, stuck->loc) + ", whose last value " +
               std::to_string(static_cast<std::int64_t>(stuck->value)) +
               " is the one it waits to change (a lost wake-up)",
           {{static_cast<std::int32_t>(stuck_thread),
             static_cast<std::int32_t>(ex_.g.size(stuck_thread)) - 2}});
    return;
  }
  if (!check_final(complete)) return;
  if (opt_.progress != nullptr && mode_->explores())
    opt_.progress->fetch_add(1, std::memory_order_relaxed);  // a counter for a display only
  if (complete) {
    ++res_.complete;
    est_complete_ += weight_;  // a dive's (1 otherwise)
    if (opt_.on_complete && mode_->explores()) opt_.on_complete(ex_.g, ex_.checker);
  } else {
    ++res_.blocked;
    est_blocked_ += weight_;
    if (!bound) {
      ++(mutex ? res_.blocked_mutex : res_.blocked_assume);
    } else {
      ++res_.bound_hits;
      if (!first_bound_) {
        const char* op = ex_.threads[bound_thread]->operation;
        const bool writes = loop_writes(ex_.g, bound_thread);
        res_.blocked_note =
            (op != nullptr
                 ? "thread " + std::to_string(bound_thread) + "'s " + op + " never returned: "
                 : "thread " + std::to_string(bound_thread) + " ") +
            "reached the bound of " + std::to_string(ex_.config().max_events_per_thread) +
            " events (options::max_events_per_thread) in a loop that " +
            (writes ? "writes as it goes (a store or RMW each time round: no spin that waits)"
                    : "only reads (a spin waiting for another thread)") +
            (op != nullptr ? "; every result returned before it was judged legal as it returned"
                           : "");
        bug_report b;
        b.kind = error_kind::bound_exceeded;
        b.failure = failure_kind::no_progress;
        b.loop_writes = writes;
        b.message = res_.blocked_note;
        b.trace = loop_trace(ex_.g, bound_thread);
        b.dot = dot(ex_.g);
        b.replay_token = encode_token(ex_.g);
        first_bound_ = std::move(b);
      }
    }
  }
  if (mode_->explores()) {
    if (!trie_.empty()) count_execution();
    mode_->after_execution();
  }
  if (opt_.max_executions != 0 && res_.executions() >= opt_.max_executions) {
    res_.limit_reached = true;
    stop_ = true;
  }
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
