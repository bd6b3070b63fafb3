// legacy_deque, written with stealcheck::atomic: this file is compiled twice. Natively it runs
// the native checkers (stress, native linearizability); with -DSTEALCHECK_MODEL=1 the
// model-checking ones (every model client under RC11 and SC, model-checked scenarios).
// stealcheck::atomic_backends tells the suite which build this is.
#include <stealcheck/atomic.hpp>
#include <stealcheck/testing.hpp>

#include "deques/legacy_deque.hpp"

namespace {
template <class T, class /*Mem: fixed by the build*/>
using legacy_deque = example::legacy_deque<T>;
}  // namespace

STEALCHECK_CONFORMANCE_SUITE(LegacyDeque, legacy_deque,
                             {.name = "legacy_deque",
                              .summary = "bounded Chase-Lev ring with stealcheck::atomic",
                              .bounded = true,
                              .values = stealcheck::value_support::scalar,
                              .backends = stealcheck::atomic_backends});
// SPDX-License-Identifier: Apache-2.0
