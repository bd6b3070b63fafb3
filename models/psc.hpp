// models/psc.hpp: RC11's SC axiom, acyclic(psc) (Lahav et al., PLDI 2017, section 3.2):
//   scb      = po ∪ po|≠loc; hb; po|≠loc ∪ hb|loc ∪ mo ∪ rb
//   psc_base = ([E_sc] ∪ [F_sc]; hb?); scb; ([E_sc] ∪ hb?; [F_sc])
//   psc_F    = [F_sc]; (hb ∪ hb; eco; hb); [F_sc]
// Thread role: explorer thread only. Requires: hb computed for g (models/hb.hpp).
// Complexity: O(S * E^2 / 64) for S sc events and E events; O(E) when S < 2.
#pragma once

#include "models/graph.hpp"
#include "models/hb.hpp"

namespace stealcheck::model {

bool psc_acyclic(const graph& g, const hb_clocks& c);

/// The same answer computed the direct way (bit sets over all events): the test oracle for
/// psc_acyclic (models/tests/psc_test.cpp).
bool psc_acyclic_reference(const graph& g, const hb_clocks& c);

}  // namespace stealcheck::model
