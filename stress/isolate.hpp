// stress/isolate.hpp: run one stress scenario in a child process.
//
// A broken deque does not always fail politely: a value taken twice is, when boxed, freed
// twice (heap corruption, abort), and a livelocked deque never returns. The stress command
// and the verify column therefore run each scenario in a fork()ed child with a deadline: a
// crash or a hang becomes a failed result with one line naming the signal or the deadline,
// never a crash or hang of stealcheck itself.
//
// Thread role: any one thread. fork() copies only the calling thread: the child runs just the
// body (the deque and the threads it starts), never waiting on a lock another thread of the
// parent might hold.
// Errors: if fork() or pipe() fails the scenario runs in-process (and says so in `failure`
// only if it then fails).
#pragma once

#include <functional>
#include <string>

#include "stress/stress.hpp"

namespace stealcheck::stress {

/// Runs `body` in a child process; waits at most `deadline_seconds`.
result run_isolated(const std::function<result()>& body, double deadline_seconds);

/// What a child run gives back: its payload, or why there is none.
struct child_outcome {
  bool ok = false;      ///< the body returned and its payload arrived
  std::string payload;  ///< the body's return value (ok)
  std::string failure;  ///< one line (!ok): the exception, the signal, or the deadline
};

/// Runs `body` in a fork()ed child, which sends its return value back through a pipe; waits
/// at most `deadline_seconds`. A body that throws, or whose thread ends the process through
/// std::terminate (an exception escaping a thread the deque's code runs on), reports the
/// exception's type and message; a crash names the signal; a hang is killed at the deadline.
child_outcome run_in_child(const std::function<std::string()>& body, double deadline_seconds);

}  // namespace stealcheck::stress
