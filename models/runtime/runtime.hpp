// models/runtime/runtime.hpp: one run of the client program: model threads as fibers (fibers.cpp),
// the replay cursor that re-executes the recorded graph, bookkeeping events; the run's
// locations and allocations are a run_memory (run_memory.hpp).
//
// Each run starts the real C++ client from the beginning (stateless model checking). Threads
// are Boost.Context fibers on the explorer's OS thread. A model thread runs until its next
// atomic operation, which it *posts* (a pending_op) before switching back; the explorer then
// decides the operation's event (reads-from, mo position) and `commit`s it from the graph.
// Operations that carry no choice (location initialisation, non-atomic accesses, spawn,
// allocation, free, blocking) are recorded directly by the fiber ("free events").
// When the graph already holds a thread's next events (a replay), they are matched instead
// of added; a mismatch is a nondeterminism error.
//
// Thread role: the explorer's OS thread only. Complexity: O(1) per event plus a fiber switch.
// Source: re-execution with recorded choices as in GenMC (Kokologiannakis et al., POPL 2022,
// section 6) and CDSChecker (Norris, Demsky, OOPSLA 2013).
#pragma once

#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/graph/consistency.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/report/verdict.hpp"
#include "stealcheck/detail/models/runtime/run_memory.hpp"
#include "stealcheck/detail/models/runtime/runtime_api.hpp"

namespace stealcheck::model::detail {

enum class op_kind : std::uint8_t { load, store, rmw, cas, fence, join, lock };

struct pending_op {
  op_kind kind = op_kind::fence;
  std::memory_order order = std::memory_order_relaxed;
  std::memory_order fail_order = std::memory_order_relaxed;
  rmw_op op = rmw_op::none;
  bool weak = false;
  std::uint32_t loc = 0;
  std::uint32_t aux = 0;       ///< join: the thread
  std::uint64_t value = 0;     ///< store value, RMW operand, CAS desired
  std::uint64_t expected = 0;  ///< CAS expected
  source_loc src;
  std::uint64_t result = 0;  ///< filled by commit: value read (old value for RMWs)
  bool ok = false;           ///< filled by commit: CAS / lock succeeded
};

struct model_thread {
  std::function<void()> body;
  boost::context::fiber fib;
  boost::context::fiber sink;
  bool started = false;
  bool finished = false;
  bool blocked = false;
  block_reason why = block_reason::assume;
  bool has_op = false;
  bool half_rmw = false;  ///< read part committed, write part still to be added
  pending_op op;
  std::size_t cursor = 0;  ///< next graph event of this thread to match
  std::uint32_t loc_counter = 0;
  bool unwinding = false;          ///< teardown: the next switch into the fiber unwinds its stack
  bool unwind_due = false;         ///< teardown resumed it in post(): see unwind_if_due
  std::uint64_t teardown_ops = 0;  ///< operations made while it is unwound (teardown_op_made)
  void* stack_base = nullptr;      ///< for sanitizer fiber annotations
  std::size_t stack_size = 0;
  void* asan_fake = nullptr;
  void* tsan_fiber = nullptr;
  const char* operation = nullptr;  ///< the client operation it is in (client::operation)
};

/// Thrown inside a fiber to unwind it when a run is abandoned (never escapes the fiber).
struct unwind_request {};

struct error_state {
  error_kind kind = error_kind::assertion;
  std::string message;
  std::optional<failure_kind> failure{};  ///< named by the failed check (client::check), if any
};

struct progress_slot;  // models/runtime/watchdog.hpp

/// What records a thread's new operation that has no choice (a load with one coherent write,
/// a store with one coherent mo position and nothing to revisit, a fence) the moment the
/// thread posts it, without a switch to the explorer: the explorer (trust.hpp).
class choice_free_adder {
 public:
  /// Whether thread t's pending operation was recorded and committed.
  virtual bool add_choice_free(std::size_t t) = 0;

