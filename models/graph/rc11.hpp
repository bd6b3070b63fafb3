// models/graph/rc11.hpp: RC11 consistency of an execution graph (Lahav, Vafeiadis, Kang, Hur,
// Dreyer, "Repairing Sequential Consistency in C/C++11", PLDI 2017, section 3, Fig. 3 and 4):
// coherence irreflexive(hb; eco?), atomicity rmw ∩ (rb; mo) = ∅, SC acyclic(psc) with
// psc = psc_base ∪ psc_F, no-thin-air acyclic(po ∪ rf); C++20 release sequences
// (models/graph/hb.hpp). Whole-graph and incremental forms, and the coherent choices of a new
// event. Each function reads and extends the hb clocks and psc ranks in `c`, the caches of
// the consistency checker that owns them (models/graph/consistency.hpp, the layer's entry point).
//
// Thread role: explorer thread only. Requires: every read has rf set to a write of its
// location present in the graph; mo lists every write of each location; c holds g's clocks
// (hb_of, models/graph/hb.hpp).
// Complexity: O(E * T) for the whole graph plus psc (models/graph/psc.hpp) when there are two or
// more sc events; the incremental forms as stated per function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"

namespace stealcheck::model {

/// The whole graph. A consistent answer also ranks its sc events in c for the incremental
/// checks below (psc_certify, models/graph/psc.hpp).
bool rc11_consistent(const graph& g, hb_clocks& c);

/// Incremental form: g is g0 plus the po-last event `added` of its thread (and, when `added`
/// is the write part of an RMW, the read part just before it), and g0 was consistent.
/// RC11 then skips the SC axiom when no psc cycle can have appeared: `added` creates no mo or
/// rb edge towards existing writes (it reads the mo-maximal write, or is a write placed
/// mo-last), whether it is sc or not. Reasoning: every new psc edge passes through a new
/// scb/eco edge out of `added` (it is hb-maximal, so no edge leaves it through hb or po) or
/// ends in `added`; edges that only end in it cannot close a cycle. When the psc ranks in c
/// are valid (hb_clocks) and the new edges go up in rank, possibly after lowering their sources'
/// ranks to between their psc-predecessors and the ends, psc is not computed either
/// (rc11.cpp).
/// Requires, when c.ranks_valid: the ranks order every psc edge of g0. They do when every
/// event appended since the ranks last changed (rank_epoch) was checked by
/// these functions after it; the explorer re-checks a choice checked before a newer epoch.
bool rc11_consistent_after(const graph& g, hb_clocks& c, event_id added);

/// RC11 consistency of the graph a backward revisit builds (TruSt): g0, the events it keeps
/// other than the ones below, which form a porf-closed part of a consistent graph whose psc
/// ranks in c are valid (hb_clocks); plus the revisiting write w (and its read part, for an RMW),
/// po-last in its thread with no reader but r; the revisited read r, now reading w, po-last
/// in its thread; and `repaired`, reads po-last in their threads whose write was deleted and
/// that now read the mo-maximal write. Each of these events is hb-maximal but for w hb r, so
/// the checks of an added event apply to them one at a time: they are ranked above every other
/// event (consuming stamps, g.next_stamp) in the order rmw read part, w, r, repaired, and
/// the SC axiom is checked after w and after r (a read of the mo-maximal write adds no psc
/// edge out of itself). Coherence is checked for the pairs ending in r, w and its read part
/// (the only new ones), atomicity in full. Falls back to rc11_consistent when g's ranks are
/// not valid. Complexity: O(E) plus the SC axiom's checks (psc only when those need it).
bool rc11_consistent_revisit(graph& g, hb_clocks& c, event_id r, event_id w,
                             const std::vector<event_id>& repaired);
/// RC11's coherent choices for the next event of thread t, an access to `loc` (GenMC's
/// getCoherentStores / getCoherentPlacings): the largest mo position of a write that an
/// access to `loc` hb-before that event writes or reads from (-1 if none). A new read may
/// read from exactly the writes at positions >= the floor; a new write may be inserted at
/// exactly the positions > the floor. Why that suffices: the new event is hb-maximal, so the
/// only new coherence pairs end in it; within one thread the positions of a consistent
/// graph's accesses to a location never decrease along po, so the po-last access of each
/// thread's hb-prefix bounds them all; and the events an acquire read gains through its
/// reads-from are hb-before that write, whose own coherence already bounds them.
/// Requires: g consistent. Complexity: O(T * accesses scanned back per thread).
int coherence_floor(const graph& g, hb_clocks& c, std::size_t t, std::uint32_t loc);
/// The same floor for an event at position `index` of thread t (the accesses hb-before its
/// po-predecessor), e.g. a read that a backward revisit makes read another write: it can
/// only be coherent if that write's mo position is >= the floor (its acquire reads-from adds
/// nothing: every access hb-before a write is mo-before it in a coherent graph).
int coherence_floor_at(const graph& g, hb_clocks& c, std::size_t t, std::size_t index,
                       std::uint32_t loc);

/// RMW atomicity for a choice, without a scan: whether a write may be inserted into mo of
/// its location at `pos` (it must not split an RMW from the write it reads), and whether an
/// RMW may read from the write at `pos` (no other RMW reads from it yet). O(1) / O(T).
bool mo_insert_keeps_atomicity(const graph& g, std::uint32_t loc, std::size_t pos);
bool rmw_may_read(const graph& g, std::uint32_t loc, std::size_t pos);

/// The rest of RC11 for a choice taken among coherent, atomic candidates (above): only the SC
/// axiom can still fail, and only if `added` is sc or creates mo/rb edges towards existing
/// writes (see rc11_consistent_after). `added` as in rc11_consistent_after.
bool rc11_sc_axiom_after(const graph& g, hb_clocks& c, event_id added);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
