// bench/tests/runner_test.cpp: the measurement loop behind `stealcheck bench` (bench/runner.hpp)
// on quick sizes: every row's ratios are computed from the kernel's one Ts (the median of the
// serial runs of every round) and from the same runtime's T1; the serial row comes first among
// its kernel's rows and its ratios are 1; every result is checked. No timing is asserted: only
// how the reported numbers relate to each other.
#include "bench/runner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace stealcheck::bench {
namespace {

bench_config quick_config() {
  bench_config cfg;
  cfg.quick = true;
  cfg.params = kernel_params::quick();
  cfg.kernels = {kernel_id::fib, kernel_id::uts};
  cfg.threads = {1, 2};
  cfg.runtimes = {"serial", "sc-steal_half", "cs-chase_lev"};
  cfg.reps = 3;
  cfg.idle_seconds = 0.01;
  return cfg;
}

TEST(BenchRunner, RatiosComeFromTheKernelsOneTsAndTheRuntimesOwnT1) {
  const bench_report r = run_bench(quick_config(), nullptr);
  EXPECT_TRUE(r.checks_ok);
  ASSERT_EQ(r.kernels.size(), 2U);
  for (const kernel_info& k : r.kernels) {
    const std::string name(kernel_name(k.kernel));
    EXPECT_GT(k.ts, 0) << name;
    const result_row* first = nullptr;
    int rows = 0;
    for (const result_row& row : r.rows) {
      if (row.kernel != name) continue;
      if (first == nullptr) first = &row;
      ++rows;
      EXPECT_TRUE(row.check_ok) << name << " " << row.runtime;
      EXPECT_DOUBLE_EQ(row.ts_over_tp, k.ts / row.seconds) << name << " " << row.runtime;
      const result_row* t1 = nullptr;
      for (const result_row& o : r.rows)
        if (o.kernel == name && o.runtime == row.runtime && o.threads == 1) t1 = &o;
      ASSERT_NE(t1, nullptr) << name << " " << row.runtime;
      EXPECT_DOUBLE_EQ(row.t1_over_ts, t1->seconds / k.ts) << name << " " << row.runtime;
      EXPECT_DOUBLE_EQ(row.t1_over_tp, t1->seconds / row.seconds) << name << " " << row.runtime;
    }
    // serial at P = 1, then two runtimes at P = 1 and 2
    EXPECT_EQ(rows, 5) << name;
    ASSERT_NE(first, nullptr) << name;
    EXPECT_EQ(first->runtime, "serial") << name;
    EXPECT_EQ(first->threads, 1U) << name;
    EXPECT_DOUBLE_EQ(first->seconds, k.ts) << name << ": the serial row is not Ts";
    EXPECT_DOUBLE_EQ(first->ts_over_tp, 1.0) << name;
  }
}

}  // namespace
}  // namespace stealcheck::bench
