// models/explore/forward.hpp: the strategies of forward sampling (explorer::sample_forward,
// trust.hpp). A forward sample builds one execution from the empty graph, one event at a time,
// never going back: at each step the strategy picks the thread that runs next among the
// runnable ones, and for the event that thread adds, which write a read takes (among the
// writes RC11 lets it read: from its coherence floor to the mo-latest) and where a write goes
// in mo (among its coherent positions). Every candidate offered is checked for consistency
// before it is taken, so every sampled execution is consistent. As RC11 has no po ∪ rf cycle,
// every consistent execution can be built this way (its events added in an order that extends
// po ∪ rf), so a strategy that gives every candidate a chance reaches every one. No backward
// revisit, no re-execution: one run of the client per execution, O(T + candidates) per event.
// - uniform_strategy (`random`): each runnable thread, each coherent write and each mo position
//   drawn uniformly, as C11Tester samples C11 executions (Luo and Demsky, ASPLOS 2021).
// - pct_strategy (`pct`, depth d): PCT's scheduler (Burckhardt et al., ASPLOS 2010): distinct
//   random priorities d.. for the threads, the highest-priority runnable thread runs, and at d-1
//   change points drawn uniformly over the steps of the previous execution the running
//   thread's priority drops to 1, 2, ... (below every initial one). Adapted to weak memory as
//   PCTWM adapts it (Gao, Chakraborty, Ozkan, ASPLOS 2023), by counting stale reads in the bug
//   depth: a read takes the mo-latest coherent write, except at d-1 stale points drawn
//   uniformly over the reads of the previous execution, where it takes an older coherent write,
//   drawn uniformly; a write goes mo-last. PCT's bound: a bug of depth d (d-1 ordering
//   constraints) among n threads and k steps is found by one execution with probability at
//   least 1/(n k^(d-1)); a stale read chosen among the r reads counts here as one more
//   constraint (a factor 1/r times 1/(older writes)).
//
// Thread role: the explorer's thread. Determinism: the same seed draws the same choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"

namespace stealcheck::model::detail {

class forward_strategy {
 public:
  virtual ~forward_strategy() = default;
  /// A new execution begins.
  virtual void start() = 0;
  /// The thread that adds the next event, among `runnable` (ascending, at least one).
  virtual std::size_t thread(std::span<const std::size_t> runnable) = 0;
  /// The write a read takes among `count` candidates, 0 the mo-latest, then older ones.
  virtual std::size_t read(std::size_t count) = 0;
  /// The mo position a write takes among `count` candidates, 0 mo-last, then earlier ones.
  virtual std::size_t write(std::size_t count) = 0;
  /// The execution ended after `steps` events added by the strategy's choices, `reads` of
  /// them reads with more than one candidate.
  virtual void finish(std::uint64_t /*steps*/, std::uint64_t /*reads*/) {}
};

/// `random`: every choice uniform (C11Tester).
class uniform_strategy final : public forward_strategy {
 public:
  explicit uniform_strategy(std::uint64_t seed) : state_(seed) {}
  void start() override {}
  std::size_t thread(std::span<const std::size_t> runnable) override {
    return runnable[draw(runnable.size())];
  }
  std::size_t read(std::size_t count) override { return draw(count); }
  std::size_t write(std::size_t count) override { return draw(count); }

 private:
  std::size_t draw(std::size_t n) { return static_cast<std::size_t>(splitmix64_next(state_) % n); }
  std::uint64_t state_;
};

/// `pct`: PCT's priorities with d-1 change points, and d-1 stale reads (see the file comment).
class pct_strategy final : public forward_strategy {
 public:
  pct_strategy(std::uint64_t seed, unsigned depth) : state_(seed), depth_(depth < 1 ? 1 : depth) {}
  void start() override;
  std::size_t thread(std::span<const std::size_t> runnable) override;
  std::size_t read(std::size_t count) override;
  std::size_t write(std::size_t /*count*/) override { return 0; }
  void finish(std::uint64_t steps, std::uint64_t reads) override {
    steps_hint_ = steps > 0 ? steps : 1;
    reads_hint_ = reads > 0 ? reads : 1;
  }

 private:
  std::uint64_t draw(std::uint64_t n) { return splitmix64_next(state_) % n; }
  std::uint64_t state_;
  unsigned depth_;
  std::uint64_t steps_hint_ = 64, reads_hint_ = 16;  // the previous execution's
  std::uint64_t step_ = 0, read_ = 0;
  std::vector<std::uint64_t> priority_ = std::vector<std::uint64_t>(max_threads);
  std::vector<std::uint64_t> change_, stale_;  // 1-based steps and reads, ascending
};

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
