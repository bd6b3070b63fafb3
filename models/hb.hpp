// models/hb.hpp: happens-before of an execution graph, as vector clocks.
//
// hb = (po U sw U tc)+ where tc are the thread edges (spawn -> child's first event, child's
// last event -> join) and sw follows RC11 (Lahav et al., PLDI 2017, section 3.1):
//   sw = [E_rel]; ([F]; po)?; rs; rf; [R]; (po; [F])?; [E_acq]
// with C++20 release sequences rs = [W]; (rf; rmw)* (no same-thread plain writes; this is
// what the oracle, docs/rc11-oracle.md, and GenMC use). consume counts as acquire.
// Only atomic reads take part in sw; non-atomic accesses appear in po only.
//
// Thread role: explorer thread only. Requires: a graph whose reads have rf set.
// Returns: nullptr from hb_of if po U rf U tc is cyclic (such a graph is inconsistent in
// every model: RC11's no-thin-air axiom).
// Complexity: O(T) per event added since the last call; O(E * T) after a change to an
// existing event. Requires: at most hb_cache::width threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/graph.hpp"

namespace stealcheck::model {

/// The clocks of a graph (see hb_cache in graph.hpp).
using hb_clocks = hb_cache;

/// The graph's clocks, brought up to date (only events added since the last call are
/// computed, in O(T) each). nullptr if po U rf U tc is cyclic.
const hb_clocks* hb_of(const graph& g);

/// The porf-prefix of e (inclusive) as per-thread prefix lengths, from the cached porf
/// clocks (O(T) after hb_of). Requires: po U rf U tc acyclic (every graph the explorer
/// extends is).
view porf_prefix(const graph& g, event_id e);

/// The porf-prefix of the next event of thread t (without that event), as per-thread prefix
/// lengths: its po-predecessor's, or the spawn's for a first event (all zero if g has a
/// po U rf cycle). Valid until g changes. O(T) after hb_of.
const hb_cache::clock* porf_before_next(const graph& g, std::size_t t);

/// Whether g has a read of `loc` outside the porf-prefix `pre` (per thread, the prefix
/// length), counting only reads that may still be backward-revisited if `revisitable_only`.
/// A write whose porf-prefix is `pre` can be read by exactly such reads (TruSt's backward
/// revisits). O(events outside pre).
bool read_outside(const graph& g, std::uint32_t loc, const hb_cache::clock* pre,
                  bool revisitable_only);

}  // namespace stealcheck::model
