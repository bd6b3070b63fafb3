// models/explore/trust.hpp: the exploration engine behind explore() (models/explore/explore.hpp,
// the user API): TruSt (Kokologiannakis, Marmanis, Gladstein, Vafeiadis, "Truly Stateless, Optimal
// Dynamic Partial Order Reduction", POPL 2022, Algorithm 2 / section 5), with modification
// order explored explicitly (GenMC's default -mo: one execution per (rf, mo) class).
//
// Events are added one at a time, always for the lowest-numbered thread that can run (a
// deterministic next_P), except that an event without a choice is added by its thread as
// soon as it is made, with no switch to the explorer: a load with exactly one coherent write,
// a store with exactly one coherent mo position (mo-last) and no read to revisit, a fence
// (explorer::add_choice_free, called from the thread's post). A read branches over every write of
// its location (mo-maximal first). A write branches over every mo position, and in each it may
// backward-revisit each same-location read outside its porf-prefix: the graph is cut to the events
// added before the read plus the write's porf-prefix, and the read now reads from the write. A
// revisit is taken only if every deleted event (and the read) was added maximally (TruSt's
// maximality condition, as implemented by GenMC's isMaximalExtension), which makes every consistent
// execution appear exactly once. Consistency is asked of models/graph/consistency.hpp only.
//
// One graph, no copies for forward choices (as GenMC restricts its graph): every event
// carries its insertion stamp, so the graph as it was before a choice point is the current
// one rewound to the stamps below that point (graph::rewind); only a backward revisit builds
// a new graph (the kept prefix), explored and then swapped back. A read's choices are the
// writes from RC11's coherence floor on (coherence_floor), a write's the mo positions after
// it; RMW atomicity is an O(1) test, and the SC axiom is checked only when the new event has
// an outgoing mo/rb edge (consistency.hpp). The first choice runs on the live fibers; the
// others re-execute the client, replaying recorded events inside the fibers (runtime.hpp).
//
// Thread role: the calling OS thread. Complexity: per explored execution, one re-execution
// (O(E) events) plus O(T) to O(E) per added event, and psc (psc.hpp) when it is needed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "models/explore/explore.hpp"
#include "models/graph/graph.hpp"
#include "models/report/token.hpp"
#include "models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

/// Parallel exploration (explore.cpp): every worker explores the same deterministic top of
/// the tree, down to the branch points at branching depth `cut` (the nesting of calls that
/// choose among two or more alternatives); each subtree there is explored by the one worker
/// that claims its number from `next`. The subtrees partition the executions below the cut,
/// so the counts add up exactly; the leaves above it are counted by the owner of the top.
/// Without `next`, a shard (explore.hpp, options::shard_count): subtree number n is explored
/// iff n % shard_count == shard_index, the same fixed division on every machine.
struct split_plan {
  std::size_t cut = 0;                         ///< 0: explore everything (sequential)
  bool probe = false;                          ///< count the subtrees at `cut`, explore none
  bool owns_top = true;                        ///< counts the leaves above the cut
  std::atomic<std::uint64_t>* next = nullptr;  ///< the lowest unclaimed subtree number
  std::uint32_t shard_index = 0;               ///< without `next`: this shard's number
  std::uint32_t shard_count = 1;               ///< without `next`: the number of shards
  /// A random dive (Knuth's estimator, explore.hpp's estimate()): at each branch point one
  /// alternative, drawn uniformly from this seed's stream, is explored; each leaf reached
  /// counts as the product of the branching factors above it. 0: off.
  std::uint64_t dive_seed = 0;
};

class explorer final : private choice_free_adder {
 public:
  explorer(const options& opt, execution& ex, split_plan s = {}) : opt_(opt), ex_(ex), split_(s) {
    // relaxed: a ticket; the workers share nothing else (each has its own graph and fibers).
    if (s.next != nullptr && !s.probe) claim_ = s.next->fetch_add(1, std::memory_order_relaxed);
  }
  result run();
  /// The branch points met at depth `cut` so far (a probe's answer).
  std::uint64_t subtrees_seen() const noexcept { return seen_; }
  /// A dive's estimate of the complete and the blocked executions of the whole tree.
  double estimated_complete() const noexcept { return est_complete_; }
  double estimated_blocked() const noexcept { return est_blocked_; }

