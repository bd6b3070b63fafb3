// testing/checkers.hpp: the checkers of the conformance suite (stealcheck/testing.hpp), in
// the order its tests are registered: model (RC11 and SC), lincheck, stress, fuzz. Internal:
// a user reaches them through STEALCHECK_CONFORMANCE_SUITE and stealcheck::testing::run_unit.
//
// Thread role: any. Complexity: O(1) (each checker lists its units only when asked).
#pragma once

#include <vector>

#include "stealcheck/detail/harness/checker.hpp"

namespace stealcheck::testing {

std::vector<harness::checker> conformance_checkers();

}  // namespace stealcheck::testing
// SPDX-License-Identifier: Apache-2.0