 protected:
  ~choice_free_adder() = default;
};

struct run_config {
  memory_model model = memory_model::rc11;
  std::uint32_t max_events_per_thread = 1000;
  std::vector<std::pair<std::string, std::memory_order>> sites;
};

class execution {
 public:
  explicit execution(run_config cfg, std::function<void()> main_body);
  ~execution();
  execution(const execution&) = delete;
  execution& operator=(const execution&) = delete;

  graph g;
  /// g's consistency checker: it owns g's hb clocks and psc ranks (consistency.hpp), and is
  /// told of every edit of g that is not an append.
  consistency_checker checker;
  std::vector<std::unique_ptr<model_thread>> threads;
  /// The error that ended the current run (a model thread's bug, a nondeterministic replay).
  const std::optional<error_state>& error() const noexcept { return error_; }
  const run_config& config() const noexcept { return cfg_; }

  /// Abandons the current run and starts a new one that re-executes `target` completely;
  /// `target_checker` is target's checker. Returns false on nondeterminism or an error during
  /// the replay (see `error`).
  bool restart(graph target, consistency_checker target_checker);
  /// As restart, re-executing the current graph `g`.
  bool rerun();
  /// Set while the explorer explores (not while it follows a replay token; nullptr then):
  /// post() offers each new operation to `a` first, which may record it without a switch to
  /// the explorer (explorer::add_choice_free).
  void add_choice_free_with(choice_free_adder* a) noexcept { eager_ = a; }
  /// Runs thread t until it posts an operation, finishes, blocks, or fails.
  void advance(std::size_t t);
  /// Delivers t's pending operation from the graph events at its cursor. Returns false if
  /// it is an RMW whose write part is not in the graph yet (half_rmw is set).
  bool commit(std::size_t t);
  /// Whether t's pending operation at the cursor can be replayed now (its rf is replayed).
  bool replay_ready(std::size_t t) const;
  /// Unwinds every fiber and frees this run's storage.
  void teardown();
  /// The stall watchdog's view of this exploration (nullptr: not watched, as in a replay).
  progress_slot* watched() const noexcept { return watched_; }
  void watch(progress_slot* s) noexcept { watched_ = s; }
  /// Whether this run recorded a non-atomic access (a data race is possible), or a free found
  /// an access to a location it freed that is not hb-before it (note_late_access, from
  /// rt_free_end; accesses made after a free fail at once). The end-of-execution check
  /// searches for a bug only then (explorer::check_final).
  bool memory_bug_possible() const noexcept { return na_recorded_ || late_access_; }
  bool late_access() const noexcept { return late_access_; }
  void note_late_access() noexcept { late_access_ = true; }

  // ---- called from fibers (runtime_api.cpp) ----
  /// The model thread running now (0 between runs and in the explorer).
  std::size_t current() const noexcept { return current_; }
  /// Whether the run is being torn down: operations then get answers without events.
  bool tearing_down() const noexcept { return tearing_down_; }
  run_memory mem;  ///< locations' addresses, frees and last values; model allocations
  /// The client's operations of this run, if it described them (client::describe_operations).
  std::vector<operation_span> operations;

