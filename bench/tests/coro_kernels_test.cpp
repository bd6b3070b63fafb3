// bench/tests/coro_kernels_test.cpp: the kernels of bench/kernels.hpp on the continuation-stealing
// runtimes (`cs-*`, bench/rt_pool.cpp) and on `coro-serial` against the serial program, P = 1, 2, 4
// (oversubscribed on this 2-core machine), quick sizes; and the space property that tells the two
// modes apart: on the loop kernel (one function spawning n children), continuation stealing's peak
// of live frames stays within P*S1 while child stealing's live tasks exceed it. Both sides are
// asserted, so the test fails if the continuation pool's frames grow with the loop. No timing.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bench/kernels.hpp"
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

const char* const coro_runtimes[] = {"cs-chase_lev", "cs-locked", "cs-steal_half"};

TEST(CoroKernels, EveryKernelEqualsSerialOnEveryVariantForOneTwoFourWorkers) {
  const kernel_params params = kernel_params::quick();
  for (kernel_id k : known_kernels) {
    matmul_data m(k == kernel_id::matmul ? params.matmul_n : 1);
    serial_rt serial;
    const std::uint64_t expected = run_kernel(serial, k, params, m);
    std::uint64_t coro_serial_result = 0;
    const std::int64_t s1 = serial_frames(k, params, m, coro_serial_result);
    EXPECT_GT(s1, 0);
    EXPECT_EQ(coro_serial_result, expected) << kernel_name(k) << " serial coroutine";
    auto floor = make_runtime("coro-serial");  // the same, as the bench's runtime
    ASSERT_NE(floor, nullptr);
    EXPECT_FALSE(floor->parallel());
    EXPECT_EQ(floor->run(k, params, m), expected) << kernel_name(k) << " coro-serial";
    EXPECT_EQ(floor->take_peak_live(), s1) << kernel_name(k) << " coro-serial's peak is S1";
    for (const char* name : coro_runtimes) {
      auto rt = make_runtime(name);
      ASSERT_NE(rt, nullptr) << name;
      for (unsigned p : {1u, 2u, 4u}) {
        rt->set_threads(p);
        EXPECT_EQ(rt->run(k, params, m), expected) << kernel_name(k) << " " << name << " P=" << p;
      }
    }
  }
}

// Peak live frames (cs) or live tasks (sc, counted in this run) of one run of the loop kernel.
std::int64_t loop_peak(std::string_view runtime, unsigned p, const kernel_params& params,
                       std::uint64_t expected) {
  auto rt = make_runtime(runtime);
  EXPECT_NE(rt, nullptr) << runtime;
  if (rt == nullptr) return -1;
  rt->set_threads(p);
  rt->count_live(true);
  matmul_data none(1);
  (void)rt->take_peak_live();
  (void)rt->take_stats();
  EXPECT_EQ(rt->run(kernel_id::loop, params, none), expected) << runtime << " P=" << p;
  const auto peak = rt->take_peak_live();
  EXPECT_TRUE(peak.has_value()) << runtime;
  return peak.value_or(-1);
}

TEST(CoroKernels, LoopStaysWithinPTimesS1UnderContinuationStealingNotUnderChildStealing) {
  const kernel_params params = kernel_params::quick();  // 10,000 children
  matmul_data none(1);
  std::uint64_t expected = 0;
  const std::int64_t s1 = serial_frames(kernel_id::loop, params, none, expected);
  EXPECT_EQ(s1, 3);  // run_coro_kernel, coro_loop, one coro_loop_leaf
  for (unsigned p : {1u, 2u, 4u}) {
    const std::int64_t bound = static_cast<std::int64_t>(p) * s1;
    for (const char* variant : {"chase_lev", "locked", "steal_half"}) {
      const std::int64_t cs = loop_peak(std::string("cs-") + variant, p, params, expected);
      EXPECT_GE(cs, s1) << "cs-" << variant << " P=" << p;
      EXPECT_LE(cs, bound) << "cs-" << variant << " P=" << p << ": continuation stealing "
                           << "exceeded P*S1 = " << bound;
      const std::int64_t sc = loop_peak(std::string("child-") + variant, p, params, expected);
      EXPECT_GT(sc, bound) << "child-" << variant << " P=" << p << ": child stealing stayed "
                           << "within P*S1 = " << bound << ", the contrast is not shown";
    }
  }
}

}  // namespace
}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
