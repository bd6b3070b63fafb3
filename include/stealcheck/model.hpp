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
/// records push, pop, steal and (batch stealers) steal_into and checks values and order against
/// the spec.
///
/// Where it is declared: check, thread, spin_until, assert_that, STEALCHECK_ASSERT and
/// checked_deque live in stealcheck/detail/models/front/body.hpp, which this header includes
/// (stealcheck's own deque clients, models/front/clients.hpp, are written in that same API);
/// this header adds the memory's types (atomic, nonatomic, mutex, fence) and the reports'
/// text (headline, summary). assert_that(ok, kind, what) names the kind of failure
/// (failure_kind: value_lost, not_linearizable...) that the bug report then carries.
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
#include "stealcheck/detail/models/front/body.hpp"
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

/// A bug's first line: "BUG <kind>: <message>" (the kind once: a message may start with it).
inline std::string headline(const bug_report& b) {
  return "BUG " + kind_and_message(b);
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

// SPDX-License-Identifier: Apache-2.0
