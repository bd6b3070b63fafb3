// bench/runner.cpp: see runner.hpp.
#include "bench/runner.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <thread>
#include <utility>

#include "bench/measure.hpp"
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string size_of(kernel_id k, const kernel_params& p) {
  switch (k) {
    case kernel_id::fib:
      return fmt::format("n={}", p.fib_n);
    case kernel_id::nqueens:
      return fmt::format("n={}", p.queens_n);
    case kernel_id::uts_t1:
    case kernel_id::uts_t3:
    case kernel_id::uts_t1l:
    case kernel_id::uts_t3l:
      return std::string(reference_tree(k, p)->name);
    case kernel_id::uts_fine:
      return fmt::format("b0={} m={} q={}", p.uts.b0, p.uts.m, p.uts.q);
    case kernel_id::matmul:
      return fmt::format("n={}", p.matmul_n);
    case kernel_id::loop:
      return fmt::format("n={}", p.loop_n);
    case kernel_id::relay:
      return fmt::format("n={}", p.relay_n);
  }
  return "";
}

// Independent checks of the serial result where a closed form or a table exists.
bool serial_result_plausible(kernel_id k, const kernel_params& p, std::uint64_t v,
                             const matmul_data& m) {
  if (k == kernel_id::fib) return v == fib_number(p.fib_n);
  if (const uts_tree* t = reference_tree(k, p); t != nullptr)  // the size UTS publishes
    return t->published_nodes == 0 || v == t->published_nodes;
  if (k == kernel_id::nqueens) {
    static constexpr std::uint64_t solutions[] = {1,  1,   0,   0,    2,     10,    4,     40,
                                                  92, 352, 724, 2680, 14200, 73712, 365596};
    return p.queens_n > 14 || v == solutions[p.queens_n];
  }
  if (k == kernel_id::loop) return v == leaf_sum(p.loop_n);
  if (k == kernel_id::relay) return v == leaf_sum(p.relay_n);
  if (k == kernel_id::matmul) {  // a few entries of C against a direct dot product
    const auto n = static_cast<std::size_t>(m.n);
    for (std::size_t probe = 0; probe < 16; ++probe) {
      const std::size_t i = (probe * 37) % n, j = (probe * 101 + 5) % n;
      double dot = 0;
      for (std::size_t k2 = 0; k2 < n; ++k2)
        dot += m.a[i * n + k2] * m.b[k2 * n + j];
      if (dot != m.c[i * n + j]) return false;
    }
  }
  return true;
}

struct sample_set {
  std::vector<double> times;
  std::vector<double> cores;
  std::int64_t rss = -1;
  std::int64_t peak_live = -1;
  scheduler::scheduler_stats stats;
  bool has_stats = false;
  std::uint64_t peer_steals = 0;  // a peer's own count, summed over the runs
  bool has_peer_steals = false;
  bool ok = true;
};

// One timed run of rt; appends to s and checks the value.
void timed_run(runtime& rt, kernel_id k, const kernel_params& p, matmul_data& m,
               std::uint64_t expected, sample_set& s) {
  reset_peak_rss();
  (void)rt.take_stats();
  const double cpu0 = process_cpu_seconds();
  const auto t0 = clock_type::now();
  const std::uint64_t v = rt.run(k, p, m);
  double wall = seconds_since(t0);
  double cpu = process_cpu_seconds() - cpu0;
  std::int64_t rss = peak_rss_kb();
  if (const std::optional<own_measure> own = rt.take_own_measure()) {  // a peer's own clocks
    wall = own->seconds;
    cpu = own->cpu_seconds;
    rss = own->peak_rss_kb;
    if (own->steals >= 0) {
      s.peer_steals += static_cast<std::uint64_t>(own->steals);
      s.has_peer_steals = true;
    }
  }
  s.times.push_back(wall);
  s.cores.push_back(wall > 0 ? cpu / wall : 0);
  s.rss = std::max(s.rss, rss);
  if (auto pk = rt.take_peak_live()) s.peak_live = std::max(s.peak_live, *pk);
  if (auto st = rt.take_stats()) {
    s.stats += *st;
    s.has_stats = true;
  }
  if (v != expected) s.ok = false;
  // The next run starts on a machine at rest: no thread of this one still spinning (libgomp's
  // spin for milliseconds after a parallel region, on the cores the next runtime needs).
  (void)wait_until_quiet();
}

// A line of the log on `progress` (may be null), after erasing the status line if one is drawn.
void note(const bench_config& cfg, std::FILE* progress, const std::string& text) {
  if (progress == nullptr) return;
  auto put = [&] {
    std::fputs(text.c_str(), progress);
    std::fflush(progress);
  };
  if (cfg.status != nullptr)
    cfg.status->print_clear(put);
  else
    put();
}

