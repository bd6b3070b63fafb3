// models/graph/sc.hpp: sequential consistency of an execution graph: acyclic(po ∪ rf ∪ mo ∪ rb ∪
// tc) and RMW atomicity (Lamport 1979; the axiomatic form as in Alglave, Maranget, Tautschnig,
// "Herding Cats", TOPLAS 2014, section 4). Needs no cache.
//
// Thread role: explorer thread only. Requires: as models/graph/rc11.hpp.
// Complexity: O(E * T) for E events and T threads.
#pragma once

#include "stealcheck/detail/models/graph/graph.hpp"

namespace stealcheck::model {

/// Whether g is sequentially consistent.
bool sc_consistent(const graph& g);

/// RMW atomicity (shared by both models): each RMW write is mo-immediately after the write
/// its read part reads from. O(E * writes per location).
bool rmw_atomic(const graph& g);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
