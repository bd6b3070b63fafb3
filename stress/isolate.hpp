// stress/isolate.hpp: run one stress scenario in a child process.
//
// A broken deque does not always fail politely: a value taken twice is, when boxed, freed
// twice (heap corruption, abort), and a livelocked deque never returns. The stress command
// and the verify column therefore run each scenario in a fork()ed child with a deadline: a
// crash or a hang becomes a failed result with one line naming the signal or the deadline,
// never a crash or hang of stealcheck itself.
//
// Thread role: call from a single-threaded process (fork() copies only the calling thread;
// stealcheck's CLI forks before it starts any thread).
// Errors: if fork() or pipe() fails the scenario runs in-process (and says so in `failure`
// only if it then fails).
#pragma once

#include <functional>

#include "stress/stress.hpp"

namespace stealcheck::stress {

/// Runs `body` in a child process; waits at most `deadline_seconds`.
result run_isolated(const std::function<result()>& body, double deadline_seconds);

}  // namespace stealcheck::stress
