// The same suite for the deque with the published bug (steal loads the array pointer relaxed):
// its model-checking tests fail, naming the value the thief took and the execution.
#include <stealcheck/testing.hpp>

#include "deques/ws_deque.hpp"

namespace {
template <class T, class Mem>
using ws_deque_relaxed_array = example::ws_deque_relaxed_array<T, Mem>;
}  // namespace

STEALCHECK_CONFORMANCE_SUITE(
    WsDequeRelaxedArray, ws_deque_relaxed_array,
    {.name = "ws_deque_relaxed_array",
     .summary = "ws_deque with steal's array load relaxed",
     .values = stealcheck::value_support::scalar,
     .sites = stealcheck::sites_of<example::ws_deque_relaxed_array_sites>()});
// SPDX-License-Identifier: Apache-2.0
