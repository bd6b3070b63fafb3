// litmus/reference.hpp: a brute-force axiomatic enumerator for litmus programs, RC11 and SC.
//
// This is the litmus suite's own reference (herd7's method), independent of the exploring
// model checker in models/: oracle/enumerate.hpp builds every candidate execution of the
// compiled test (value domains to a fixpoint, every trace per thread, every rf and mo) and
// keeps those oracle/axioms.hpp accepts (RC11 of Lahav et al., PLDI 2017, with C++20 release
// sequences; or SC). One execution is counted per consistent (rf, mo) pair, as GenMC counts
// them (docs/rc11-oracle.md). `consume` is `acquire`; a failed compare-exchange is a read
// with the failure order; a relaxed fence is no event.
//
// Complexity: exponential (product of domain sizes over reads, of rf choices, of mo
// permutations); meant for litmus-sized tests. Limits (oracle/enumerate.hpp): 64 events, 64
// values per location, at most 10^7 candidates (an error beyond).
#pragma once

#include "litmus/interpreter.hpp"
#include "litmus/outcome.hpp"

namespace stealcheck::litmus {

/// Every consistent execution of the compiled program under model `m`: the reachable
/// outcomes with their execution counts, and the total. Errors (limits) go to run_result::error.
run_result enumerate_reference(const program& p, model_kind m);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
