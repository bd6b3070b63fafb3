// stress/oplog.hpp: each native thread's recent deque operations, for naming what happened
// when a deque throws, crashes or hangs.
//
// Every deque call of the stress scenarios and of the native lincheck runs is bracketed by
// begin() (the operation and its argument, before the call) and finish() (its result, after
// it). Each thread writes only its own fixed-size ring of the last `depth` operations in a
// `board`: no allocation, no lock, a few relaxed stores to the thread's own cache lines. So
// the ring is readable when nothing else is: from a signal handler or a terminate handler, or
// by the parent process after the child died or was killed (stress/isolate.cpp maps the board
// in memory shared with the child). An operation that threw, crashed or never returned is the
// thread's last entry, still marked running.
//
//   owner during pop(), after push(0), push(1), pop -> 1
//
// Threads are numbered as in the scenarios: 0 is the owner, k >= 1 is thief k.
// Thread role: begin/finish on the thread that makes the call, with its own number; reset and
// activate while no recorded thread runs; the readers after the threads stopped (joined, dead,
// or killed), or on counts only (progress()) while they run.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/stress/history.hpp"

namespace stealcheck::stress::oplog {

enum class op : std::uint8_t { none, push, pop, steal, steal_batch, own_pop, size_hint };
/// How an operation ended; `running` until finish().
enum class outcome : std::uint8_t { running, done, value, empty, abort, full };

inline constexpr std::uint32_t max_threads = 160;  ///< stampede: up to 126 thieves
inline constexpr std::uint32_t depth = 8;          ///< operations kept per thread

struct entry {
  std::atomic<std::uint32_t> word{0};  ///< op | outcome << 8 | has_arg << 16
  std::atomic<std::uint64_t> arg{0};
  std::atomic<std::uint64_t> result{0};
};

struct alignas(64) thread_ring {
  std::atomic<std::uint64_t> count{0};  ///< operations begun
  entry e[depth];
};

struct board {
  std::atomic<int> fault_thread{-1};       ///< the thread that threw or took the signal, if known
  std::atomic<bool> verdict_ready{false};  ///< set once `verdict` is written
  char verdict[256] = {};  ///< the first wrong result judged as it returned (stress/ledger.hpp)
  failure_kind verdict_kind = failure_kind::wrong_result;  ///< its kind (with `verdict`)
  char context[256] = {};  ///< what the child was running (a lincheck scenario)
  /// Bytes the harness itself holds for the run (the stress ledger's window), which the memory
  /// ceiling does not count against the deque (stress/isolate.hpp).
  std::atomic<std::int64_t> harness_bytes{0};
  /// The memory ceiling the parent enforces on the child, in bytes (0: none); written before
  /// fork(). A run by time goes on with a fresh deque when its heap grew by half of it
  /// (stress/scenarios.hpp, run), so memory a deque keeps until it is destroyed is returned.
  std::uint64_t memory_ceiling = 0;
  thread_ring threads[max_threads];
};

/// The board the calling process records into (a process-local one unless activated).
board* active() noexcept;
/// Records into b from now on (a board in memory shared with the parent).
void activate(board* b) noexcept;
/// Forgets every recorded operation of the active board.
void reset() noexcept;
/// Adds `delta` (may be negative) to the active board's harness_bytes. Thread role: any.
void add_harness_bytes(std::int64_t delta) noexcept;
/// Bytes the process's allocator holds for live allocations (glibc's mallinfo2: in use plus
/// mmapped; the sanitizers' own count in their builds). Thread role: any. Cost: a walk of the
/// allocator's free lists, microseconds to a millisecond: call it rarely.
std::uint64_t heap_bytes() noexcept;
/// Returns the allocator's free memory to the system (glibc's malloc_trim; nothing in the
/// sanitizers' builds), so that resident memory drops after a deque is destroyed. Thread
/// role: any.
void return_free_memory() noexcept;
/// Sets the active board's context line (truncated to fit).
void set_context(std::string_view text) noexcept;
/// Writes the first wrong result judged as it returned (truncated to fit). Thread role: at most
/// one call per run (value_ledger keeps the first).
void set_verdict(std::string_view text, failure_kind kind) noexcept;
/// The verdict written in b, or "" if none.
std::string verdict(const board& b);
/// The kind of the verdict written in b, or nullopt if none.
std::optional<failure_kind> verdict_kind(const board& b);

/// The number of the calling thread's last begin() (-1: it recorded nothing).
int current_thread() noexcept;
/// Every operation of a run with its invocation and response stamps, for `stress
/// --save-history`: recorded only while record_into() names a tape. The stamps come from one
/// shared counter, an acq_rel RMW before and after each call, as stress/history.hpp's recorder
/// (so the recorded real-time order is real); the two contended RMWs per operation slow every
/// operation and narrow some race windows. Each thread appends to its own list, at most
/// `limit` entries (then overflowed() is true).
class tape {
 public:
  struct entry {
    op what = op::none;
    bool has_arg = false;
    outcome how = outcome::running;
    std::uint64_t arg = 0, result = 0, invoke = 0, response = 0;
  };
  tape(std::uint32_t threads, std::size_t limit) : threads_(threads), limit_(limit) {}