kernel_info prepare_kernel(kernel_id k, const bench_config& cfg, matmul_data& m,
                           std::FILE* progress, bool& ok) {
  kernel_info info{k, size_of(k, cfg.params), 0, 0, 0, 0, 0};
  counting_rt counter;
  info.expected = run_kernel(counter, k, cfg.params, m);
  info.tasks = counter.tasks;
  info.span = counter.max_depth;
  if (!serial_result_plausible(k, cfg.params, info.expected, m)) {
    ok = false;
    note(cfg, progress,
         fmt::format("CHECK FAILED: serial {} gave {}\n", kernel_name(k), info.expected));
  }
  std::uint64_t coro_result = 0;
  info.s1 = serial_frames(k, cfg.params, m, coro_result);
  if (coro_result != info.expected) {
    ok = false;
    note(cfg, progress,
         fmt::format("CHECK FAILED: serial coroutine {} gave {}\n", kernel_name(k), coro_result));
  }
  return info;
}

// The ratios to Ts and T1 are filled in once every round of the kernel is measured (fill_ratios).
result_row make_row(const kernel_info& ki, std::string_view rt, unsigned p, const sample_set& s,
                    int reps) {
  result_row row;
  row.kernel = std::string(kernel_name(ki.kernel));
  row.runtime = std::string(rt);
  row.threads = p;
  row.seconds = median(s.times);
  row.ns_per_task = ki.tasks ? row.seconds * 1e9 / static_cast<double>(ki.tasks) : 0;
  row.peak_rss_kb = s.rss;
  row.cores = s.cores.empty() ? 0 : median(s.cores);
  if (s.has_stats) row.stats = s.stats.divided_by(static_cast<std::uint64_t>(reps));
  if (s.has_peer_steals) row.peer_steals = s.peer_steals / static_cast<std::uint64_t>(reps);
  row.p_tinf = static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(ki.span);
  row.peak_live = s.peak_live;
  row.p_s1 = static_cast<std::int64_t>(p) * ki.s1;
  row.check_ok = s.ok;
  return row;
}

void print_progress(const bench_config& cfg, const result_row& row, bool ok, std::FILE* progress) {
  note(cfg, progress,
       fmt::format("  {:<8} {:<16} P={} {:9.3f} ms{}\n", row.kernel, row.runtime, row.threads,
                   row.seconds * 1e3, ok ? "" : "  WRONG RESULT"));
}

// Whether runtime rt is measured at p threads: a runtime without threads of its own only at 1.
bool runs_at(const runtime& rt, unsigned p) {
  return rt.parallel() || p == 1;
}

// Every runtime measured at p threads (runs_at), for one kernel, reps interleaved with each
// other and with the serial program, whose samples go to `serial` (all rounds of the kernel).
void measure_threads(const kernel_info& ki, const bench_config& cfg, unsigned p, runtime& serial_rt,
                     sample_set& serial, std::vector<std::unique_ptr<runtime>>& rts, matmul_data& m,
                     bench_report& out, std::FILE* progress) {
  std::vector<sample_set> sets(rts.size());
  for (auto& rt : rts) {
    if (!runs_at(*rt, p)) continue;
    rt->set_threads(p);
    sample_set warm;
    rt->count_live(true);  // child stealing counts live tasks in this untimed run only
    timed_run(*rt, ki.kernel, cfg.params, m, ki.expected, warm);
    rt->count_live(false);
    sample_set& set = sets[static_cast<std::size_t>(&rt - rts.data())];
    set.peak_live = warm.peak_live;
    if (!warm.ok) set.ok = false;
  }
  for (int r = 0; r < cfg.reps; ++r) {
    if (cfg.status != nullptr) {
      cfg.status->label(
          fmt::format("{} P={} round {} of {}", kernel_name(ki.kernel), p, r + 1, cfg.reps));
      cfg.status->add();
    }
    timed_run(serial_rt, ki.kernel, cfg.params, m, ki.expected, serial);
    for (std::size_t i = 0; i < rts.size(); ++i)
      if (runs_at(*rts[i], p)) timed_run(*rts[i], ki.kernel, cfg.params, m, ki.expected, sets[i]);
  }
  for (std::size_t i = 0; i < rts.size(); ++i) {
    if (!runs_at(*rts[i], p)) continue;
    out.rows.push_back(make_row(ki, rts[i]->name(), p, sets[i], cfg.reps));
    out.checks_ok = out.checks_ok && sets[i].ok;
    print_progress(cfg, out.rows.back(), sets[i].ok, progress);
  }
}

