// bench/tests/runner_test.cpp: the measurement loop behind `stealcheck bench` (bench/runner.hpp)
// on quick sizes: every row's ratios are computed from the kernel's one Ts (the median of the
// serial runs of every round) and from the same runtime's T1; the serial row comes first among
// its kernel's rows and its ratios are 1; every result is checked. No timing is asserted: only
// how the reported numbers relate to each other.
#include "bench/runner.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <chrono>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "bench/measure.hpp"
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

bench_config quick_config() {
  bench_config cfg;
  cfg.quick = true;
  cfg.params = kernel_params::quick();
  cfg.kernels = {kernel_id::fib, kernel_id::uts_fine};
  cfg.threads = {1, 2};
  cfg.runtimes = {"serial", "child-steal_half", "cs-chase_lev"};
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

TEST(BenchRunner, LineTransferIsMeasuredWithTwoCpusAndRefusedWithout) {
  const double ns = line_transfer_ns(2000, 3);
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) {
    EXPECT_EQ(ns, -1);
  } else {
    EXPECT_GT(ns, 0);
    EXPECT_TRUE(std::isfinite(ns));
  }
  EXPECT_EQ(line_transfer_ns(0, 3), -1) << "no round trip: nothing measured";
  EXPECT_EQ(line_transfer_ns(2000, 0), -1) << "no trial: nothing measured";
  // Confined to one CPU, the handoff would time context switches: refused.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &allowed)) {
      CPU_SET(c, &one);
      break;
    }
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const double confined = line_transfer_ns(2000, 3);
  ASSERT_EQ(sched_setaffinity(0, sizeof allowed, &allowed), 0);
  EXPECT_EQ(confined, -1) << "a process on one CPU got a transfer time";
}

TEST(BenchRunner, JsonCarriesEveryCounterAndNullWhereNothingWasMeasured) {
  bench_report r;
  result_row pool_row;
  pool_row.kernel = "fib";
  pool_row.runtime = "child-split";
  pool_row.threads = 2;
  scheduler::scheduler_stats s;
  std::uint64_t v = 1;
  for (const auto& f : scheduler::scheduler_stats::fields)
    s.*f.member = v++ * 11;  // distinct values: a counter written under another name shows
  pool_row.stats = s;
  result_row tbb_row;
  tbb_row.kernel = "fib";
  tbb_row.runtime = "tbb";
  r.rows = {pool_row, tbb_row};
  r.idle = {idle_row{"child-split", 1, 3.0, 0.25}, idle_row{"tbb", 1, 2.0, std::nullopt}};
  const nlohmann::json j = nlohmann::json::parse(report_json(r, "stealcheck bench"));
  ASSERT_EQ(j["rows"].size(), 2U);
  const nlohmann::json& stats = j["rows"][0]["stats"];
  EXPECT_EQ(stats.size(), std::size(scheduler::scheduler_stats::fields));
  for (const auto& f : scheduler::scheduler_stats::fields)
    EXPECT_EQ(stats.at(f.name).get<std::uint64_t>(), s.*f.member) << f.name;
  EXPECT_FALSE(j["rows"][1].contains("stats")) << "oneTBB has no scheduler counters";
  EXPECT_DOUBLE_EQ(j["idle"][0]["own_ms_per_idle_s"].get<double>(), 0.25);
  EXPECT_TRUE(j["idle"][1]["own_ms_per_idle_s"].is_null());
}

TEST(BenchRunner, JsonReadsBackWhatItWroteAndNamesWhatIsMalformed) {
  const bench_report r = run_bench(quick_config(), nullptr);
  std::string command, error;
  const std::optional<bench_report> back =
      read_report_json(report_json(r, "stealcheck bench --quick"), command, error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(command, "stealcheck bench --quick");
  EXPECT_EQ(back->checks_ok, r.checks_ok);
  ASSERT_EQ(back->kernels.size(), r.kernels.size());
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    EXPECT_EQ(back->kernels[i].kernel, r.kernels[i].kernel);
    EXPECT_EQ(back->kernels[i].expected, r.kernels[i].expected);
    EXPECT_EQ(back->kernels[i].tasks, r.kernels[i].tasks);
    EXPECT_DOUBLE_EQ(back->kernels[i].ts, r.kernels[i].ts);
  }
  ASSERT_EQ(back->rows.size(), r.rows.size());
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    EXPECT_EQ(back->rows[i].runtime, r.rows[i].runtime);
    EXPECT_EQ(back->rows[i].threads, r.rows[i].threads);
    EXPECT_DOUBLE_EQ(back->rows[i].seconds, r.rows[i].seconds);
    EXPECT_DOUBLE_EQ(back->rows[i].ts_over_tp, r.rows[i].ts_over_tp);
    EXPECT_EQ(back->rows[i].stats, r.rows[i].stats) << r.rows[i].runtime;
  }
  ASSERT_EQ(back->idle.size(), r.idle.size());

  // An earlier report: the kernel "uts" is uts-fine, and a missing key reads as not measured.
  const auto old = read_report_json(
      R"({"kernels": [{"kernel": "uts", "size": "b0=2000"}],
          "rows": [{"kernel": "uts", "runtime": "serial", "threads": 1, "seconds": 0.01}]})",
      command, error);
  ASSERT_TRUE(old.has_value()) << error;
  EXPECT_EQ(old->kernels[0].kernel, kernel_id::uts_fine);
  EXPECT_EQ(old->rows[0].kernel, "uts-fine");
  EXPECT_FALSE(old->rows[0].stats.has_value());

  EXPECT_FALSE(read_report_json("{", command, error).has_value());
  EXPECT_NE(error.find("parse error"), std::string::npos) << error;
  EXPECT_FALSE(read_report_json(R"({"kernels": []})", command, error).has_value());
  EXPECT_NE(error.find("'rows'"), std::string::npos) << error;
  EXPECT_FALSE(read_report_json(R"({"kernels": [{"kernel": "nope"}], "rows": []})", command, error)
                   .has_value());
  EXPECT_NE(error.find("unknown kernel 'nope'"), std::string::npos) << error;
}

