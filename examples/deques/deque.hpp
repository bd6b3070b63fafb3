// deques/deque.hpp: what this project's deques share. A runtime's own deques/ folder, with a
// header named as one of stealcheck's internal headers: it does not clash, because the package
// puts only <stealcheck/...> on a user's include path (ci/example.sh builds this project against
// the installed package, with this folder's parent on the include path).
//
// Thread role: constants only. Complexity: O(1).
#pragma once

#include <cstdint>

namespace example {

/// The capacity a deque starts with when the caller names none, in items (a power of two).
inline constexpr std::int64_t default_capacity = 64;

/// Whether n is a power of two (a ring's capacity must be: indices are masked, not divided).
constexpr bool is_pow2(std::int64_t n) noexcept {
  return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace example
// SPDX-License-Identifier: Apache-2.0
