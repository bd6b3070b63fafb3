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

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/explore/walk.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/report/token.hpp"
#include "stealcheck/detail/models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

/// One random dive below a piece (Knuth's estimator): the path is followed, then at each
/// branch point one alternative drawn uniformly is explored; the leaf reached weighs the
/// product of the branching factors below the piece. Integer arithmetic (saturating), so
/// that a division built from dives is the same on every machine.
struct dive_sample {
  std::uint64_t complete = 0;  ///< the weight of the complete leaf reached (0: none)
  std::uint64_t blocked = 0;   ///< the weight of the blocked leaf reached (0: none)
  std::uint32_t children = 0;  ///< alternatives of the piece's own branch point (0: none)
  bool reached = false;        ///< the path led to the piece (false: no such node)
};

class forward_strategy;  // forward.hpp

class explorer final : private choice_free_adder, private work_donor {
 public:
  explorer(const options& opt, execution& ex) : opt_(opt), ex_(ex) {}
  /// Explores the whole tree (or replays options::replay) and returns the result.
  result run();
  /// Explores the pieces `source` hands out, one after another, until it has no more (or a
  /// bug stops the run), and returns the result over all of them. Each piece costs one walk
  /// down its path (a re-execution per branch point on it) besides its own executions.
  /// Whenever the source is hungry, the worker gives away the untried alternatives of the
  /// shallowest branch point it is inside that has any, and skips them itself. `done`, when
  /// given, is called after each piece with the executions it had.
  result run_pieces(piece_source& source, const std::function<void(std::uint64_t)>& done = nullptr);
  /// Draws `executions` executions, each one random walk from the root (random_walk) seeded
  /// from `seed`'s splitmix64 stream, checking each as run() does; stops at the first bug.
  /// See options::sample.
  result sample(std::uint64_t executions, std::uint64_t seed);
  /// Draws `executions` executions forward (forward.hpp): each built from the empty graph one
  /// event at a time as `s` chooses, with no revisit and one run of the client; each checked
  /// as run() checks it; stops at the first bug. A dead end (no consistent candidate) is drawn
  /// again, at most 16 attempts per execution asked for.
  result sample_forward(std::uint64_t executions, forward_strategy& s);
  /// One random dive below piece p, drawn from `seed`'s stream (models/divide/: the estimate and
  /// the division). Bugs met on the way are not reported: a dive only measures. Reusable: the
  /// explorer's fibers and buffers serve every dive.
  dive_sample dive(const piece& p, std::uint64_t seed);
  /// From now on, while exploring pieces (run_pieces), counts each execution at every node
  /// of its path from the root down to branching depth `depth` (node_counts). O(depth) per
  /// execution, one trie node per node met.
  void count_nodes(std::size_t depth) {
    count_depth_ = depth;
    trie_.assign(1, trie_node{});
  }
  /// The executions counted below each node met (count_nodes), by path.
  std::map<piece_path, std::uint64_t> node_counts() const;

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
  void forward_execution(forward_strategy& s);
  bool forward_step(std::size_t t, forward_strategy& s, std::uint64_t& reads);
  bool check_final(bool complete);
  bool check_leaks(bool complete);
  /// Reports a bug; `focus`: the events it is about when known (models/report/cause.hpp).
  void report(error_kind k, const std::string& message, const std::vector<event_id>& focus = {});
  bool stopped() const { return stop_; }
  template <class F>
  bool child(std::size_t alternatives, F&& explore_it);
  void walk(const piece* target, walk_mode& mode);
  bool give_away(piece_source& to) override;
  result finish(std::chrono::steady_clock::time_point t0);
  void replay(const replay_plan& plan);
  bool replay_step(const replay_plan& plan);

  const options& opt_;
  execution& ex_;
  result res_;
  bool stop_ = false;
  // The walk (walk()): its target piece's path is followed (a call off it is skipped) down to
  // the piece, below which the mode (walk.hpp) says which alternatives run: all of them
  // (inside_ from the piece on: its leaves are executions), or in a dive one, weighing
  // `weight_`. Per branching depth on the way: the calls of the current branch point so far,
  // the ordinals to run [lo, hi) (lo == undrawn: ask the mode at the first call, with `from`)
  // and the number of alternatives.
  struct level {
    std::size_t calls = 0, lo = 0, hi = 0, alternatives = 0, from = 0;
  };
  const piece* target_ = nullptr;
  exhaustive_walk whole_tree_;
  walk_mode* mode_ = &whole_tree_;  // a token replay's too
  bool inside_ = true;
  bool reached_ = false;  // the walk came to its target piece
  std::size_t depth_ = 0;
  std::vector<level> at_;
  std::uint64_t weight_ = 1;
  std::uint64_t est_complete_ = 0, est_blocked_ = 0;
  std::optional<bug_report> first_bound_;
  // count_nodes: per node met, its executions and its children's nodes (by ordinal; 0: none)
  struct trie_node {
    std::uint64_t executions = 0;
    std::vector<std::uint32_t> children;
  };
  std::size_t count_depth_ = 0;
  std::vector<trie_node> trie_;  // the root first; empty: not counting
  void count_execution();
  std::map<std::pair<std::int32_t, std::int32_t>, std::uint32_t> ranks_;  // replay: final mo rank
  struct {
    std::vector<char> wanted;                   // per location: checked by check_final
    std::vector<std::vector<event_id>> by_loc;  // per location: its accesses
  } final_scratch_;  // reused by check_final (it runs once per execution)
};

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
