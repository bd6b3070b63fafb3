// litmus/run_model.hpp: running a litmus test under a memory model.
//
// Two runners sit behind one interface, `program_runner`:
//   - the reference enumerator (reference.hpp): brute force, axiomatic, RC11 and SC, always
//     available; and
//   - an exploring model checker with a memory backend (models/), plugged in through
//     `run_on_explorer` below: the interpreter runs each thread of the test as a client thread
//     on `Mem::atomic<value_t>`, and the explorer reports every complete execution.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "litmus/interpreter.hpp"
#include "litmus/outcome.hpp"

namespace stealcheck::litmus {

/// Something that finds every consistent complete execution of a litmus program.
class program_runner {
 public:
  virtual ~program_runner() = default;
  virtual std::string name() const = 0;
  /// Requires: `p` compiled from a checked test. Ensures: the reachable outcomes with the
  /// number of executions reaching each, the total, blocked executions; or `error`.
  virtual run_result run(const program& p, model_kind m) const = 0;
};

/// The brute-force reference (reference.hpp). Complexity: exponential; litmus-sized tests.
std::unique_ptr<program_runner> make_reference_runner();

/// The callbacks an explorer drives for one litmus program (see `run_on_explorer`). Per run
/// of the client: setup(), then thread_body(i) for each i on its own model thread, then, after
/// joining them, finish(); once the explorer knows the run is a consistent complete execution,
/// commit() (after that run's finish(), before the next run's setup()).
struct explorer_client {
  std::size_t threads = 0;
  std::function<void()> setup;                   ///< creates the atomics, initial states
  std::function<void(std::size_t)> thread_body;  ///< runs thread i to its end
  std::function<void()> finish;                  ///< after the join: reads the final state
  std::function<void()> commit;                  ///< the last run was complete: count it
};

/// What an explorer reports about a whole exploration.
struct explorer_stats {
  std::uint64_t complete = 0;
  std::uint64_t blocked = 0;
  std::string error;  ///< nonempty if exploration stopped on an error
};

/// An explorer: runs `client` once per consistent complete execution of model `m`, each time
/// calling setup, then the thread bodies (as its threads), then on_complete.
using explorer = std::function<explorer_stats(model_kind m, const explorer_client& client)>;

/// Runs program `p` under an explorer whose threads use memory backend `Mem`
/// (deques/memory.hpp interface: `Mem::atomic<value_t>` with the std::atomic operations, and
/// `Mem::fence`), and collects the final outcome of every committed run. The final value of
/// each location is read after the join with a relaxed load (after the join every write
/// happens-before it, so it reads the mo-last write and adds no execution:
/// docs/rc11-oracle.md).
/// Errors: the explorer's, or a disagreement between its complete count and the runs it
/// committed. Thread role: `thread_body(i)` runs on the explorer's thread i; setup and finish
/// on the explorer's main thread. Complexity: that of the explorer.
template <class Mem>
run_result run_on_explorer(const program& p, model_kind m, const explorer& explore) {
  using atomic_t = typename Mem::template atomic<value_t>;
  const test& t = *p.t;
  run_result out;
  std::vector<std::unique_ptr<atomic_t>> storage;
  std::vector<atomic_t*> locs;
  std::vector<thread_state> states;
  std::optional<outcome> pending;
  std::uint64_t committed = 0;
  explorer_client client;
  client.threads = t.threads.size();
  client.setup = [&] {
    pending.reset();
    states.clear();
    for (std::size_t i = 0; i < t.threads.size(); ++i)
      states.push_back(initial_state(p, static_cast<int>(i)));
    for (const location& l : t.locations) {
      storage.push_back(std::make_unique<atomic_t>(l.init, l.name.c_str()));  // named as in t
      locs.push_back(storage.back().get());
    }
  };
  client.thread_body = [&](std::size_t i) {
    run_thread<Mem>(p, static_cast<int>(i), states[i], locs);
  };
  client.finish = [&] {
    std::vector<value_t> memory;
    memory.reserve(locs.size());
    for (atomic_t* a : locs)
      memory.push_back(a->load(std::memory_order_relaxed));
    pending = observe(t, states, memory);
    locs.clear();
    storage.clear();  // the run's atomics die in the run that made them
  };
  client.commit = [&] {
    if (pending) ++out.outcomes[*pending], ++committed;
    pending.reset();
  };
  const explorer_stats s = explore(m, client);
  out.complete = s.complete;
  out.blocked = s.blocked;
  out.error = s.error;
  if (out.error.empty() && committed != s.complete)
    out.error = "the explorer reported " + std::to_string(s.complete) +
                " complete executions but committed " + std::to_string(committed);
  return out;
}

/// The model checker of models/ (model::explore on model::memory), or nullptr when this build
/// does not have it (run_model_checker.cpp is compiled only when models/ exists).
std::unique_ptr<program_runner> make_model_checker_runner();

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
