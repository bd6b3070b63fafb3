// stress/widened.hpp: widened deque histories, the hard case for a linearizability search:
// every thread has an operation in flight almost all the time, so each operation overlaps
// many others (with 8 threads, about a dozen).
//
// widened_history() runs the sequential lifo_owner deque (deques/spec.hpp) as the ground
// truth: thread 0 is the owner (push, pop), threads 1.. are thieves (steal; 1 in 50 aborts).
// Each step picks a thread at random (the owner 3 times in 5, the thieves sharing the rest);
// the thread's operation in flight either takes effect on the sequential deque, when it has
// not yet, or returns and its thread at once invokes the next one. Stamps are one counter, so
// the history is linearizable by construction, its witness the order in which operations took
// effect. The owner pushes 9 times in 10 for 256 operations, then half the time for 256, so
// the deque fills and drains: steals and pops return values and empty alike. Values are
// 0, 1, 2, ... in push order.
//
// A change makes the history not linearizable by changing one result, chosen at random among
// the operations where the change is certain to break it:
//   duplicate    a steal returns a value an owner pop took (taken twice);
//   empty_steal  a steal that took v returns empty instead, where a younger value is stolen
//                too (v is never taken, so that steal took a younger value while v was
//                present);
//   empty_pop    an owner pop that took v returns empty instead (v, pushed by the owner
//                before and never taken, is present).
//
// Thread role: any. Complexity: O(ops) time and memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "stealcheck/detail/stress/history.hpp"

namespace stealcheck::stress::lincheck {

enum class widened_change : std::uint8_t { none, duplicate, empty_steal, empty_pop };

/// "none", "duplicate", "empty_steal", "empty_pop"; and back (nullopt: no such change).
std::string_view change_name(widened_change c) noexcept;
std::optional<widened_change> change_by_name(std::string_view name) noexcept;

struct widened_options {
  std::size_t ops = 1000;   ///< operations in the history
  std::size_t threads = 8;  ///< the owner and threads-1 thieves; at least 2
  std::uint64_t seed = 1;
  widened_change change = widened_change::none;
};

/// A widened history; with a change, nullopt when the history has no operation where that
/// change is certain to break linearizability (only in short histories).
std::optional<history> widened_history(const widened_options& o);

/// The mean, over h's operations, of how many other operations' intervals intersect its own.
/// O(n log n).
double mean_overlap(const history& h);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
