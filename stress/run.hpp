// stress/run.hpp: the scenarios of stress/stress.hpp, for any registered variant.
//
//   stress::run<Tag>(scenario, config) -> result
//
// `Tag` is a deques/variant.hpp variant_tag; the scenario picks the value type (ids, boxed
// payloads or counted values) and instantiates Tag::deque<V, native_memory>.
// Thread role: any one thread; starts owner + config.thieves threads and joins them.
// Complexity: O(config.ops) operations per thread; memory O(1) in the run's length (the
// ledger's window and the values in the deque, stress/ledger.hpp).
#pragma once

#include "stealcheck/detail/stress/scenarios.hpp"  // stress::run and the scenario bodies
// SPDX-License-Identifier: Apache-2.0
