// models/runtime/runtime.cpp: one run's replay cursor, commit of events, their memory and its
// locations, posting operations and blocking (see runtime.hpp). The fibers are in fibers.cpp,
// the event makers in events.cpp.
#include "stealcheck/detail/models/runtime/runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <new>
#include <string>

#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/report/report.hpp"
#include "stealcheck/detail/models/runtime/events.hpp"

// verdict.hpp: the debugger's breakpoint. noinline and an empty asm: the call is never
// optimized away, so `break stealcheck_bug_hit` always stops.
extern "C" [[gnu::noinline]] void stealcheck_bug_hit(const char* kind,
                                                     const char* message) noexcept {
  asm volatile("" : : "r"(kind), "r"(message) : "memory");
}

namespace stealcheck::model::detail {

constinit thread_local execution* tls_current_execution = nullptr;

void execution::reset_run() {
  recycle_threads();
  threads.push_back(fresh_thread());
  threads[0]->body = main_body_;
  if (g.threads.empty()) {
    g.threads.resize(1);
    g.info.resize(1);
  }
  // sized for the recorded graph's locations at once (grown for new ones)
  mem.reset(g.locs.size());
  operations.clear();
  na_recorded_ = false;
  late_access_ = false;
}

void execution::advance(std::size_t t) {
  model_thread& th = *threads[t];
  if (th.finished || th.blocked || th.has_op || error_) return;
  if (!th.started) start_fiber(t);
  switch_to_fiber(t);
}

bool execution::replay_ready(std::size_t t) const {
  const model_thread& th = *threads[t];
  const event& e = g.threads[t][th.cursor];
  if (is_read(e)) {
    const event_id rf = e.rf;
    if (!g.contains(rf)) return false;
    const auto u = static_cast<std::size_t>(rf.thread);
    return u == t ||
           (u < threads.size() && static_cast<std::size_t>(rf.index) < threads[u]->cursor);
  }
  if (e.kind == event_kind::join) return e.aux < threads.size() && threads[e.aux]->finished;
  return true;
}

bool execution::mismatch(std::size_t t, std::size_t c) {
  const pending_op& op = threads[t]->op;
  const event& e = g.threads[t][c];
  error_ = error_state{error_kind::nondeterminism,
                       "re-execution of thread " + std::to_string(t) + " diverged at event " +
                           std::to_string(c) + " (" + std::string(kind_name(e.kind)) + " vs op " +
                           std::to_string(static_cast<int>(op.kind)) + " loc " +
                           std::to_string(e.loc) + "/" + std::to_string(op.loc) + ")" +
                           "): the client must be deterministic given the values it reads"};
  return true;
}

// The event kind each operation is recorded as (indexed by op_kind).
constexpr event_kind recorded_kind[] = {
    event_kind::read,   // load
    event_kind::write,  // store
    event_kind::read,   // rmw (its read part)
    event_kind::read,   // cas
    event_kind::fence,  // fence
    event_kind::join,   // join
    event_kind::read,   // lock (a CAS)
};
static_assert(std::size(recorded_kind) == static_cast<std::size_t>(op_kind::lock) + 1);

bool execution::commit(std::size_t t) {
  model_thread& th = *threads[t];
  pending_op& op = th.op;
  auto& evs = g.threads[t];
  std::size_t c = th.cursor;
  event& e = evs[c];
  if (th.half_rmw) {  // the read part was committed by an earlier replay
    if (c == 0 || !(e.kind == event_kind::write && e.rmw)) return mismatch(t, c);
    const event& r = evs[c - 1];
    e.value = rmw_result(r, r.value, g.locs[r.loc].width);
    mem.last_written(e.loc) = e.value;
    op.result = r.value;
    op.ok = true;
    th.cursor = c + 1;
    th.has_op = false;
    th.half_rmw = false;
    return true;
  }
  if (e.kind != recorded_kind[static_cast<std::size_t>(op.kind)] ||
      (is_access(e) && e.loc != op.loc))
    return mismatch(t, c);
  bool ok = false;
  if (e.kind == event_kind::read) {
    e.value = g.at(e.rf).value;
    op.result = e.value;
    ok = op.kind == op_kind::rmw ||
         (op.kind != op_kind::load && !e.spurious && e.value == e.expected);
    if (e.op == rmw_op::cas) e.cas_ok = ok;
    ++c;
    if (ok) {
      if (c == evs.size()) {
        th.cursor = c;
        th.half_rmw = true;
        return false;
      }
      event& w = evs[c];
      if (!(w.kind == event_kind::write && w.rmw)) return mismatch(t, c);
      w.value = rmw_result(e, e.value, g.locs[e.loc].width);
      mem.last_written(e.loc) = w.value;
      ++c;
    } else if (c < evs.size() && evs[c].kind == event_kind::write && evs[c].rmw) {
      return mismatch(t, c);
    }
  } else if (e.kind == event_kind::write) {
    e.value = op.value;
    mem.last_written(e.loc) = e.value;
    ++c;
  } else {
    ++c;
  }
  op.ok = ok;
  th.cursor = c;
  th.has_op = false;
  th.half_rmw = false;
  return true;
}

bool execution::restart(graph target, consistency_checker target_checker) {
  teardown();
  g = std::move(target);
  checker = std::move(target_checker);
  return rerun();
}

bool execution::rerun() {
  teardown();
  reset_run();
  // Replayed threads post their first new operation and stop there, eager or not: the
  // explorer adds it (a load without a choice the way add_choice_free would).
  choice_free_adder* const was_eager = eager_;
  eager_ = nullptr;
  const bool ok = replay_recorded();
  eager_ = was_eager;
  return ok;
}

bool execution::replay_recorded() {
  for (;;) {
    bool pending = false;
    bool progress = false;
    for (std::size_t t = 0; t < threads.size() && !error_; ++t) {
      model_thread& th = *threads[t];
      const std::size_t len = t < g.threads.size() ? g.threads[t].size() : 0;
      while (th.cursor < len && !error_) {
        if (!th.has_op) {
          const std::size_t before = th.cursor;
          advance(t);
          if (th.cursor != before) progress = true;
          if (!th.has_op) break;  // finished or blocked: checked below
          if (th.cursor >= len) break;
        }
        if (!replay_ready(t)) break;
        commit(t);
        progress = true;
        if (th.half_rmw) break;
      }
      if (th.cursor < len) pending = true;
    }
    if (error_) return false;
    if (!pending) return true;
    if (!progress) {
      error_ = error_state{error_kind::nondeterminism,
                           "re-execution could not replay the recorded graph (a thread finished "
                           "or blocked early): the client must be deterministic"};
      return false;
    }
  }
}

event_id execution::free_event(event e) {
  model_thread& th = me();
  const std::size_t t = current_;
  const std::size_t len = t < g.threads.size() ? g.threads[t].size() : 0;
  if (th.cursor < len) {
    if (!replay_free(e.kind, e.loc, e.value, e.aux))
      fail(error_kind::nondeterminism, "re-execution of thread " + std::to_string(t) +
                                           " diverged at event " + std::to_string(th.cursor) +
                                           ": the client must be deterministic");
    return {static_cast<std::int32_t>(t), static_cast<std::int32_t>(th.cursor - 1)};
  }
  if (len >= cfg_.max_events_per_thread && e.kind != event_kind::block && e.kind != event_kind::end)
    block(block_reason::bound);
  const event_id id = g.append(t, e);
  ++th.cursor;
  if (e.kind == event_kind::init) g.mo[e.loc].push_back(id);
  na_recorded_ = na_recorded_ || is_na(e);
  return id;
}

std::uint64_t execution::post(const pending_op& op) {
  model_thread& th = me();
  const std::size_t len = g.threads[current_].size();
  // at the bound, new or replayed: a re-execution meets the recorded block event here
  // It may be in a destructor (an RAII unlock), where unwinding would terminate: it blocks
  // here until teardown and then runs on like a fiber suspended in post() (unwind_if_due).
  if (th.cursor >= cfg_.max_events_per_thread) {
    block_until_teardown(block_reason::bound);
    return 0;  // the caller answers with the teardown value (th.unwind_due)
  }
  th.op = op;
  th.has_op = true;
  // Replaying a recorded event whose reads-from is replayed already: commit it right here,
  // without the two fiber switches through the explorer (most of a re-execution's cost).
  // An RMW whose write part is not recorded yet (commit returns false) goes to the explorer.
  if (th.cursor < len && !th.half_rmw && replay_ready(current_) && commit(current_)) {
    if (error_) park();  // a mismatch: the re-execution stops (rerun reports it)
    return th.op.result;
  }
  // A new load, store or fence without a choice: recorded right here by the explorer
  // (add_choice_free), without the switch.
  if (eager_ != nullptr && th.cursor == len && eager_->add_choice_free(current_))
    return th.op.result;
  switch_to_main(false, /*in_post=*/true);
  return th.op.result;  // the caller replaces it when th.unwind_due (a teardown)
}

void execution::teardown_op_made() {
  const std::uint64_t budget = std::uint64_t{64} * cfg_.max_events_per_thread;
  if (++me().teardown_ops <= budget) return;
  std::fprintf(stderr,
               "stealcheck: error: thread %zu did not finish unwinding within %llu operations: a "
               "destructor run while the checker abandons an unfinished execution loops over "
               "its state (destructors must tolerate a torn state, e.g. walk top..bottom by "
               "distance, not by i != bottom)\n",
               current_, static_cast<unsigned long long>(budget));
  std::fflush(stderr);
  std::_Exit(2);
}

void execution::fail(error_kind k, std::string message, std::optional<failure_kind> failure) {
  if (!error_ && !tearing_down_) {
    error_ = error_state{k, std::move(message), failure};
    stealcheck_bug_hit(std::string(error_name(k)).c_str(), error_->message.c_str());
  }
  park();
}

void execution::record_block(block_reason why) {
  model_thread& th = me();
  event e;
  e.kind = event_kind::block;
  e.aux = static_cast<std::uint32_t>(why);
  if (!tearing_down_) free_event(e);
  th.blocked = true;
  th.why = why;
}

void execution::block(block_reason why) {
  record_block(why);
  park();
}

void execution::block_until_teardown(block_reason why) {
  record_block(why);
  do
    switch_to_main(false, /*in_post=*/true);
  while (!me().unwind_due);
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
