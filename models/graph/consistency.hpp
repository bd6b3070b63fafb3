// models/graph/consistency.hpp: the consistency layer's entry point: is an execution graph allowed
// by a memory model? One checker object per graph being explored; it owns that graph's
// derived data (hb clocks, psc ranks: models/graph/hb.hpp), so the graph stays a plain value, and
// dispatches to one set of axioms per model (GenMC's ExecutionGraph/Consistency layering: the
// checker never drives exploration; the explorer never encodes an axiom).
//
//   rc11  RC11 (models/graph/rc11.hpp; Lahav, Vafeiadis, Kang, Hur, Dreyer, PLDI 2017, section 3,
//         Fig. 3 and 4): coherence, atomicity, SC acyclic(psc), no-thin-air; C++20 release
//         sequences.
//   sc    sequential consistency (models/graph/sc.hpp): acyclic(po ∪ rf ∪ mo ∪ rb) and atomicity.
//
// The checker follows the edits of its graph: truncate_to after events were removed from
// the ends of threads (graph::pop_back, graph::rewind), reads_from_changed before an existing
// event's reads-from changes, restricted for the graph graph::prefix builds. A checker whose
// caches are empty is always right (it recomputes them); one whose caches describe other
// events than the graph's gives wrong answers.
//
// Thread role: the explorer's OS thread (one checker per explored graph; checkers share
// nothing). Requires: every read has rf set to a write of its location present in the graph;
// mo lists every write of each location.
// Complexity: rc11 O(E * T) for a whole graph plus psc (models/graph/psc.hpp) when there are two or
// more sc events, O(T) to O(E) per added event; sc O(E * T).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"
#include "stealcheck/detail/models/graph/rc11.hpp"
#include "stealcheck/detail/models/graph/sc.hpp"

namespace stealcheck::model {

class consistency_checker {
 public:
  explicit consistency_checker(memory_model m = memory_model::rc11) : model_(m) {}

  memory_model model() const noexcept { return model_; }

  /// The whole graph. Under RC11 a consistent answer also ranks g's sc events, for the
  /// incremental checks below.
  bool consistent(const graph& g) {
    return model_ == memory_model::rc11 ? rc11_consistent(g, cache_) : sc_consistent(g);
  }
  /// Incremental: g is a consistent graph plus the po-last event `added` of its thread (and,
  /// for the write part of an RMW, its read part): rc11_consistent_after, or SC in full.
  bool consistent_after(const graph& g, event_id added) {
    return model_ == memory_model::rc11 ? rc11_consistent_after(g, cache_, added)
                                        : sc_consistent(g);
  }
  /// A choice taken among the coherent, atomic candidates (coherence_floor,
  /// mo_insert_keeps_atomicity, rmw_may_read): under RC11 only the SC axiom is left to check
  /// (rc11_sc_axiom_after); under SC the whole graph.
  bool choice_consistent(const graph& g, event_id added) {
    return model_ == memory_model::rc11 ? rc11_sc_axiom_after(g, cache_, added) : sc_consistent(g);
  }
  /// The graph of a backward revisit (rc11_consistent_revisit), or SC in full.
  bool revisit_consistent(graph& g, event_id r, event_id w, const std::vector<event_id>& repaired) {
    return model_ == memory_model::rc11 ? rc11_consistent_revisit(g, cache_, r, w, repaired)
                                        : sc_consistent(g);
  }

  /// RC11's coherence floor of the next event of thread t at loc (rc11.hpp), which both
  /// models' choices start from.
  int coherence_floor(const graph& g, std::size_t t, std::uint32_t loc) {
    return model::coherence_floor(g, cache_, t, loc);
  }
  int coherence_floor_at(const graph& g, std::size_t t, std::size_t index, std::uint32_t loc) {
    return model::coherence_floor_at(g, cache_, t, index, loc);
  }

  /// g's happens-before clocks (nullptr if po ∪ rf ∪ tc is cyclic), porf-prefixes (hb.hpp).
  const hb_clocks* hb(const graph& g) { return hb_of(g, cache_); }
  view porf_prefix(const graph& g, event_id e) { return model::porf_prefix(g, cache_, e); }
  const hb_clocks::clock* porf_before_next(const graph& g, std::size_t t) {
    return model::porf_before_next(g, cache_, t);
  }

  /// Counts the changes of the psc ranks (hb_clocks::rank_epoch): a choice checked before a
  /// newer epoch is checked again before it is explored (the explorer's rank_again).
  std::uint64_t rank_epoch() const noexcept { return cache_.rank_epoch; }

  // ---- following the graph's edits ----
  /// Events were removed from the ends of g's threads. O(T).
  void truncate_to(const graph& g) {
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      cache_.clamp(t, g.threads[t].size());
  }
  /// The events of thread t from position n on are removed or about to change. O(1).
  void truncate(std::size_t t, std::size_t n) { cache_.clamp(t, n); }
  /// Event r's reads-from is about to change: when r has clocks, every clock may depend on
  /// it, and they are all dropped (recomputed at the next question). O(1).
  void reads_from_changed(event_id r) {
    const auto t = static_cast<std::size_t>(r.thread);
    if (t < cache_.valid.size() && static_cast<std::size_t>(r.index) < cache_.valid[t])
      cache_.drop();
  }
  /// The checker of `kept`, a porf-closed per-thread prefix of this checker's graph
  /// (graph::prefix): the kept events' clocks carry over (they depend on porf predecessors
  /// only), and a restriction of a topological order of psc orders the kept graph's psc.
  consistency_checker restricted(const graph& kept) const;

  /// The caches, for tests that inspect the ranks.
  const hb_clocks& cache() const noexcept { return cache_; }
  hb_clocks& cache() noexcept { return cache_; }

 private:
  memory_model model_;
  hb_clocks cache_;
};

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
