// scheduler/tests/common.hpp: shared helpers of the scheduler tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "scheduler/variants.hpp"
#include "stealcheck/detail/harness/random.hpp"

#ifndef STEALCHECK_TEST_SCALE
#define STEALCHECK_TEST_SCALE 100
#endif

namespace stealcheck::scheduler::test {

/// 100 in full builds, 10/20 under the sanitizers (CMakeLists.txt, CMakePresets.json).
inline constexpr int scale = STEALCHECK_TEST_SCALE;
inline constexpr bool full = scale >= 100;

using pool_types = ::testing::Types<chase_lev_pool, locked_pool, steal_half_pool, split_pool,
                                    the_pool, abp_pool, fjp_pool, dotnet_pool>;
using coro_pool_types =
    ::testing::Types<chase_lev_coro_pool, locked_coro_pool, steal_half_coro_pool, split_coro_pool,
                     the_coro_pool, abp_coro_pool, fjp_coro_pool, dotnet_coro_pool>;

/// For a test whose task waits (spinning, without forking) until a sibling has been stolen: on
/// an owner_shares deque a thief reaches that sibling only at its owner's next push or pop,
/// which the waiting task never makes, so the test would wait forever. Such a program depends
/// on parallelism (it also deadlocks on one worker); fork-join programs that do not are run on
/// every pool by the other tests.
#define STEALCHECK_SKIP_IF_OWNER_SHARES(P)                                                     \
  if constexpr (owner_shares_v<typename P::deque_type>) {                                      \
    GTEST_SKIP() << "waits for a steal that an owner_shares deque allows only at the owner's " \
                    "next push or pop";                                                        \
  }

/// Names a typed test's pool (either mode) by its deque variant.
struct pool_names {
  template <class P>
  static std::string GetName(int) {
    return std::string(P::deque_type::variant_name);
  }
};

/// Polls until every worker sleeps in the event count; the 60 s deadline only turns a hang into
/// a failure (the caller asserts on the state afterwards).
template <class P>
void wait_until_all_parked(const P& p) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (p.sleeping() != p.size() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

/// The counters once every worker parked and two snapshots 2 ms apart agree (a worker that
/// wakes spuriously spins for 50 us, changing the steal counters).
template <class P>
scheduler_stats quiescent_stats(const P& p) {
  for (int tries = 0; tries < 1000; ++tries) {
    wait_until_all_parked(p);
    const scheduler_stats a = p.stats();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const scheduler_stats b = p.stats();
    if (a == b && p.sleeping() == p.size()) return b;
  }
  ADD_FAILURE() << "the pool never became quiescent";
  return p.stats();
}

/// The seed of a randomized test, printed so a failure can be replayed.
inline std::uint64_t announce_seed(std::uint64_t seed, const char* what) {
  std::printf("[ seed     ] %s seed=%llu\n", what, static_cast<unsigned long long>(seed));
  return seed;
}

inline std::uint64_t mix(std::uint64_t z) {
  return splitmix64_next(z);
}

/// fib(n) on pool p by fork_join, no cutoff: one fork_join per call with n >= 2.
template <class P>
std::uint64_t fib(P& p, int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0, y = 0;
  fork_join(
      p, [&] { x = fib(p, n - 1); }, [&] { y = fib(p, n - 2); });
  return x + y;
}

/// fib(n), serially: the tests' expected values.
inline std::uint64_t fib_serial(int n) {
  return n < 2 ? static_cast<std::uint64_t>(n) : fib_serial(n - 1) + fib_serial(n - 2);
}

}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
