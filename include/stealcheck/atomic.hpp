/// @file
/// stealcheck/atomic.hpp: check a deque written with plain std::atomic, after a mechanical edit.
///
/// A deque that is not templated on a memory backend can still be model-checked: replace
/// @code
/// std::atomic<T>            by  stealcheck::atomic<T>
/// std::atomic_thread_fence  by  stealcheck::atomic_thread_fence
/// @endcode
/// (same members, same memory-order arguments). Compiled normally, these are exactly std::'s
/// (aliases: zero overhead). Compiled with STEALCHECK_MODEL defined (-DSTEALCHECK_MODEL=1), they
/// are the model checker's (stealcheck::model::memory), and every access of the deque becomes an
/// event of the explored executions, the way Rust's loom is switched in by `cfg(loom)`.
/// So one source gives two test binaries: a native one (stress, native linearizability) and a
/// model-checking one (every model client under RC11 and SC, model-checked scenarios). Register
/// it in each with `.backends = stealcheck::atomic_backends` (deques/variant.hpp), which says
/// which checkers the translation unit's build can run.
///
/// Requires (model build): atomics hold trivially copyable values of at most 8 bytes; the
/// deque's own code holds no other shared state than atomics (plain shared data would need
/// Mem::nonatomic to be race-checked); heap memory from new/delete is not tracked (a deque
/// templated on Mem gets use-after-free and leak checks through Mem::create/destroy).
/// Thread role: as std::atomic. Model build: accesses only inside the model checker's runs.
#pragma once

#include <atomic>

#include "stealcheck/detail/deques/variant.hpp"

#if defined(STEALCHECK_MODEL) && STEALCHECK_MODEL
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck {
template <class T>
using atomic = model::memory::atomic<T>;
/// As std::atomic_thread_fence, as an event of the model checker's execution.
inline void atomic_thread_fence(std::memory_order o, source_loc s = source_loc::current()) {
  model::memory::fence(o, s);
}
/// This build runs the model-checking checkers only.
inline constexpr backend_support atomic_backends = backend_support::model_only;
}  // namespace stealcheck

#else

namespace stealcheck {
template <class T>
using atomic = std::atomic<T>;
inline void atomic_thread_fence(std::memory_order o) noexcept {
  std::atomic_thread_fence(o);
}
/// This build runs the native checkers only.
inline constexpr backend_support atomic_backends = backend_support::native_only;
}  // namespace stealcheck

#endif
// SPDX-License-Identifier: Apache-2.0
