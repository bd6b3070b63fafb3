// models/graph/psc.hpp: RC11's SC axiom, acyclic(psc) (Lahav et al., PLDI 2017, section 3.2):
//   scb      = po ∪ po|≠loc; hb; po|≠loc ∪ hb|loc ∪ mo ∪ rb
//   psc_base = ([E_sc] ∪ [F_sc]; hb?); scb; ([E_sc] ∪ hb?; [F_sc])
//   psc_F    = [F_sc]; (hb ∪ hb; eco; hb); [F_sc]
//
// psc_acyclic computes the psc edges between the S sc events directly, never a relation over
// all E events. For an sc event a it builds the set scb(L) of its left side L ({a}, or for a
// fence {a} ∪ hb-after(a)) as one bit set over events, from three facts: the hb-successors
// of an event form a po-suffix of every thread (found by binary search on the clocks); the
// union of mo (rb) over a set of writes (reads) at one location is what is mo-after the least
// mo position among them (mo is total per location); po|≠loc; hb; po|≠loc from an event is a
// po-suffix per thread, from the first event at another location after its hb-successors.
// An edge a -> b is then one bit test (b an access) or one intersection with hb?-before(b)
// (b a fence); the cycle check is Kahn's algorithm on the S x S edges.
// psc_acyclic_reference is the relational psc of oracle/axioms.hpp on g taken as a candidate
// execution (psc_reference.cpp), written independently of this file: the oracle of
// models/tests/psc_test.cpp, and what psc_acyclic answers for graphs that break graph.hpp's
// invariants (a write missing from mo, an rf to another location).
//
// Thread role: explorer thread only. Requires: hb computed for g (models/graph/hb.hpp).
// Returns: whether psc is acyclic; true without looking when g has fewer than two sc events
// (exact when g is coherent, as rc11.cpp ensures before asking; on an incoherent graph a lone
// sc fence can have a psc self-loop).
// Complexity: psc_acyclic O(E + L * W + S * T * (log E + W) + F * E + S^2 * W) for E events,
// W = E / 64 words, L locations, T threads, S sc events of which F are fences; O(E) when S < 2.
// psc_acyclic_reference O(E^3 / 64).
// Source: Lahav, Vafeiadis, Kang, Hur, Dreyer, Repairing Sequential Consistency in C/C++11,
// PLDI 2017, section 3.2 (psc); the suffix and mo-minimum reductions are this file's.
#pragma once

#include <utility>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"

namespace stealcheck::model {

/// Whether psc is acyclic in g (c = its clocks, hb_of).
bool psc_acyclic(const graph& g, const hb_clocks& c);

/// psc_acyclic(g, *hb_of(g, c)), and when acyclic, a witness for later incremental checks:
/// every sc event gets a psc rank in c (hb_clocks::rank) such that each psc edge goes from a
/// lower to a higher rank, and c.ranks_valid is set (rank_epoch counts these). On a cycle
/// the ranks are left as they were. False (nothing ranked) if po ∪ rf ∪ tc is cyclic.
/// Thread role: explorer thread only. Complexity: that of psc_acyclic (its Kahn step picks
/// the oldest free event: O(S^2) for S sc events).
bool psc_certify(const graph& g, hb_clocks& c);

/// The same answer from the relational oracle (slow): the test oracle for psc_acyclic.
bool psc_acyclic_reference(const graph& g, const hb_clocks& c);

/// Every psc edge (a, b) between sc events of g, self-loops included, from the relational
/// oracle: the test oracle for the ranks of psc_certify and the incremental check (rc11.cpp).
std::vector<std::pair<event_id, event_id>> psc_edges_reference(const graph& g, const hb_clocks& c);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
