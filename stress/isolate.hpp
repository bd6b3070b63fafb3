// stress/isolate.hpp: run one stress scenario in a child process.
//
// A broken deque does not always fail politely: a value taken twice is, when boxed, freed
// twice (heap corruption, abort), an operation may throw on one of the deque's threads, and
// a livelocked deque never returns. The stress command and the verify column therefore run
// each scenario in a fork()ed child with a deadline: a crash, an exception or a hang becomes
// a failed result with one line naming what happened, the thread and the operation it was in,
// and that thread's operations before it, never a crash or hang of stealcheck itself:
//
//   threw std::bad_alloc: std::bad_alloc in owner during pop(), after push(0), push(1)
//   crashed with SIGSEGV (Segmentation fault) in thief 2 during steal(), after steal -> empty
//   did not finish within 120 s (deadlock or livelock); killed: owner stuck in pop(), after ...
//
// The child records every deque call in an operation log (stress/oplog.hpp) that lives in
// memory shared with the parent. The child's terminate handler (an exception escaping a
// thread) and its handlers of fatal signals only mark which thread faulted and then end the
// child; the parent reads the log after the child died, or after it killed a hung child: a
// thread whose last operation never returned and that began no other one in the last 0.3 s
// is named as stuck in it.
//
// Thread role: any one thread. fork() copies only the calling thread: the child runs just the
// body (the deque and the threads it starts), never waiting on a lock another thread of the
// parent might hold.
// Errors: a scenario never runs in the calling process (a deque that corrupts its heap would
// corrupt stealcheck's). fork() is retried while it fails for want of resources (EAGAIN,
// ENOMEM: a loaded machine), for about 3 s; if it still fails, or mmap() or pipe() does,
// harness::environment_error is thrown naming the call and its errno text: no verdict.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>

#include "stealcheck/detail/stress/stress.hpp"

namespace stealcheck::stress {

/// The stall bound of the stress and lincheck commands and columns: a deque operation runs for
/// microseconds; one that has not returned in 20 s never will (their deadlines are minutes).
inline constexpr double default_stall_seconds = 20;

/// A child that grows past this much resident memory is killed and reported (with the thread
/// and operation it was in): the scenarios need a few MB, a deque that allocates in a loop
/// reaches gigabytes in seconds. The sanitizers' shadow memory gets four times as much. What
/// is counted is the deque's growth: the child's resident memory less what it had when it
/// started (the parent's pages it shares) and less what the harness itself holds for the run
/// (oplog::board::harness_bytes: the stress ledger's window), which does not grow with the
/// run's length (stress/ledger.hpp).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr std::uint64_t memory_ceiling_bytes = std::uint64_t{4} << 30;
#else
inline constexpr std::uint64_t memory_ceiling_bytes = std::uint64_t{1} << 30;
#endif

/// Runs `body` in a child process; waits at most `deadline_seconds`, and (if > 0) stops it
/// once one of its threads has stayed inside one deque operation for `stall_seconds`, or once
/// it grew by more than `memory_ceiling` bytes (see memory_ceiling_bytes).
result run_isolated(const std::function<result()>& body, double deadline_seconds,
                    double stall_seconds = 0, std::uint64_t memory_ceiling = memory_ceiling_bytes);

/// What a child run gives back: its payload, or why there is none.
struct child_outcome {
  bool ok = false;      ///< the body returned and its payload arrived
  std::string payload;  ///< the body's return value (ok)
  std::string failure;  ///< one line (!ok): the exception, the signal, or the deadline, where
  /// What failed (!ok): the first wrong result judged before the end, if any, else how the
  /// child ended (an exception, a crash, no progress by the deadline, memory kept: leak).
  failure_kind kind = failure_kind::crash;
};

/// Runs `body` in a fork()ed child, which sends its return value back through a pipe; waits
/// at most `deadline_seconds` (and `stall_seconds` inside one deque operation, if > 0), and
/// kills a child that grew by more than `memory_ceiling` bytes (see memory_ceiling_bytes). A
/// body that throws, or whose thread ends the process through std::terminate (an exception
/// escaping a thread the deque's code runs on), reports the exception's type and message; a
/// crash names the signal; a hang is killed. Each names the thread, its operation and the
/// operations before it, and the context line the body set (oplog::set_context).
child_outcome run_in_child(const std::function<std::string()>& body, double deadline_seconds,
                           double stall_seconds = 0,
                           std::uint64_t memory_ceiling = memory_ceiling_bytes);

namespace detail {
/// The fork(2) that run_in_child calls: tests put a refusing one here.
inline pid_t (*fork_process)() = ::fork;
}  // namespace detail

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
