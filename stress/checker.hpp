// stress/checker.hpp: the native stress test as a column of `stealcheck verify`.
//
// For each variant: every scenario of stress/stress.hpp once, and last_item (the scenario
// that exposes a missing pop fence on x86) `last_item_runs` times with consecutive seeds,
// the same for every variant. The cell fails on the first conservation failure, naming the
// offending value and the replay command.
#pragma once

#include "tools/verify.hpp"

namespace stealcheck::stress {

tools::checker stress_checker();

/// The linearizability column: generated scenarios run natively, then model-checked.
tools::checker lincheck_checker();

}  // namespace stealcheck::stress
