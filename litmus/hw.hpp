// litmus/hw.hpp: running the suite natively on the real cores (`stealcheck litmus --hw`).
//
// Code for every test of litmus/tests/ is generated at build time (litmus/gen/) as plain C++
// on std::atomic with the test's memory orders: no interpreter in the timed path. Each round
// starts the test's threads together (a spin barrier) on fresh locations; the observed
// outcomes are counted, and an outcome the model forbids (it satisfies the condition of a test
// whose expectation says rc11=Never, or fails that of one saying Always) is flagged.
// Source: the method of herd's litmus7 (Alglave, Maranget, Sarkar, Sewell, "Litmus: running
// tests against hardware", TACAS 2011).
#pragma once

#include <iosfwd>
#include <vector>

#include "litmus/suite.hpp"

namespace stealcheck::litmus {

/// Runs each test of `tests` that has generated native code (matched by name) for
/// `opt.rounds` rounds (0: the default, scaled by STEALCHECK_TEST_SCALE for sanitizer builds).
/// Returns 1 if a forbidden outcome was seen or a test has no native code, else 0.
int run_hardware(const std::vector<test>& tests, const litmus_options& opt, std::ostream& out,
                 std::ostream& err);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
