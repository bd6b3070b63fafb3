// models/report/verdict.hpp: what an exploration returns: counts, or the bug with its execution.
//
// Thread role: plain data. Complexity: O(1). Source: error kinds after GenMC's
// VerificationError (a closed enum, so tests assert *which* failure happened).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/models/graph/event.hpp"

namespace stealcheck::model {

enum class error_kind : std::uint8_t {
  assertion,       ///< a client check failed
  data_race,       ///< two non-atomic accesses, one a write, not ordered by hb
  use_after_free,  ///< an access to freed model memory (or one racing with the free)
  double_free,     ///< destroy of memory already destroyed, or never allocated
  leak,            ///< model-allocated memory still live when the execution completed
  deadlock,        ///< no thread can run and a mutex stays held or a wait's value never changes
  exception,       ///< an exception escaped a model thread
  bound_exceeded,  ///< no execution completed: every one hit the per-thread event bound
  nondeterminism,  ///< re-execution diverged from the recorded graph (client not deterministic)
  bad_replay,      ///< a replay token does not describe an execution of this client
};

constexpr std::string_view error_name(error_kind k) noexcept {
  switch (k) {
    case error_kind::assertion:
      return "assertion";
    case error_kind::data_race:
      return "data_race";
    case error_kind::use_after_free:
      return "use_after_free";
    case error_kind::double_free:
      return "double_free";
    case error_kind::leak:
      return "leak";
    case error_kind::deadlock:
      return "deadlock";
    case error_kind::exception:
      return "exception";
    case error_kind::bound_exceeded:
      return "bound_exceeded";
    case error_kind::nondeterminism:
      return "nondeterminism";
    case error_kind::bad_replay:
      return "bad_replay";
  }
  return "?";
}

/// The failure kind a bug of kind k shows (deques/failure.hpp), when the client's check named
/// none: a failed check is a wrong result, a cut loop no progress; nondeterminism and a bad
/// replay are errors of the client or its caller, not failures of the code under test (nullopt).
constexpr std::optional<failure_kind> failure_of(error_kind k) noexcept {
  switch (k) {
    case error_kind::assertion:
      return failure_kind::wrong_result;
    case error_kind::data_race:
      return failure_kind::data_race;
    case error_kind::use_after_free:
      return failure_kind::use_after_free;
    case error_kind::double_free:
      return failure_kind::double_free;
    case error_kind::leak:
      return failure_kind::leak;
    case error_kind::deadlock:
      return failure_kind::deadlock;
    case error_kind::exception:
      return failure_kind::exception;
    case error_kind::bound_exceeded:
      return failure_kind::no_progress;
    case error_kind::nondeterminism:
    case error_kind::bad_replay:
      return std::nullopt;
  }
  return std::nullopt;
}

/// One operation of a failing execution as its client names it (a deque client: "push(1)",
/// "pop -> 2"): the events first..last of one thread, and whether the failed check is about
/// it (client::describe_operations).
struct operation_span {
  event_id first;
  event_id last;
  std::string label;
  bool implicated = false;
};

/// A bug: its kind, a one-line message naming the offending value, and the failing
/// execution (per-thread listing, Graphviz DOT, replay token). When the client described its
/// operations, `trace` opens with them per thread and lists by default only the implicated
/// operations' events and the writes those read (options::full_trace: every event).
struct bug_report {
  error_kind kind = error_kind::assertion;
  std::string message;
  std::string trace;
  std::string dot;
  std::string replay_token;
  /// bound_exceeded: the cut loop writes (a store or an RMW in its last events), so it is no
  /// spin that waits for another thread.
  bool loop_writes = false;
  /// What failed, in the closed kinds every checker shares: the kind the failed check named
  /// (client::check with a failure_kind), else failure_of(kind); nullopt for an error of the
  /// client or its caller (nondeterminism, a bad replay).
  std::optional<failure_kind> failure{};
};

/// "<kind>: <message>", the kind once: a message may start with it ("deadlock: thread 1 waits
/// forever ..."); `lead` goes between the kind and the message.
inline std::string kind_and_message(const bug_report& b, std::string_view lead = {}) {
  const std::string_view kind = error_name(b.kind);
  if (lead.empty() && b.message.starts_with(kind)) return b.message;
  return std::string(kind) + ": " + std::string(lead) + b.message;
}

/// Executions below nodes of the exploration tree, each node named by its path from the root
/// (per branching depth, the ordinal of the alternative taken: models/explore/walk.hpp).
using node_counts = std::map<std::vector<std::uint32_t>, std::uint64_t>;

struct result {
  std::uint64_t complete = 0;    ///< consistent complete executions explored
  std::uint64_t blocked = 0;     ///< executions cut by spin_assume, a held mutex, or the bound
  std::uint64_t bound_hits = 0;  ///< of the blocked: a thread reached the per-thread event bound
  /// of the blocked: no thread at the bound, one whose lock read the mutex held (where the
  /// lock reads the unlock is another execution; a mutex still held at the end is a deadlock)
  std::uint64_t blocked_mutex = 0;
  /// of the blocked: the rest, cut only by a false spin_assume or by an atomic wait that read
  /// the value it waits to change (blocked == bound_hits + blocked_mutex + blocked_assume)
  std::uint64_t blocked_assume = 0;
  std::string blocked_note;    ///< names the first bound hit: thread and bound
  bool limit_reached = false;  ///< stopped at options::max_executions
  bool sampled = false;        ///< options::sample: executions drawn at random, NOT exhaustive
  /// options::jobs > 1: the pieces the jobs explored (the whole tree, and each part a busy job
  /// gave to an idle one)
  std::uint64_t pieces = 0;
  /// options::jobs > 1: the executions of the job that explored the most (the balance: the
  /// jobs shared the work evenly when it is about executions / jobs)
  std::uint64_t busiest_job = 0;
  double seconds = 0;
  std::optional<bug_report> bug;
  /// The first execution cut by the per-thread event bound, reported as a bug would be
  /// (kind bound_exceeded): the thread, its loop's source lines, its last events, a replay
  /// token. Set whenever bound_hits > 0; `bug` too when no execution completed.
  std::optional<bug_report> first_bound;

  bool ok() const noexcept { return !bug.has_value(); }
  std::uint64_t executions() const noexcept { return complete + blocked; }
  double execs_per_second() const noexcept {
    return seconds > 0 ? static_cast<double>(executions()) / seconds : 0.0;
  }
};

}  // namespace stealcheck::model

/// Called once when the model checker finds a bug, before it reports it: a debugger
/// breakpoint. When the bug is found inside a model thread (a failed client check, an access
/// after a free, a double free, an exception), the call is made on that thread's stack, so
/// the backtrace shows the client's and the deque's frames at the failing operation; for a
/// bug found once the execution has ended (data race, leak, deadlock, event bound) it is made
/// from the explorer and the report names the events. With a replay token, the call is at
/// the same point of the same execution:
///   gdb -ex 'break stealcheck_bug_hit' -ex run --args stealcheck model V --client C --replay T
/// `kind` is error_name of the bug, `message` its one-line message. Does nothing itself.
extern "C" void stealcheck_bug_hit(const char* kind, const char* message) noexcept;
// SPDX-License-Identifier: Apache-2.0
