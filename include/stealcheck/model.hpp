/// @file
/// stealcheck/model.hpp: your own model tests. A test body with threads and assertions, every
/// execution of it explored under RC11 (or SC), as loom's `loom::model`, Relacy's test suites and
/// GenMC's C programs are written.
///
/// @code
/// #include <stealcheck/model.hpp>
/// namespace model = stealcheck::model;
/// @endcode
///
/// @code
/// model::result r = model::check({}, [] {
///   model::atomic<int> data{0}, flag{0};      // shared state lives in the body
///   model::thread producer([&] {
///     data.store(42, std::memory_order_relaxed);
///     flag.store(1, std::memory_order_release);  // pairs with the acquire load below
///   });
///   model::spin_until([&] { return flag.load(std::memory_order_acquire) == 1; });
///   STEALCHECK_ASSERT(data.load(std::memory_order_relaxed) == 42, "the flag publishes data");
///   producer.join();
/// });
/// // r.ok(): no execution failed; r.complete, r.blocked: the executions explored.
/// // Otherwise r.bug: kind, message, trace of the failing execution, replay token.
/// @endcode
///
/// What is explored. The body runs once per execution, each time from the start; every access
/// of the model's shared memory (model::atomic, model::nonatomic, model::mutex, model::fence, a
/// deque instantiated with model::memory) is an event, and the checker enumerates every
/// consistent execution of the body under the memory model: each read with every write it may
/// read (reads-from), each write in every coherence position (mo), exactly once each
/// (TruSt, Kokologiannakis et al., POPL 2022; RC11, Lahav et al., PLDI 2017). Plain C++
/// variables the threads share are not memory the checker sees: share them as model::nonatomic
/// (each read or write is checked for data races) or as atomics.
///
/// The body must be deterministic given the values its model reads return (no clocks, no
/// randomness, no global state that survives a run), and it should join its threads before the
/// state they use goes out of scope.
///
/// A deque's operations can be judged as stealcheck's own clients judge theirs: checked_deque
/// records push, pop and steal and checks values and order against the spec (below).
///
/// What is checked, in every execution: STEALCHECK_ASSERT, data races on model::nonatomic,
/// use after free and double free of model::memory::create/destroy, leaks, deadlocks (every
/// thread waiting on a mutex or a join that no one can release), exceptions escaping a thread,
/// and a thread that runs past options::max_events_per_thread events (a loop that does not end:
/// error_kind::bound_exceeded; executions cut there are counted as blocked).
///
/// What the bounds cut. options::max_events_per_thread bounds each thread's events (default
/// 1,000); options::max_executions stops early (result::limit_reached). A model thread that runs
/// options::stall_seconds without a model operation ends the process with one error line and exit
/// code 2. options::sample draws executions at random instead of enumerating them
/// (result::sampled: not exhaustive). options::jobs \> 1 explores on that many OS threads with the
/// same counts. Everything else is exhaustive.
///
/// Thread roles: check() from any one OS thread (it starts and joins its own with jobs \> 1);
/// model::thread, spin_until and STEALCHECK_ASSERT from the body and the threads it starts
/// (model threads) only. Threads are started by the body's own thread (their numbers must be
/// deterministic); a thread started elsewhere is reported as an assertion.
/// Errors: a misuse inside the body is reported as a bug of the result (kind assertion); a
/// replay token that does not describe an execution of the body is error_kind::bad_replay.
/// Complexity: one run of the body per execution explored; the number of executions is the
/// number of consistent (rf, mo) classes, exponential in the body's size.
/// Source: models/explore/explore.hpp (the explorer this wraps), GenMC's spin-assume
/// (Kokologiannakis et al., "Effective lock handling in stateless model checking", OOPSLA 2019)
/// for spin_until.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/report/verdict.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck::model {

/// Atomics of the model's memory: the members and memory-order arguments of std::atomic<T>
/// (T trivially copyable, at most 8 bytes).
template <class T>
using atomic = memory::atomic<T>;
/// Plain shared data: read() and write() are accesses checked for data races.
template <class T>
using nonatomic = memory::nonatomic<T>;
/// A mutex (BasicLockable, try_lock): lock is an acquire, unlock a release.
using mutex = memory::mutex;

/// As std::atomic_thread_fence, an event of the explored execution.
inline void fence(std::memory_order o, source_loc src = source_loc::current()) {
  memory::fence(o, src);
}

namespace detail {
// The client of the body running on this OS thread. Every model thread of one execution runs
// on the OS thread that explores it (as fibers), so this is the running execution's; with
// jobs > 1 each explorer thread sets its own. check() restores the caller's value on return.
inline thread_local client* running_client = nullptr;

inline client& running(const char* what) {
  if (running_client == nullptr)
    throw std::logic_error(std::string("stealcheck::model: ") + what +
                           " outside the body of model::check");
  return *running_client;
}
}  // namespace detail

/// Explores every execution of body under opt (see the top of this header). Returns the counts
/// (complete, blocked), or the first bug found with its report and replay token
/// (opt.replay = that token runs that one execution again).
inline result check(const options& opt, std::function<void()> body) {
  struct restore {
    client* value;
    ~restore() { detail::running_client = value; }
  } const guard{detail::running_client};
  return explore(opt, [&body](client& c) {
    detail::running_client = &c;  // kept until check returns: unjoined threads outlive the body
    body();
  });
}

