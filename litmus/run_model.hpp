// litmus/run_model.hpp: running a litmus test under a memory model.
//
// Two runners sit behind one interface, `program_runner`:
//   - the reference enumerator (reference.hpp): brute force, axiomatic, RC11 and SC, always
//     available; and
//   - an exploring model checker with a memory backend (models/, issue 3), plugged in through
//     `run_on_explorer` below: the interpreter runs each thread of the test as a client thread
//     on `Mem::atomic<value_t>`, and the explorer reports every complete execution.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

/// The callbacks an explorer drives for one litmus program (see `run_on_explorer`).
struct explorer_client {
  std::size_t threads = 0;
  std::function<void()> setup;                   ///< before the threads: creates the atomics
  std::function<void(std::size_t)> thread_body;  ///< runs thread i to its end
  std::function<void()> on_complete;             ///< after all threads joined: reads finals
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
/// `Mem::fence`). The final value of each location is read after the join with a relaxed
/// load (after the join every write happens-before it, so it reads the mo-last write and adds
/// no execution: shared/oracle/litmus-rc11.md).
/// Thread role: `thread_body(i)` runs on the explorer's thread i; setup and on_complete on the
/// explorer's main thread. Complexity: that of the explorer.
template <class Mem>
run_result run_on_explorer(const program& p, model_kind m, const explorer& explore) {
  using atomic_t = typename Mem::template atomic<value_t>;
  const test& t = *p.t;
  run_result out;
  std::vector<std::unique_ptr<atomic_t>> storage;
  std::vector<atomic_t*> locs;
  std::vector<thread_state> states;
  explorer_client client;
  client.threads = t.threads.size();
  client.setup = [&] {
    storage.clear();
    locs.clear();
    states.clear();
    for (const location& l : t.locations) {
      storage.push_back(std::make_unique<atomic_t>(l.init));
      locs.push_back(storage.back().get());
    }
    for (std::size_t i = 0; i < t.threads.size(); ++i)
      states.push_back(initial_state(p, static_cast<int>(i)));
  };
  client.thread_body = [&](std::size_t i) {
    run_thread<Mem>(p, static_cast<int>(i), states[i], locs);
  };
  client.on_complete = [&] {
    std::vector<value_t> memory;
    for (atomic_t* a : locs)
      memory.push_back(a->load(std::memory_order_relaxed));
    ++out.outcomes[observe(t, states, memory)];
  };
  const explorer_stats s = explore(m, client);
  out.complete = s.complete;
  out.blocked = s.blocked;
  out.error = s.error;
  return out;
}

}  // namespace stealcheck::litmus