// Ts and T1 ratios, once every P of a kernel is measured.
void fill_ratios(bench_report& out, const kernel_info& ki) {
  std::map<std::string, double> t1;
  for (const auto& r : out.rows)
    if (r.kernel == kernel_name(ki.kernel) && r.threads == 1) t1[r.runtime] = r.seconds;
  for (auto& r : out.rows) {
    if (r.kernel != kernel_name(ki.kernel)) continue;
    r.ts_over_tp = ki.ts / r.seconds;
    if (!t1.count(r.runtime)) continue;
    r.t1_over_ts = t1[r.runtime] / ki.ts;
    r.t1_over_tp = t1[r.runtime] / r.seconds;
  }
}

double idle_cpu_ms_per_s(double window) {
  const double c0 = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(window));
  return (process_cpu_seconds() - c0) * 1e3 / window;
}

void measure_idle(const bench_config& cfg, std::vector<std::unique_ptr<runtime>>& rts,
                  bench_report& out, std::FILE* progress) {
  // Let every runtime's threads finish spinning (libgomp spins for a long time), then measure
  // the process at rest as the baseline.
  std::this_thread::sleep_for(std::chrono::duration<double>(cfg.idle_seconds));
  out.baseline_idle_ms_per_s = idle_cpu_ms_per_s(cfg.idle_seconds);
  kernel_params small = cfg.params;
  small.fib_n = 20;
  matmul_data none(1);
  for (auto& rt : rts) {
    if (!rt->parallel()) continue;  // no threads of its own to stay idle
    for (unsigned p : cfg.threads) {
      rt->set_threads(p);
      (void)rt->run(kernel_id::fib, small, none);
      idle_row row{std::string(rt->name()), p, 0, std::nullopt};
      const std::optional<double> own0 = rt->own_cpu_seconds();
      row.cpu_ms_per_idle_s = idle_cpu_ms_per_s(cfg.idle_seconds);
      if (const std::optional<double> own1 = rt->own_cpu_seconds(); own0 && own1)
        row.own_ms_per_idle_s = (*own1 - *own0) * 1e3 / cfg.idle_seconds;
      out.idle.push_back(row);
      note(cfg, progress,
           fmt::format("  idle {:<16} P={} {:.3f} ms CPU per idle s\n", rt->name(), p,
                       row.judged()));
    }
  }
}

}  // namespace

bench_report run_bench(const bench_config& cfg, std::FILE* progress) {
  bench_report out;
  out.reps = cfg.reps;
  auto serial = make_serial_runtime();
  std::vector<std::unique_ptr<runtime>> rts;
  const std::vector<std::string> names = cfg.runtimes.empty() ? all_runtime_names() : cfg.runtimes;
  for (const auto& n : names)
    if (n != "serial") rts.push_back(make_runtime(n));
  out.line_transfer_ns_start = line_transfer_ns();
  if (out.line_transfer_ns_start > 0)
    note(cfg, progress,
         fmt::format("cache-line transfer between two threads: {:.0f} ns\n",
                     out.line_transfer_ns_start));
  for (kernel_id k : cfg.kernels) {
    matmul_data m(k == kernel_id::matmul ? cfg.params.matmul_n : 1);
    bool ok = true;
    out.kernels.push_back(prepare_kernel(k, cfg, m, progress, ok));
    kernel_info& ki = out.kernels.back();
    out.checks_ok = out.checks_ok && ok;
    note(cfg, progress,
         fmt::format("{} ({}): {} tasks, span {}, S1 {} frames\n", kernel_name(k), ki.size,
                     ki.tasks, ki.span, ki.s1));
    // The serial program runs in every round, beside the runtimes; Ts is the median of all its
    // runs, so it is sampled over the same stretch of time as every TP of the kernel.
    sample_set warm, serial_set;
    timed_run(*serial, k, cfg.params, m, ki.expected, warm);  // untimed warm-up, checked
    serial_set.ok = warm.ok;
    const auto first = static_cast<std::ptrdiff_t>(out.rows.size());
    for (unsigned p : cfg.threads)
      measure_threads(ki, cfg, p, *serial, serial_set, rts, m, out, progress);
    ki.ts = median(serial_set.times);
    serial_set.rss = -1;  // shown as "-": the process's peak there is what earlier rows left
    out.rows.insert(out.rows.begin() + first, make_row(ki, "serial", 1, serial_set, 1));
    out.checks_ok = out.checks_ok && serial_set.ok;
    print_progress(cfg, out.rows[static_cast<std::size_t>(first)], serial_set.ok, progress);
    fill_ratios(out, ki);
  }
  measure_idle(cfg, rts, out, progress);
  out.line_transfer_ns_end = line_transfer_ns();
  return out;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