 private:
  // Thread t's pending operation when it has no choice, added and committed at once
  // (eager_load, eager_store, eager_fence): see the file comment.
  bool add_choice_free(std::size_t t) override {
    switch (ex_.threads[t]->op.kind) {
      case op_kind::load:
        return eager_load(t);
      case op_kind::store:
        return eager_store(t);
      case op_kind::fence:
        return eager_fence(t);
      default:
        return false;
    }
  }
  bool posts_new(std::size_t t, op_kind k) const;
  /// If thread t's pending operation is a new plain load with exactly one coherent write to
  /// read (its coherence floor is the mo-maximal write), adds the read of that write and
  /// commits it, as handle_load would: one choice is no branch, and a read of the mo-maximal
  /// write adds no mo or rb edge out of itself (a new event has no readers and nothing
  /// hb-after it), so it closes no cycle and is consistent in RC11 and SC alike.
  /// `only_from`, when given (a token replay), must be that write, else nothing is done.
  /// Returns whether it did. O(T + events scanned by coherence_floor).
  bool eager_load(std::size_t t, event_id only_from = event_id::none());
  /// If thread t's pending operation is a new plain store with exactly one coherent mo
  /// position, mo-last (its coherence floor is the mo-maximal write), and no read of its
  /// location lies outside its porf-prefix (so no backward revisit), adds the store there and
  /// commits it, as handle_write would: one choice is no branch, and a write placed mo-last
  /// with no reader adds no mo or rb edge out of itself, so it is consistent in RC11 and SC
  /// alike. Any read outside the porf-prefix stops it, revisitable or not, so that a token
  /// replay (whose reads are all revisitable) decides the same. Returns whether it did.
  /// O(T + events outside the porf-prefix).
  bool eager_store(std::size_t t);
  /// If thread t's pending operation is a new fence, adds it and commits it: a fence has no
  /// choice and no mo or rb edge out of itself (nothing else is checked for one in RC11; in
  /// SC it closes no cycle). Returns whether it did. O(1).
  bool eager_fence(std::size_t t);
  // The graph's edits that are not appends, told to its consistency checker.
  void pop_back(std::size_t t) {
    ex_.g.pop_back(t);
    ex_.checker.truncate(t, ex_.g.threads[t].size());
  }
  void rewind(std::uint32_t stamp) {
    ex_.g.rewind(stamp);
    ex_.checker.truncate_to(ex_.g);
  }
  void visit();
  void handle_read(std::size_t t);
  void handle_load(std::size_t t);
  void handle_write(std::size_t t);
  void handle_rmw_write(std::size_t t);
  bool explore_write(event_id w, std::size_t t, bool live, bool consistent);
  bool choice_consistent(event_id added);
  void rank_again(event_id added, std::uint64_t epoch);
  void resume(std::size_t t, bool live);
  template <class Add, class Undo>
  void explore_in_place(std::size_t t, const std::size_t* choices, std::size_t count, Add&& add,
                        Undo&& undo);
  void visit_other(graph other, consistency_checker checker);
  void replay_failed();
  bool maximal(const graph& g, event_id r, event_id w, const view& keep) const;
  // The revisited graph in `out` and its checker in `out_checker`; `repaired`: its reads
  // whose write was deleted, which now read the mo-maximal write.
  bool revisit(event_id r, event_id w, const view& keep, const view& pre, graph& out,
               consistency_checker& out_checker, std::vector<event_id>& repaired) const;
  void leaf();
  bool check_final(bool complete);
  bool check_leaks(bool complete);
  /// Reports a bug; `focus`: the events it is about when known (models/report/cause.hpp).
  void report(error_kind k, const std::string& message, const std::vector<event_id>& focus = {});
  bool stopped() const { return stop_; }
  template <class F>
  bool child(std::size_t alternatives, F&& explore_it);
  template <class F>
  bool dive(std::size_t alternatives, F&& explore_it);
  void replay(const replay_plan& plan);
  bool replay_step(const replay_plan& plan);

  const options& opt_;
  execution& ex_;
  result res_;
  bool stop_ = false;
  split_plan split_;
  std::size_t depth_ = 0;    // branching depth of the current call (see split)
  std::uint64_t seen_ = 0;   // branch points met at depth split_.cut
  std::uint64_t claim_ = 0;  // the subtree number this worker explores next
  // A dive (split_plan::dive_seed): per depth, the calls of the current branch point so far
  // and the one drawn to run (none: not drawn yet); the product of the branching factors of
  // the drawn alternatives above; the estimates.
  std::vector<std::pair<std::size_t, std::size_t>> dive_calls_;
  std::uint64_t dive_state_ = 0;
  double weight_ = 1;
  double est_complete_ = 0, est_blocked_ = 0;
  std::optional<bug_report> first_bound_;
  std::map<std::pair<std::int32_t, std::int32_t>, std::uint32_t> ranks_;  // replay: final mo rank
  struct {
    std::vector<char> wanted;                   // per location: checked by check_final
    std::vector<std::vector<event_id>> by_loc;  // per location: its accesses
  } final_scratch_;  // reused by check_final (it runs once per execution)
};

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
