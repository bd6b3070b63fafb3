// stress/scenario_gen.hpp: the RapidCheck generator of lincheck scenarios.
// A prefix of 0-4 owner steps, 0-6 parallel owner steps (push twice as likely as pop), and
// 1-3 thieves of 1-4 steps (steal, or steal/steal_batch when `batch`); with `small`, at most
// 2 prefix, 3 owner steps and 2 thieves of 2 steps (for exhaustive model checking). Shrinks towards
// fewer and simpler steps. Call only from the thread that runs RapidCheck.
#pragma once

#include <rapidcheck.h>

#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::stress::lincheck {

rc::Gen<scenario> gen_scenario(bool batch, bool small = false);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