  event_id free_event(event e);
  /// A bookkeeping event with no location or value (spawn, end, alloc, free) of the calling
  /// fiber: in a replay matched in place (no event built or copied), else free_event.
  event_id record(event_kind k, std::uint32_t aux) {
    if (replay_free(k, 0, 0, aux))
      return {static_cast<std::int32_t>(current_),
              static_cast<std::int32_t>(threads[current_]->cursor - 1)};
    event e;
    e.kind = k;
    e.aux = aux;
    return free_event(e);
  }
  /// The alloc event of an array (create_array): `value` its element count, `operand` its
  /// name (a const char*, 0 when unnamed), `src` where it was made; replayed as record's.
  event_id record_array(std::uint32_t aux, std::uint64_t count, const char* name, source_loc src) {
    if (replay_free(event_kind::alloc, 0, count, aux))
      return {static_cast<std::int32_t>(current_),
              static_cast<std::int32_t>(threads[current_]->cursor - 1)};
    event e;
    e.kind = event_kind::alloc;
    e.aux = aux;
    e.value = count;
    e.operand = reinterpret_cast<std::uintptr_t>(name);
    e.src = src;
    return free_event(e);
  }
  /// The calling fiber's operation: its result once the explorer commits it. At the event
  /// bound the thread blocks (block_reason::bound) until teardown, then returns with
  /// unwind_due set (block_until_teardown).
  std::uint64_t post(const pending_op& op);
  /// Replay fast paths of the calling fiber (most of a re-execution's operations): when its
  /// next recorded event is exactly this plain load (whose reads-from is replayed already),
  /// plain store or fence, it is matched here, without a pending_op or post(). Returns false
  /// when post() must decide: a new event, an RMW or CAS, a freed location, a mismatch (post
  /// reports it), a teardown. Same effect as post() + commit() otherwise. O(1).
  bool replay_load(std::uint32_t loc, std::uint64_t& value);
  bool replay_store(std::uint32_t loc, std::uint64_t value);
  bool replay_fence();
  /// The replay of a bookkeeping event (free_event): the recorded event at the cursor is of
  /// kind k (and, for an access, at loc); it takes value and aux. False if none is recorded or
  /// it differs (free_event reports the divergence).
  bool replay_free(event_kind k, std::uint32_t loc, std::uint64_t value, std::uint32_t aux);
  /// The calling fiber's next recorded event (a replay), or nullptr (new events, teardown).
  event* recorded_next();
  /// Thread t's last event in this run so far, (t, cursor - 1), or nullptr if it has none yet.
  /// O(1), reads only: the crash report calls it from a signal handler.
  const event* last_event(std::size_t t) const {
    const std::size_t c = threads[t]->cursor;
    return t < g.threads.size() && c > 0 && c <= g.threads[t].size() ? &g.threads[t][c - 1]
                                                                     : nullptr;
  }
  [[noreturn]] void fail(error_kind k, std::string message,
                         std::optional<failure_kind> failure = std::nullopt);
  /// Counts an operation (atomic or non-atomic access, fence, spin_assume) the calling
  /// fiber makes while it is unwound. Destructors run then,
  /// on the state of an unfinished run (a deque torn mid-operation), and one that loops over
  /// it may take very long (2^32 steps for an `i != bottom` walk with top past bottom).
  /// Nothing can stop it from here: it runs during unwinding, where throwing terminates, and
  /// a fiber left suspended mid-unwind corrupts the thread's exception state. So past
  /// 64 * max_events_per_thread such operations the process prints one error line naming
  /// the thread and the cause and exits with code 2.
  void teardown_op_made();
  [[noreturn]] void block(block_reason why);
  /// block() for a fiber in post(), which may be in a destructor: records the block event the
  /// same way, then returns only at teardown, with unwind_due set.
  void block_until_teardown(block_reason why);
  [[noreturn]] void park();
  /// Teardown of a fiber that was suspended in post() (a run abandoned mid-way): the
  /// operation returns (with its teardown value) and the fiber runs on with teardown values,
  /// unless an exception is already unwinding it. It unwinds at its next `blocking` operation
  /// (a lock, a join, an assume, a wait: never made from a destructor), or at any operation
  /// once it has made max_events_per_thread operations in teardown (a spin loop of plain
  /// loads); or it finishes its body. post() may have been suspended in a destructor (a
  /// deque destroyed at the end of a client, an RAII unlock), where throwing would
  /// terminate: the destructor's further operations then take their teardown effect and it
  /// returns. A destructor that makes more than that many operations still terminates.
  void unwind_if_due(bool blocking = true) {
    model_thread& th = me();
    if (tearing_down_ && th.unwind_due && std::uncaught_exceptions() == 0 &&
        (blocking || th.teardown_ops >= cfg_.max_events_per_thread)) {
      th.unwind_due = false;
      throw unwind_request{};
    }
  }
  model_thread& me() { return *threads[current_]; }
  std::size_t spawn(std::function<void()> body);

