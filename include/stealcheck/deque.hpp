// stealcheck/deque.hpp: what a deque is written against. The contract (deques/deque.hpp:
// steal_result, the work_stealing_deque concept), the memory backends (deques/memory.hpp:
// native_memory, memory-order sites) and a variant's description (deques/variant.hpp).
// The model backend is stealcheck::model::memory (models/runtime/memory.hpp); checkers instantiate
// a deque with it themselves.
#pragma once

#include "deques/deque.hpp"
#include "deques/memory.hpp"
#include "deques/variant.hpp"
// SPDX-License-Identifier: Apache-2.0