  /// Thread role: `thread` only (each thread its own list).
  void begin(std::uint32_t thread, op o, std::uint64_t arg, bool has_arg) {
    if (thread >= threads_.size()) return;
    auto& list = threads_[thread];
    if (list.size() >= limit_) {
      overflow_.store(true, std::memory_order_relaxed);  // read after the threads joined
      return;
    }
    const std::uint64_t at = clock_.fetch_add(1, std::memory_order_acq_rel);  // see above
    try {
      list.push_back({o, has_arg, outcome::running, arg, 0, at, 0});
    } catch (const std::bad_alloc&) {  // the tape, not the deque, ran out of memory
      overflow_.store(true, std::memory_order_relaxed);
    }
  }
  void finish(std::uint32_t thread, outcome how, std::uint64_t value) {
    if (thread >= threads_.size() || threads_[thread].empty()) return;
    entry& e = threads_[thread].back();
    if (e.how != outcome::running) return;  // its begin() overflowed
    e.how = how;
    e.result = value;
    e.response = clock_.fetch_add(1, std::memory_order_acq_rel);  // see above
  }
  /// Readers: after the recorded threads joined.
  const std::vector<std::vector<entry>>& threads() const noexcept { return threads_; }
  bool overflowed() const noexcept { return overflow_.load(std::memory_order_relaxed); }

 private:
  std::vector<std::vector<entry>> threads_;
  std::size_t limit_;
  std::atomic<std::uint64_t> clock_{0};
  std::atomic<bool> overflow_{false};
};

/// The tape's operations as one deque's history (stress/history.hpp): pushes that did not
/// push (a full bounded deque) and size hints left out. nullopt, with the reason in why_not,
/// when they are not one deque's (batch steals, whose values the log does not keep; a thief
/// popping its own deque), an operation never returned, or the tape overflowed.
std::optional<lincheck::history> history_of(const tape& t, std::string& why_not);

/// Records every operation into t from now on (nullptr: stops). Thread role: while no
/// recorded thread runs (thread creation and join order it with their operations).
void record_into(tape* t) noexcept;

namespace detail {
inline thread_local int current = -1;
inline tape* recording = nullptr;  ///< see record_into()
}  // namespace detail

inline void begin(std::uint32_t thread, op o, std::uint64_t arg = 0,
                  bool has_arg = false) noexcept {
  detail::current = static_cast<int>(thread);
  if (thread >= max_threads) return;
  thread_ring& r = active()->threads[thread];
  const std::uint64_t n = r.count.load(std::memory_order_relaxed);  // only this thread writes
  entry& e = r.e[n % depth];
  e.arg.store(arg, std::memory_order_relaxed);
  e.word.store(static_cast<std::uint32_t>(o) | (has_arg ? 1u << 16 : 0u),
               std::memory_order_relaxed);
  r.count.store(n + 1, std::memory_order_release);  // pairs with progress()'s acquire load
  if (tape* t = detail::recording) t->begin(thread, o, arg, has_arg);
}

inline void finish(std::uint32_t thread, outcome how, std::uint64_t value = 0) noexcept {
  if (thread >= max_threads) return;
  thread_ring& r = active()->threads[thread];
  const std::uint64_t n = r.count.load(std::memory_order_relaxed);  // only this thread writes
  if (n == 0) return;
  entry& e = r.e[(n - 1) % depth];
  e.result.store(value, std::memory_order_relaxed);
  const std::uint32_t w = e.word.load(std::memory_order_relaxed);
  e.word.store((w & ~0xff00u) | (static_cast<std::uint32_t>(how) << 8), std::memory_order_relaxed);
  if (tape* t = detail::recording) t->finish(thread, how, value);
}

/// "owner", "thief 2"
std::string thread_name(int thread);

/// True when thread t's last operation has not returned (yet).
bool inside(const board& b, std::uint32_t thread);

/// Operations begun per thread (progress of a running child).
std::vector<std::uint64_t> progress(const board& b);

/// Where thread t is: "owner during pop(), after push(0), push(1)" (its last operation still
/// running), "owner after pop -> 1, ..." (between operations), or "owner before its first
/// operation".
std::string locate(const board& b, int thread);

/// Where the fault happened: at b.fault_thread when known, else at the threads whose last
/// operation is still running ("in one of: ..."); "" if none is.
std::string locate_fault(const board& b);

/// After a hang: the threads whose last operation is still running and began no operation
/// since `before` (progress() some time earlier): "owner stuck in pop(), after ...". If no
/// thread is stuck, where each thread was (a livelock across operations).
std::string locate_stuck(const board& b, const std::vector<std::uint64_t>& before);

/// "std::bad_alloc: std::bad_alloc" for e (type demangled, then what()), or "unknown exception".
std::string describe_exception(const std::exception_ptr& e);

/// "threw std::bad_alloc: std::bad_alloc in owner during pop(), after push(0)": e thrown on
/// `thread`.
std::string threw(const std::exception_ptr& e, const board& b, int thread);

}  // namespace stealcheck::stress::oplog
// SPDX-License-Identifier: Apache-2.0
