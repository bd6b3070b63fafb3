// scheduler/tests/common.hpp: shared helpers of the scheduler tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "harness/random.hpp"
#include "scheduler/variants.hpp"

#ifndef STEALCHECK_TEST_SCALE
#define STEALCHECK_TEST_SCALE 100
#endif

namespace stealcheck::scheduler::test {

/// 100 in full builds, 10/20 under the sanitizers (CMakeLists.txt, CMakePresets.json).
inline constexpr int scale = STEALCHECK_TEST_SCALE;
inline constexpr bool full = scale >= 100;

using pool_types = ::testing::Types<chase_lev_pool, locked_pool, steal_half_pool>;

struct pool_names {
  template <class P>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<P, chase_lev_pool>) return "chase_lev";
    if constexpr (std::is_same_v<P, locked_pool>) return "locked";
    return "steal_half";
  }
};

/// The seed of a randomized test, printed so a failure can be replayed.
inline std::uint64_t announce_seed(std::uint64_t seed, const char* what) {
  std::printf("[ seed     ] %s seed=%llu\n", what, static_cast<unsigned long long>(seed));
  return seed;
}

inline std::uint64_t mix(std::uint64_t z) {
  return splitmix64_next(z);
}

}  // namespace stealcheck::scheduler::test
