// The whole conformance suite for ws_deque: one line. Every model client under RC11 and SC,
// generated scenarios model-checked and run natively, the native stress ladder; each a test.
#include "deques/ws_deque.hpp"

#include <stealcheck/testing.hpp>

namespace {
template <class T, class Mem>
using ws_deque = example::ws_deque<T, Mem>;
}  // namespace

STEALCHECK_CONFORMANCE_SUITE(WsDeque, ws_deque,
                             {.name = "ws_deque",
                              .summary = "Chase-Lev, values in atomics, growable",
                              .values = stealcheck::value_support::scalar,
                              .sites = stealcheck::sites_of<example::ws_deque_sites>()});
// SPDX-License-Identifier: Apache-2.0
