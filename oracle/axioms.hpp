// oracle/axioms.hpp: the RC11 and SC consistency axioms over candidate executions
// (execution.hpp), written as relation algebra (relation.hpp), independently of the model
// checker's incremental implementation (models/): this is the test oracle for it, and the
// litmus suite's reference.
//
// RC11 (Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing Sequential Consistency in C/C++11",
// PLDI 2017, section 3, figure 4), with C++20 release sequences (P0982R1):
//   rs       = [W]; (rf; rmw)*
//   sw       = [E_rel]; ([F]; sb)?; rs; rf; [R]; (sb; [F])?; [E_acq]
//   hb       = (sb ∪ sw ∪ sync)+
//   fr       = (rf^-1; mo) \ id            (RC11's rb)
//   eco      = (rf ∪ mo ∪ fr)+
//   coherence       hb; eco? irreflexive, and eco irreflexive
//   atomicity       rmw ∩ (fr; mo) = ∅
//   SC              psc = psc_base ∪ psc_F acyclic, where
//     scb      = sb ∪ sb|≠loc; hb; sb|≠loc ∪ hb|loc ∪ mo ∪ fr
//     psc_base = ([E_sc] ∪ [F_sc]; hb?); scb; ([E_sc] ∪ hb?; [F_sc])
//     psc_F    = [F_sc]; (hb ∪ hb; eco; hb); [F_sc]
//   no-thin-air     sb ∪ sync ∪ rf acyclic
// `rmw` is the identity on events that read and write, plus execution::rmw. eco irreflexive
// is RC11's cycle R -sb-> W -eco-> R for a one-event RMW that reads a write mo-after itself.
// SC: sb ∪ sync ∪ rf ∪ mo ∪ fr acyclic, and atomicity.
//
// Complexity: O(n^3 / 64) for n events (closures and compositions of bit matrices).
#pragma once

#include <utility>
#include <vector>

#include "stealcheck/detail/oracle/execution.hpp"

namespace stealcheck::oracle {

enum class model { rc11, sc };

/// The relations of one candidate execution, named as in the paper (see the file comment).
/// eco is computed on demand (eco()).
struct relations {
  relation sb, rf, mo, fr, rmw, sync, rs, sw, hb;
  event_set writes, sc, sc_fences;
  relation same_loc;
};

/// sb, rf, mo, fr, rmw, rs, sw and hb of x.
relations derive(const execution& x);

relation eco(const relations& d);
relation psc_base(const relations& d);
relation psc_f(const relations& d);
/// psc = psc_base ∪ psc_F, a relation between sc events.
relation psc(const relations& d);

bool coherent(const relations& d);
bool atomic(const relations& d);
bool no_thin_air(const relations& d);
bool psc_acyclic(const relations& d);

bool rc11_consistent(const execution& x);
bool sc_consistent(const execution& x);
bool consistent(const execution& x, model m);

/// Whether sb ∪ sync ∪ rf is acyclic, from the events and rf alone (before mo is chosen).
bool sb_rf_acyclic(const execution& x, const relation& sb);

/// Every psc edge (a, b) as event indices, self-loops included, sorted.
std::vector<std::pair<int, int>> psc_edges(const execution& x);

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
