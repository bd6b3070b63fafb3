// models/hb.hpp: happens-before of an execution graph, as vector clocks.
//
// hb = (po U sw U tc)+ where tc are the thread edges (spawn -> child's first event, child's
// last event -> join) and sw follows RC11 (Lahav et al., PLDI 2017, section 3.1):
//   sw = [E_rel]; ([F]; po)?; rs; rf; [R]; (po; [F])?; [E_acq]
// with C++20 release sequences rs = [W]; (rf; rmw)* (no same-thread plain writes; this is
// what the oracle, shared/oracle/litmus-rc11.md, and GenMC use). consume counts as acquire.
// Only atomic reads take part in sw; non-atomic accesses appear in po only.
//
// Thread role: explorer thread only. Requires: a graph whose reads have rf set.
// Returns: false from compute_hb if po U rf U tc is cyclic (such a graph is inconsistent in
// every model: RC11's no-thin-air axiom).
// Complexity: O(E * T) time and space for E events and T threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/graph.hpp"

namespace stealcheck::model {

/// One clock per event: count of events of each thread hb-before-or-equal to it.
class hb_clocks {
 public:
  std::size_t threads = 0;
  std::vector<std::size_t> base;   ///< first flat event number of each thread
  std::vector<std::int32_t> data;  ///< (base[t] + i) * threads + u
  std::vector<event_id> topo;      ///< a topological order of po U rf U tc

  const std::int32_t* of(event_id e) const {
    return &data[(base[static_cast<std::size_t>(e.thread)] + static_cast<std::size_t>(e.index)) *
                 threads];
  }
  std::int32_t* of(event_id e) {
    return &data[(base[static_cast<std::size_t>(e.thread)] + static_cast<std::size_t>(e.index)) *
                 threads];
  }
  /// a hb b (strict).
  bool hb(event_id a, event_id b) const { return !(a == b) && of(b)[a.thread] > a.index; }
  /// a hb b or a == b.
  bool hb_eq(event_id a, event_id b) const { return of(b)[a.thread] > a.index; }
};

/// A topological order of po U rf U tc; false if cyclic.
bool porf_order(const graph& g, std::vector<event_id>& out);

/// Computes hb; false if po U rf U tc is cyclic.
bool compute_hb(const graph& g, hb_clocks& c);

}  // namespace stealcheck::model