// A pool runtime's name: every policy in any order, each at most once, with its range.
TEST(BenchPoolName, PoliciesParseInAnyOrderAndBadOnesAreRefused) {
  const std::optional<pool_name> a = parse_pool_name("split/t4/sweep/spin0");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->deque, "split");
  EXPECT_EQ(a->options.throttle, 4u);
  EXPECT_EQ(a->options.victims, scheduler::victim_policy::sweep);
  EXPECT_EQ(a->options.spin, std::chrono::microseconds(0));
  const std::optional<pool_name> b = parse_pool_name("chase_lev/last_victim/t16");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->options.throttle, 16u);
  EXPECT_EQ(b->options.victims, scheduler::victim_policy::last_victim);
  EXPECT_EQ(b->options.spin, scheduler::pool_options{}.spin) << "the default spin is kept";
  const std::optional<pool_name> c = parse_pool_name("the");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->options.victims, scheduler::victim_policy::uniform);
  EXPECT_EQ(c->options.steal, scheduler::steal_amount::half);
  const std::optional<pool_name> d = parse_pool_name("steal_half/one");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->options.steal, scheduler::steal_amount::one);
  const std::optional<pool_name> e = parse_pool_name("chase_lev/snooze/spin0");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->options.idle, scheduler::idle_policy::snooze);
  EXPECT_EQ(c->options.idle, scheduler::idle_policy::pause);
  const std::optional<pool_name> f = parse_pool_name("split/search_half/t4");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->options.search, scheduler::search_limit::half);
  EXPECT_EQ(f->options.throttle, 4u);
  EXPECT_EQ(c->options.search, scheduler::search_limit::any);
  for (const char* bad : {"split/t0", "split/tx", "split/t4/t8", "split/sweep/uniform",
                          "split/spin", "split/spin1000001", "split/nearest", "split/", "split//t4",
                          "split/search_half/search_any", "split/search_all"})
    EXPECT_FALSE(parse_pool_name(bad)) << bad;
}

// The greedy-bound fit on a report made up for it: T1 = 1 ms, 1000 tasks, span 10 (T_inf =
// 10 us); P = 2 on 2 cores takes T1/2 + 2 T_inf, P = 4 on 2 cores (P_A = 2) T1/2 + 4 T_inf:
// c = 2 and 4 per P, 3 fitted. A runtime without a P = 1 row has no fit.
TEST(BenchReport, GreedyBoundFitUsesTheCoresTheRunGot) {
  bench_report r;
  r.kernels.push_back({kernel_id::fib, "n=1", 0, 1000, 10, 1, 0.001});
  auto row = [&](const char* rt, unsigned p, double seconds, double cores) {
    result_row x;
    x.kernel = "fib";
    x.runtime = rt;
    x.threads = p;
    x.seconds = seconds;
    x.cores = cores;
    r.rows.push_back(x);
  };
  row("child-split", 1, 1e-3, 1.0);
  row("child-split", 2, 0.5e-3 + 2 * 10e-6, 2.0);
  row("child-split", 4, 0.5e-3 + 4 * 10e-6, 2.0);
  row("child-chase_lev", 2, 1e-3, 2.0);
  const std::optional<greedy_fit> fit = fit_greedy_bound(r, r.kernels[0], "child-split");
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->t_inf, 10e-6, 1e-12);
  ASSERT_EQ(fit->per_p.size(), 2U);
  EXPECT_NEAR(fit->per_p[0].second, 2.0, 1e-9);
  EXPECT_NEAR(fit->per_p[1].second, 4.0, 1e-9) << "P = 4 on two cores is judged against T1/2";
  EXPECT_NEAR(fit->c, 3.0, 1e-9);
  EXPECT_FALSE(fit_greedy_bound(r, r.kernels[0], "child-chase_lev"));
}

}  // namespace
}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
