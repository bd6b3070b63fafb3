// litmus/reference.hpp: a brute-force axiomatic enumerator for litmus programs, RC11 and SC.
//
// This is the litmus suite's own reference (herd7's method), independent of the exploring
// model checker in models/: it builds every candidate execution of a test and keeps the
// consistent ones.
//   1. Value domain: each location's possible values, from its initial value and the values
//      stores and RMWs can write, grown to a fixpoint.
//   2. Per thread, every trace (sequence of events) obtained by letting each read return each
//      value of its location's domain (control flow follows the values).
//   3. For each combination of traces, every reads-from choice (a read reads a write of the
//      same location and value, or the initial write) and every modification order per
//      location (initial write first), each checked by the model's consistency predicate.
// One execution is counted per consistent (rf, mo) pair, as GenMC counts them
// (docs/rc11-oracle.md).
//
// RC11 (Lahav, Vafeiadis, Kang, Hur, Dreyer, PLDI 2017, section 3, figure 4) with C++20
// release sequences (rs = [W]; (rf; rmw)*): consistent iff hb is irreflexive with eco
// (coherence), no write intervenes in mo between an RMW and the write it reads (atomicity),
// psc = psc_base U psc_F is acyclic (SC), and sb U rf is acyclic (no thin air). `consume` is
// `acquire`; a failed compare-exchange is a read with the failure order.
// SC: sb U rf U mo U fr acyclic.
//
// Complexity: exponential (product of domain sizes over reads, of rf choices, of mo
// permutations); meant for litmus-sized tests. Limits: 64 events; at most 10^7 candidates
// (an error beyond).
#pragma once

#include "litmus/interpreter.hpp"
#include "litmus/outcome.hpp"

namespace stealcheck::litmus {

/// Every consistent execution of the compiled program under model `m`: the reachable
/// outcomes with their execution counts, and the total. Errors (limits) go to run_result::error.
run_result enumerate_reference(const program& p, model_kind m);

}  // namespace stealcheck::litmus
