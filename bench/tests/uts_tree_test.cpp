// bench/tests/uts_tree_test.cpp: UTS's sample trees T1 and T3 as bench/uts_tree.hpp builds them
// have the sizes UTS publishes for them (4,130,071 and 4,112,897 nodes), serially and (release)
// on a pool;
// and the benchmark's check rejects a tree whose size differs from the published one (the same
// T1 parameters with another root seed), beside the run that passes. No timing.
#include <gtest/gtest.h>

#include <cstdint>

#include "bench/kernels.hpp"
#include "bench/runner.hpp"
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

TEST(UtsTree, SampleTreesHaveThePublishedSizesSeriallyAndOnAPool) {
  const kernel_params params;
  matmul_data m(1);
  auto pool = make_runtime("child-chase_lev");
  ASSERT_NE(pool, nullptr);
  pool->set_threads(2);
  for (kernel_id k : {kernel_id::uts_t1, kernel_id::uts_t3}) {
    const uts_tree& t = *reference_tree(k, params);
    serial_rt serial;
    EXPECT_EQ(run_kernel(serial, k, params, m), t.published_nodes) << t.name;
    // On the pool too, in release: 4 million tasks a tree are long under the sanitizers.
    if (STEALCHECK_TEST_SCALE >= 100) {
      EXPECT_EQ(pool->run(k, params, m), t.published_nodes) << t.name << " on child-chase_lev, P=2";
    }
  }
}

bench_config one_tree(std::int32_t seed) {
  bench_config cfg;
  cfg.kernels = {kernel_id::uts_t1};
  cfg.params.t1.seed = seed;  // published_nodes stays T1's
  cfg.threads = {1};
  cfg.runtimes = {"serial"};
  cfg.reps = 1;
  cfg.idle_seconds = 0.01;
  return cfg;
}

TEST(UtsTree, ATreeOfAnotherSizeFailsTheCheck) {
  EXPECT_TRUE(run_bench(one_tree(uts_tree_t1.seed), nullptr).checks_ok);
  const bench_report r = run_bench(one_tree(uts_tree_t1.seed + 1), nullptr);
  ASSERT_EQ(r.kernels.size(), 1U);
  EXPECT_NE(r.kernels[0].expected, uts_tree_t1.published_nodes);
  EXPECT_FALSE(r.checks_ok) << "a T1 of " << r.kernels[0].expected << " nodes passed";
}

}  // namespace
}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