/// A model thread, started by the body: runs f concurrently with the body's thread and the
/// other model threads. join() waits for it: its events happen-before the joiner's next ones.
/// A handle destroyed without join() leaves the thread running; the body's end joins it.
/// Thread role: construct from the body's own thread only; join from the body's thread.
class thread {
 public:
  thread() noexcept = default;
  explicit thread(std::function<void()> f)
      : id_(detail::running("model::thread").spawn(std::move(f))) {}
  thread(thread&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  thread& operator=(thread&& other) noexcept {
    id_ = std::exchange(other.id_, 0);
    return *this;
  }
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  ~thread() = default;

  /// Waits for the thread to finish. Joining a thread twice, or an empty handle, is reported
  /// as an assertion.
  void join(source_loc src = source_loc::current()) {
    client& c = detail::running("model::thread::join");
    if (id_ == 0)
      return c.check(false, "join of a model::thread that is not joinable (joined, or empty)", src);
    c.join(std::exchange(id_, 0));
  }
  bool joinable() const noexcept { return id_ != 0; }
  /// The thread's number in reports: 1, 2, ... in start order (the body's thread is 0).
  std::size_t id() const noexcept { return id_; }

 private:
  std::size_t id_ = 0;
};

/// A spin loop that waits for another thread: `while (!pred()) {}` written so that every
/// execution stays finite. pred() is evaluated once; when it is false this execution is cut
/// as *blocked* (counted in result::blocked, not a bug), and the executions in which pred's
/// reads see the awaited writes cover the wait. Sound when an iteration of the loop has no
/// effect other than pred's reads (GenMC's spin-assume). Thread role: model threads.
template <class Pred>
void spin_until(Pred&& pred, source_loc src = source_loc::current()) {
  spin_assume(static_cast<bool>(std::forward<Pred>(pred)()), src);
}

/// STEALCHECK_ASSERT's function: when ok is false the exploration stops with error_kind::
/// assertion, the message `what`, the condition's text and src, and this execution's trace.
/// Thread role: model threads.
inline void assert_that(bool ok, std::string_view what, std::string_view condition,
                        source_loc src = source_loc::current()) {
  if (ok) return;
  detail::running("STEALCHECK_ASSERT")
      .check(false, fmt::format("{}\n  condition: {}", what, condition), src);
}

/// A deque whose operations are recorded and judged as stealcheck's own clients judge theirs
/// (models/front/clients.hpp, owned): a value taken twice (unless the spec is at_least_once) or
/// never pushed fails as soon as the operation returns; finish() drains the deque and fails on a
/// value lost, then checks that the results are explained by the sequential spec (lifo_owner,
/// fifo_owner, at_least_once: deques/spec.hpp) in an order that respects happens-before. A
/// failure names the value and lists the operations per thread in the report.
/// Deque: a deque of std::int64_t on model::memory (my_deque<std::int64_t, model::memory>).
/// Values pushed must be distinct (the judge tells values apart by value).
/// Thread roles: push, pop and finish by one owner thread; steal by any model thread; finish
/// after every thread that used the deque was joined. Complexity: the order check is a search
/// over linearizations, exponential in the worst case; at most 64 operations have their order
/// checked (more: values only).
template <class Deque>
class checked_deque {
 public:
  using value = std::int64_t;
  /// The deque constructed with `capacity` (when it has such a constructor), judged by `spec`.
  explicit checked_deque(std::int64_t capacity, spec::spec_kind spec = spec::spec_kind::lifo_owner)
      : o_(capacity, spec) {}

  /// Owner: pushes v. Returns false when a bounded deque is full (v stays with the owner).
  bool push(value v) { return o_.push(c(), v); }
  /// Owner: pops; nullopt when the deque is empty.
  std::optional<value> pop() { return o_.pop(c()); }
  /// Any thread: steals; the item, empty, or abort (a lost race).
  steal_result<value> steal() { return o_.steal(c()); }
  /// Owner, after joining every thread: drains the deque and runs every check.
  void finish() { o_.finish(c()); }
  /// The deque itself, for operations the recorder does not know (not recorded or judged).
  Deque& deque() noexcept { return o_.d; }

 private:
  static client& c() { return detail::running("model::checked_deque"); }
  clients::owned<Deque> o_;
};

/// A bug's first line: "BUG <kind>: <message>" (the kind once: a message may start with it).
inline std::string headline(const bug_report& b) {
  const std::string_view kind = error_name(b.kind);
  if (b.message.starts_with(kind)) return "BUG " + b.message;
  return fmt::format("BUG {}: {}", kind, b.message);
}

/// The result as text: "N complete, M blocked executions (exhaustive | sampled | stopped at
/// the limit)", or the bug's kind, message and trace and its replay token.
inline std::string summary(const result& r) {
  if (r.bug)
    return fmt::format("{}\n{}  replay token: {}\n", headline(*r.bug), r.bug->trace,
                       r.bug->replay_token);
  const char* scope = r.sampled         ? "sampled: NOT exhaustive"
                      : r.limit_reached ? "stopped at max_executions: NOT exhaustive"
                                        : "exhaustive";
  std::string s = fmt::format("{} complete, {} blocked executions ({}), {:.3f} s\n", r.complete,
                              r.blocked, scope, r.seconds);
  if (r.blocked > 0)
    s += fmt::format(
        "  blocked by: {} a false spin_until or a wait that read the value it waits to change, {} "
        "a lock that read the mutex held, {} the event bound\n",
        r.blocked_assume, r.blocked_mutex, r.bound_hits);
  if (!r.blocked_note.empty()) s += "  blocked: " + r.blocked_note + "\n";
  return s;
}

}  // namespace stealcheck::model

/// STEALCHECK_ASSERT(cond, message): checks cond in every explored execution; message (a
/// string) names what it means. Thread role: model threads (the body and its threads).
#define STEALCHECK_ASSERT(cond, message) \
  ::stealcheck::model::assert_that(static_cast<bool>(cond), (message), #cond)
// SPDX-License-Identifier: Apache-2.0