 private:
  std::optional<error_state> error_;
  run_config cfg_;
  choice_free_adder* eager_ = nullptr;
  progress_slot* watched_ = nullptr;
  std::size_t current_ = 0;
  bool tearing_down_ = false;
  bool na_recorded_ = false;
  bool late_access_ = false;

  bool mismatch(std::size_t t, std::size_t c);  // records a nondeterminism error; true
  void reset_run();
  void record_block(block_reason why);  // block()'s event and state, without parking
  bool replay_recorded();               // rerun's loop
  void start_fiber(std::size_t t);
  void switch_to_fiber(std::size_t t);  // main -> fiber t (sanitizer-annotated)
  // current fiber -> main (sanitizer-annotated); `in_post`: see execution::post
  void switch_to_main(bool exiting, bool in_post = false);
  [[maybe_unused]] void* main_fake_ = nullptr;
  [[maybe_unused]] const void* main_bottom_ = nullptr;
  [[maybe_unused]] std::size_t main_size_ = 0;
  [[maybe_unused]] void* tsan_main_ = nullptr;
  void* last_stack_ = nullptr;
  std::vector<void*> stack_pool_;
  // model_thread objects of finished runs, reused (one allocation per thread per exploration)
  std::vector<std::unique_ptr<model_thread>> spare_threads_;
  void recycle_threads();
  std::unique_ptr<model_thread> fresh_thread();
  std::size_t stack_size_;
  std::function<void()> main_body_;
};

inline event* execution::recorded_next() {
  if (tearing_down_) return nullptr;
  auto& evs = g.threads[current_];
  const std::size_t c = threads[current_]->cursor;
  return c < evs.size() ? &evs[c] : nullptr;
}

inline bool execution::replay_free(event_kind k, std::uint32_t loc, std::uint64_t value,
                                   std::uint32_t aux) {
  event* e = recorded_next();
  if (e == nullptr || e->kind != k || (is_access(*e) && e->loc != loc)) return false;
  e->value = value;
  e->aux = aux;
  ++threads[current_]->cursor;
  na_recorded_ = na_recorded_ || is_na(*e);
  return true;
}

inline bool execution::replay_load(std::uint32_t loc, std::uint64_t& value) {
  event* e = recorded_next();
  if (e == nullptr || e->kind != event_kind::read || e->loc != loc || e->op != rmw_op::none ||
      mem.freed_by(loc).valid())
    return false;
  model_thread& th = *threads[current_];
  const auto u = static_cast<std::size_t>(e->rf.thread);  // none() wraps to a huge number
  const auto i = static_cast<std::size_t>(e->rf.index);
  if (u >= threads.size() || i >= (u == current_ ? th.cursor : threads[u]->cursor)) return false;
  value = e->value = g.threads[u][i].value;
  ++th.cursor;
  return true;
}

inline bool execution::replay_store(std::uint32_t loc, std::uint64_t value) {
  event* e = recorded_next();
  if (e == nullptr || e->kind != event_kind::write || e->rmw || e->loc != loc ||
      mem.freed_by(loc).valid())
    return false;
  e->value = value;
  mem.written(loc, value);
  ++threads[current_]->cursor;
  return true;
}

inline bool execution::replay_fence() {
  const event* e = recorded_next();
  if (e == nullptr || e->kind != event_kind::fence) return false;
  ++threads[current_]->cursor;
  return true;
}

/// The execution the calling fiber belongs to (set while explore runs).
extern constinit thread_local execution* tls_current_execution;
inline execution* current_execution() noexcept {
  return tls_current_execution;
}
inline void set_current_execution(execution* e) noexcept {
  tls_current_execution = e;
  tls_sites_overridden = e != nullptr && !e->config().sites.empty();
}

/// The size of the inaccessible guard below each fiber stack (64 KiB, at least a page): a
/// model thread that overflows its stack faults there. Safe to call from a signal handler
/// once a stack exists.
std::size_t stack_guard_bytes() noexcept;

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
