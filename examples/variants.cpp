// The example's own stealcheck command (stealcheck_add_cli): its deques next to the built-in
// ones, under `list`, `verify`, `model`, `lincheck` and `stress`.
#include <stealcheck/register.hpp>

#include "deques/ws_deque.hpp"

namespace {
template <class T, class Mem>
using ws_deque = example::ws_deque<T, Mem>;
template <class T, class Mem>
using ws_deque_relaxed_array = example::ws_deque_relaxed_array<T, Mem>;
}  // namespace

STEALCHECK_REGISTER_VARIANT(ws_deque, {.name = "ws_deque",
                                       .summary = "Chase-Lev, values in atomics, growable",
                                       .values = stealcheck::value_support::scalar,
                                       .sites = stealcheck::sites_of<example::ws_deque_sites>()});

// Registered as known-bad: `verify --include-known-bad` must catch it.
STEALCHECK_REGISTER_VARIANT(
    ws_deque_relaxed_array,
    {.name = "ws_deque_relaxed_array",
     .summary = "ws_deque with steal's array load relaxed",
     .known_bad = true,
     .known_bad_reason = "steal loads the array pointer relaxed: a thief "
                         "can read a resized array's slot before its copy",
     // caught only by this failure: a value taken that no push pushed (a stale slot)
     .must_show = {stealcheck::failure_kind::value_invented},
     .values = stealcheck::value_support::scalar,
     .sites = stealcheck::sites_of<example::ws_deque_relaxed_array_sites>()});
// SPDX-License-Identifier: Apache-2.0
