// bench/runner.hpp: the measurement loop behind `stealcheck bench`: every kernel, runtime and
// thread count in one process, results checked against the serial program, ratios from one run.
//
// Method. Per kernel: a counting serial pass (tasks, span in fork levels). Per thread count P:
// every runtime is set up for P threads and warmed up once, then the repetitions interleave the
// serial program and the runtimes (rep 1 of each, rep 2 of each, ...) so slow drifts of the
// shared machine hit all runtimes and the baseline alike; the reported time is the median. Ts
// is the median of the serial runs of all rounds of the kernel (sampled over the same stretch of
// time as every TP); T1 is the same runtime's median at P = 1. `cores` is the process's CPU time
// over the wall time of each run (median): on a shared machine it shows how many cores the run
// actually got (idle thieves that spin count too), which bounds any speedup. No cost per
// steal is derived from times: a run at P can do less work than T1 (the fork throttle runs
// forks inline, caches warm up), so (CPU time at P - T1) / steals is no cost and can be
// negative; the steal counters are reported as counted. The cache-line transfer time measured
// before and after the kernels (bench/measure.hpp) is the machine's unit of one. Peak RSS
// is the process's VmHWM, reset before each run. S1: the peak of live frames of the kernel's
// coroutine program run serially (scheduler/coro_serial.hpp); peak live frames (cs-*) come from
// every run, live tasks (child-*) from the untimed warm-up run, counted only there. Idle CPU: after
// all kernels, each parallel runtime runs a short job with P threads and the process CPU time (all
// threads, getrusage) is measured over the following idle window; the other runtimes' threads have
// been idle for long and are asleep, and a baseline window with no job is reported too. For
// stealcheck's pools the workers' own CPU clocks are read over the same window as well, and the
// idle target is judged on them: other threads of the process at rest cannot move it.
//
// Thread role: run_bench() from one non-worker thread. Complexity: the kernels' times the reps.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/kernels.hpp"
#include "scheduler/task.hpp"
#include "stealcheck/detail/harness/progress.hpp"

namespace stealcheck::bench {

struct bench_config {
  std::vector<kernel_id> kernels{default_kernels.begin(), default_kernels.end()};
  std::vector<unsigned> threads{1, 2};
  std::vector<std::string> runtimes;  ///< empty: all (all_runtime_names())
  bool quick = false;
  int reps = 5;
  double idle_seconds = 1.0;
  kernel_params params;
  /// The command's status line (on a terminal): the timed runs done of all, labelled with the
  /// kernel, P and the round; the log lines to `progress` erase it first. Null: none.
  harness::status_line* status = nullptr;
};

struct kernel_info {
  kernel_id kernel;
  std::string size;        ///< e.g. "n=32"
  std::uint64_t expected;  ///< check value of the serial run
  std::uint64_t tasks;     ///< spawned tasks per run
  int span;                ///< deepest spawn nesting (fork levels): the T_inf scale
  std::int64_t s1;         ///< peak live frames of the serial coroutine program (coro_serial)
  double ts;               ///< Ts: median of the serial runs of every round, seconds
};

struct result_row {
  std::string kernel, runtime;
  unsigned threads = 1;
  double seconds = 0;                                     ///< median of the reps
  double t1_over_ts = 0, ts_over_tp = 0, t1_over_tp = 0;  ///< 0 when T1 was not measured
  double ns_per_task = 0;                                 ///< seconds / tasks
  std::int64_t peak_rss_kb = -1;
  double cores = 0;  ///< process CPU time / wall time during the runs (median): cores obtained
  std::optional<scheduler::scheduler_stats> stats;  ///< per run (mean over reps), pools only
  /// Steals a peer's runtime counted itself, per run (mean over reps): java-fjp's
  /// ForkJoinPool.getStealCount; nullopt for the others.
  std::optional<std::uint64_t> peer_steals;
  std::uint64_t p_tinf = 0;  ///< P * span
  /// Peak live frames (cs-*) or live tasks (child-*, untimed warm-up run), summed over workers;
  /// -1 when not measured (serial, tbb, omp).
  std::int64_t peak_live = -1;
  std::int64_t p_s1 = 0;  ///< P * S1
  bool check_ok = true;
};

struct idle_row {
  std::string runtime;
  unsigned threads = 1;
  double cpu_ms_per_idle_s = 0;  ///< the whole process (getrusage), every thread of it
  /// The runtime's own threads only (runtime::own_cpu_seconds: stealcheck's pools); nullopt
  /// where they are not known (oneTBB, OpenMP).
  std::optional<double> own_ms_per_idle_s;
  /// What the idle target is checked on: the runtime's own threads where known, else the process.
  double judged() const { return own_ms_per_idle_s.value_or(cpu_ms_per_idle_s); }
};

struct bench_report {
  std::vector<kernel_info> kernels;
  std::vector<result_row> rows;
  std::vector<idle_row> idle;
  double baseline_idle_ms_per_s = 0;
  /// line_transfer_ns() (bench/measure.hpp) before the first kernel and after the last: a
  /// virtual machine's CPUs can move between host cores during a run, and this cost with them.
  double line_transfer_ns_start = -1, line_transfer_ns_end = -1;
  bool checks_ok = true;
  int reps = 0;
};

/// Runs the benchmark; progress lines go to `progress` (may be nullptr).
bench_report run_bench(const bench_config& cfg, std::FILE* progress);
void print_table(const bench_report& r, std::FILE* out);

/// The Blumofe-Leiserson check of one pool runtime on one kernel: their bound
/// E[T_P] <= T1/P + O(T_inf) (JACM 46(5) 1999), with T_inf estimated as the span (fork levels)
/// times T1's mean time per task, and P replaced by P_A, the cores a run got (result_row::cores,
/// at most P), as Arora, Blumofe and Plaxton bound a multiprogrammed machine (SPAA 1998):
/// T1/P_A + O(T_inf P/P_A). c is the least-squares fit of T_P = T1/P_A + c*T_inf over the rows
/// with P >= 2 (T_inf is one number per kernel, so the mean of the per-P values). A c that stays
/// put as P grows is the bound holding with that constant; its size is what a steal costs in
/// tasks' time.
struct greedy_fit {
  double t_inf = 0;  ///< seconds
  double c = 0;
  std::vector<std::pair<unsigned, double>> per_p;  ///< (P, (T_P - T1/P_A) / T_inf)
};
/// nullopt without a row at P = 1 and one at P >= 2, or a kernel without tasks or span.
std::optional<greedy_fit> fit_greedy_bound(const bench_report& r, const kernel_info& k,
                                           std::string_view runtime);
std::string report_json(const bench_report& r, const std::string& command);
/// A report read back from report_json's output (of this version or an earlier one: a key it
/// lacks reads as not measured, the kernel named "uts" is uts-fine). On a malformed text:
/// nullopt and a one-line `error` naming what is wrong. `command` receives the recorded command.
std::optional<bench_report> read_report_json(const std::string& text, std::string& command,
                                             std::string& error);
/// The kernel called `name` ("uts" is uts-fine's earlier name); nullopt if none.
std::optional<kernel_id> kernel_by_name(std::string_view name);
/// Writes FILE.png with gnuplot (and FILE.png.dat / FILE.png.gp beside it). False + error if
/// gnuplot is missing or fails.
bool write_plot(const bench_report& r, const std::string& png, std::string& error);

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
