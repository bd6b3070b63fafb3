// bench/report.cpp: the table, JSON and gnuplot output of runner.hpp.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <utility>

#include "bench/runner.hpp"
#include "bench/runtimes.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::bench {
namespace {

std::string ratio(double v) {
  return v > 0 ? fmt::format("{:.2f}", v) : "-";
}

// One statistics column of a row: "-" for the runtimes without stealcheck's counters.
template <class Get>
std::string stat_cell(const std::optional<scheduler::scheduler_stats>& s, Get get) {
  return s ? std::to_string(get(*s)) : "-";
}

// An optional number in the JSON: the value, or null when there is none.
template <class T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

double peak_over_p_s1(const result_row& row) {
  return row.peak_live >= 0 && row.p_s1 > 0
             ? static_cast<double>(row.peak_live) / static_cast<double>(row.p_s1)
             : -1;
}

std::string peak_cells(const result_row& row) {
  if (row.peak_live < 0) return fmt::format("{:>8} {:>7}", "-", "-");
  return fmt::format("{:>8} {:>7.2f}", row.peak_live, peak_over_p_s1(row));
}

}  // namespace

namespace {

const result_row* find_row(const bench_report& r, std::string_view kernel, std::string_view rt,
                           unsigned p) {
  for (const auto& row : r.rows)
    if (row.kernel == kernel && row.runtime == rt && row.threads == p) return &row;
  return nullptr;
}

// One of stealcheck's pools (child-*, cs-*, throttled child-*/t<K> included).
bool is_pool_runtime(std::string_view rt) {
  return rt.starts_with("child-") || rt.starts_with("cs-");
}

// fib's per-task cost at P = 1 of each of stealcheck's runtimes: oneTBB's and libgomp's over it
// (>= 5x and >= 3x); a child-stealing row over the serial call (<= 3x); a continuation-stealing
// row over coro-serial (<= 1.3x): the coroutine calls' own cost belongs to the compiler, a floor
// no scheduler built on these coroutines goes under, so the target is what the scheduler adds.
void print_fib_targets(const bench_report& r, std::FILE* out) {
  const result_row* serial = find_row(r, "fib", "serial", 1);
  const result_row* floor = find_row(r, "fib", "coro-serial", 1);
  if (floor != nullptr && serial != nullptr)
    fmt::print(out, "  fib P=1 ns/task coro-serial   /serial {:6.2f}x (the coroutine floor)\n",
               floor->ns_per_task / serial->ns_per_task);
  for (const result_row& row : r.rows) {
    if (row.kernel != "fib" || row.threads != 1 || !is_pool_runtime(row.runtime)) continue;
    for (const char* other : {"tbb", "omp"}) {
      const result_row* o = find_row(r, "fib", other, 1);
      const double bound = other[0] == 't' ? 5.0 : 3.0;
      if (o == nullptr) continue;
      fmt::print(out, "  fib P=1 ns/task {}/{:<16} {:6.2f}x (>= {:.1f}: {})\n", other, row.runtime,
                 o->ns_per_task / row.ns_per_task, bound,
                 o->ns_per_task >= bound * row.ns_per_task ? "met" : "NOT met");
    }
    const bool cs = row.runtime.starts_with("cs-");
    const result_row* base = cs ? floor : serial;
    if (base == nullptr) continue;
    const double bound = cs ? 1.3 : 3.0;
    fmt::print(out, "  fib P=1 ns/task {:<16}/{:<6} {:6.2f}x (<= {:.1f}: {})\n", row.runtime,
               cs ? "coro-serial" : "serial", row.ns_per_task / base->ns_per_task, bound,
               row.ns_per_task <= bound * base->ns_per_task ? "met" : "NOT met");
  }
}

// The performance targets, as ratios from this run: fib's per-task cost (print_fib_targets);
// self-speedup T1/T2 >= 1.7 and speedup over the serial program Ts/T2 >= 1.6 (nqueens) and
// >= 1.7 (UTS's T1 and T3, where stealcheck's pools must also be ahead of oneTBB's Ts/T2 in the
// same run); peak live frames <= P*S1 under continuation stealing; idle CPU < 1 ms per idle
// second.
void print_targets(const bench_report& r, std::FILE* out) {
  fmt::print(out, "\ntargets, measured in this run:\n");
  print_fib_targets(r, out);
  for (const auto& [k, ts_min] :
       {std::pair{"nqueens", 1.6}, std::pair{"uts-t1", 1.7}, std::pair{"uts-t3", 1.7}}) {
    const auto tbb = std::find_if(r.rows.begin(), r.rows.end(), [&](const result_row& row) {
      return row.kernel == k && row.threads == 2 && row.runtime == "tbb";
    });
    for (const auto& row : r.rows) {
      if (row.kernel != k || row.threads != 2 || row.t1_over_tp <= 0) continue;
      fmt::print(out, "  {:<8} T1/T2 {:<16} {:6.2f}  (>= 1.7: {}); Ts/T2 {:5.2f} (>= {:.1f}: {})",
                 k, row.runtime, row.t1_over_tp, row.t1_over_tp >= 1.7 ? "met" : "NOT met",
                 row.ts_over_tp, ts_min, row.ts_over_tp >= ts_min ? "met" : "NOT met");
      if (tbb != r.rows.end() && std::string_view(k).starts_with("uts-") &&
          row.runtime.starts_with("child-"))
        fmt::print(out, "; vs tbb's {:.2f}: {}", tbb->ts_over_tp,
                   row.ts_over_tp > tbb->ts_over_tp ? "ahead" : "NOT ahead");
      fmt::print(out, "\n");
    }
  }
  for (const auto& row : r.rows) {
    if (!row.runtime.starts_with("cs-") || row.peak_live < 0) continue;
    fmt::print(out, "  {:<8} peak frames/(P*S1) {:<16} P={} {:6.2f}  (<= 1: {})\n", row.kernel,
               row.runtime, row.threads, peak_over_p_s1(row),
               row.peak_live <= row.p_s1 ? "met" : "NOT met");
  }
  for (const auto& i : r.idle) {
    if (!is_pool_runtime(i.runtime)) continue;
    fmt::print(out, "  idle {:<16} P={} {:7.3f} ms per idle s (< 1: {})\n", i.runtime, i.threads,
               i.judged(), i.judged() < 1 ? "met" : "NOT met");
  }
}

// Ts/TP per runtime (rows) and P (columns), one block per kernel: the speedup over the serial
// program as it grows with P.
void print_speedups(const bench_report& r, std::FILE* out) {
  std::vector<unsigned> ps;
  for (const auto& row : r.rows)
    if (std::find(ps.begin(), ps.end(), row.threads) == ps.end()) ps.push_back(row.threads);
  std::sort(ps.begin(), ps.end());
  fmt::print(out, "\nspeedup over the serial program, Ts/TP:\n");
  for (const auto& k : r.kernels) {
    const std::string name(kernel_name(k.kernel));
    fmt::print(out, "  {:<8} {:<16}", name, "");
    for (unsigned p : ps)
      fmt::print(out, " {:>6}", fmt::format("P={}", p));
    fmt::print(out, "\n");
    std::vector<std::string> runtimes;
    for (const auto& row : r.rows)
      if (row.kernel == name && row.runtime != "serial" &&
          std::find(runtimes.begin(), runtimes.end(), row.runtime) == runtimes.end())
        runtimes.push_back(row.runtime);
    for (const auto& rt : runtimes) {
      fmt::print(out, "  {:<8} {:<16}", "", rt);
      for (unsigned p : ps) {
        const auto it = std::find_if(r.rows.begin(), r.rows.end(), [&](const result_row& row) {
          return row.kernel == name && row.runtime == rt && row.threads == p;
        });
        fmt::print(out, " {:>6}", it == r.rows.end() ? "-" : fmt::format("{:.2f}", it->ts_over_tp));
      }
      fmt::print(out, "\n");
    }
  }
}

// Each peer against its own language's serial recursion (its `-serial` row in this run, at
// P = 1), Ts'/TP: what the runtime gains over the same program without it, apart from how fast
// the language runs the kernel (Ts/TP above compares with the C++ serial program).
void print_peer_speedups(const bench_report& r, std::FILE* out) {
  bool header = false;
  for (const auto& row : r.rows) {
    const std::optional<std::string_view> own = peer_serial_runtime(row.runtime);
    if (!own || row.seconds <= 0) continue;
    const auto base = std::find_if(r.rows.begin(), r.rows.end(), [&](const result_row& b) {
      return b.kernel == row.kernel && b.runtime == *own && b.threads == 1;
    });
    if (base == r.rows.end()) continue;
    if (!header)
      fmt::print(out,
                 "\npeers against their own serial recursion, Ts'/TP (Ts': the -serial row):\n");
    header = true;
    fmt::print(out, "  {:<8} {:<16} P={:<3} {:6.2f}\n", row.kernel, row.runtime, row.threads,
               base->seconds / row.seconds);
  }
}

void print_greedy_bound(const bench_report& r, std::FILE* out) {
  bool header = false;
  for (const auto& k : r.kernels) {
    const std::string name(kernel_name(k.kernel));
    for (const auto& one : r.rows) {
      if (one.kernel != name || one.threads != 1 || !is_pool_runtime(one.runtime)) continue;
      const std::optional<greedy_fit> fit = fit_greedy_bound(r, k, one.runtime);
      if (!fit) continue;
      if (!header) {
        fmt::print(out,
                   "\nBlumofe-Leiserson: T_P against T1/P_A + c*T_inf (P_A the cores the run got, "
                   "T_inf = span x T1/tasks), c fitted over P >= 2:\n");
        header = true;
      }
      std::string per_p;
      for (const auto& [p, c] : fit->per_p)
        per_p += fmt::format("{}P={}: {:.0f}", per_p.empty() ? "" : " ", p, c);
      fmt::print(out, "  {:<8} {:<22} T_inf {:>9.3f} us  c {:>9.0f}  ({})\n", name, one.runtime,
                 fit->t_inf * 1e6, fit->c, per_p);
    }
  }
}

}  // namespace

std::optional<greedy_fit> fit_greedy_bound(const bench_report& r, const kernel_info& k,
                                           std::string_view runtime) {
  const std::string name(kernel_name(k.kernel));
  const result_row* one = find_row(r, name, runtime, 1);
  if (one == nullptr || k.tasks == 0 || k.span <= 0) return std::nullopt;
  greedy_fit fit;
  fit.t_inf = static_cast<double>(k.span) * one->seconds / static_cast<double>(k.tasks);
  double sum = 0;
  for (const auto& row : r.rows) {
    if (row.kernel != name || row.runtime != runtime || row.threads < 2) continue;
    const double p_a = std::clamp(row.cores, 1.0, static_cast<double>(row.threads));
    const double c = (row.seconds - one->seconds / p_a) / fit.t_inf;
    fit.per_p.emplace_back(row.threads, c);
    sum += c;
  }
  if (fit.per_p.empty()) return std::nullopt;
  fit.c = sum / static_cast<double>(fit.per_p.size());
  return fit;
}

void print_table(const bench_report& r, std::FILE* out) {
  if (r.line_transfer_ns_start > 0 && r.line_transfer_ns_end > 0)
    fmt::print(out,
               "machine: cache-line transfer between two threads {:.0f} ns before the kernels, "
               "{:.0f} ns after (ping-pong)\n",
               r.line_transfer_ns_start, r.line_transfer_ns_end);
  for (const auto& k : r.kernels)
    fmt::print(out, "{:<8} {:<28} tasks/run {:>10}  span {:>5}  S1 {:>5}  check {:#x}\n",
               kernel_name(k.kernel), k.size, k.tasks, k.span, k.s1, k.expected);
  fmt::print(out,
             "\n{:<8} {:<16} {:>2} {:>10} {:>6} {:>6} {:>6} {:>8} {:>8} {:>9} {:>9} {:>9} "
             "{:>6} {:>7} {:>8} {:>7} {:>5} {}\n",
             "kernel", "runtime", "P", "time ms", "T1/Ts", "Ts/TP", "T1/TP", "ns/task", "RSS MiB",
             "steals", "moved", "failed", "parks", "P*Tinf", "peak", "pk/PS1", "cores", "check");
  for (const auto& row : r.rows) {
    fmt::print(out,
               "{:<8} {:<16} {:>2} {:>10.3f} {:>6} {:>6} {:>6} {:>8.1f} {:>8} {:>9} {:>9} {:>9} "
               "{:>6} {:>7} {} {:>5.2f} {}\n",
               row.kernel, row.runtime, row.threads, row.seconds * 1e3, ratio(row.t1_over_ts),
               ratio(row.ts_over_tp), ratio(row.t1_over_tp), row.ns_per_task,
               row.peak_rss_kb >= 0
                   ? fmt::format("{:.1f}", static_cast<double>(row.peak_rss_kb) / 1024)
                   : "-",
               row.peer_steals ? std::to_string(*row.peer_steals)
                               : stat_cell(row.stats, [](const auto& x) { return x.steals; }),
               stat_cell(row.stats, [](const auto& x) { return x.stolen_tasks; }),
               stat_cell(row.stats, [](const auto& x) { return x.failed_steals(); }),
               stat_cell(row.stats, [](const auto& x) { return x.parks; }), row.p_tinf,
               peak_cells(row), row.cores, row.check_ok ? "ok" : "WRONG");
  }
  fmt::print(out,
             "\nidle CPU, ms per idle second after a job: the runtime's own threads (pools) and "
             "the whole process (baseline at rest {:.3f})\n",
             r.baseline_idle_ms_per_s);
  for (const auto& i : r.idle)
    fmt::print(out, "  {:<16} P={} {:>8} {:8.3f}\n", i.runtime, i.threads,
               i.own_ms_per_idle_s ? fmt::format("{:.3f}", *i.own_ms_per_idle_s) : "-",
               i.cpu_ms_per_idle_s);
  print_speedups(r, out);
  print_peer_speedups(r, out);
  print_greedy_bound(r, out);
  print_targets(r, out);
  fmt::print(out, "\nresults: {}\n", r.checks_ok ? "all checked ok" : "SOME RESULTS WRONG");
}

std::string report_json(const bench_report& r, const std::string& command) {
  nlohmann::json j;
  j["stealcheck_version"] = harness::version();
  j["command"] = command;
  j["reps"] = r.reps;
  j["checks_ok"] = r.checks_ok;
  for (const auto& k : r.kernels)
    j["kernels"].push_back({{"kernel", kernel_name(k.kernel)},
                            {"size", k.size},
                            {"check", k.expected},
                            {"tasks", k.tasks},
                            {"span", k.span},
                            {"s1", k.s1},
                            {"serial_seconds", k.ts}});
  for (const auto& row : r.rows) {
    nlohmann::json x = {{"kernel", row.kernel},
                        {"runtime", row.runtime},
                        {"threads", row.threads},
                        {"seconds", row.seconds},
                        {"t1_over_ts", row.t1_over_ts},
                        {"ts_over_tp", row.ts_over_tp},
                        {"t1_over_tp", row.t1_over_tp},
                        {"ns_per_task", row.ns_per_task},
                        {"peak_rss_kb", row.peak_rss_kb},
                        {"cores", row.cores},
                        {"p_tinf", row.p_tinf},
                        {"check_ok", row.check_ok},
                        {"peak_live", row.peak_live},
                        {"p_s1", row.p_s1},
                        {"peak_over_p_s1", peak_over_p_s1(row)}};
    if (row.peer_steals) x["peer_steals"] = *row.peer_steals;
    if (row.stats) {
      x["stats"] = nlohmann::json::object();
      for (const auto& f : scheduler::scheduler_stats::fields)
        x["stats"][f.name] = (*row.stats).*f.member;
    }
    j["rows"].push_back(x);
  }
  j["idle_baseline_ms_per_s"] = r.baseline_idle_ms_per_s;
  j["line_transfer_ns"] = {{"start", r.line_transfer_ns_start}, {"end", r.line_transfer_ns_end}};
  for (const auto& i : r.idle)
    j["idle"].push_back({{"runtime", i.runtime},
                         {"threads", i.threads},
                         {"cpu_ms_per_idle_s", i.cpu_ms_per_idle_s},
                         {"own_ms_per_idle_s", or_null(i.own_ms_per_idle_s)}});
  return j.dump(2);
}

std::optional<kernel_id> kernel_by_name(std::string_view name) {
  if (name == "uts") return kernel_id::uts_fine;
  for (kernel_id k : known_kernels)
    if (kernel_name(k) == name) return k;
  return std::nullopt;
}

namespace {

// j[key] as T, or `fallback` when j has no such key or it is null. Throws on a wrong type.
template <class T>
T value_or(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

// A runtime's name in a saved run: runs written by 0.2 and earlier named the child-stealing
// pools `sc-<variant>`; they read as `child-<variant>` (`sc` is sequential consistency).
std::string saved_runtime_name(std::string name) {
  if (name.starts_with("sc-")) name.replace(0, 3, "child-");
  return name;
}

}  // namespace

std::optional<bench_report> read_report_json(const std::string& text, std::string& command,
                                             std::string& error) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    bench_report r;
    command = value_or<std::string>(j, "command", "");
    r.reps = value_or(j, "reps", 0);
    r.checks_ok = value_or(j, "checks_ok", false);
    r.baseline_idle_ms_per_s = value_or(j, "idle_baseline_ms_per_s", 0.0);
    if (const auto lt = j.find("line_transfer_ns"); lt != j.end()) {
      r.line_transfer_ns_start = value_or(*lt, "start", -1.0);
      r.line_transfer_ns_end = value_or(*lt, "end", -1.0);
    }
    for (const auto& k : j.at("kernels")) {
      const std::string name = k.at("kernel").get<std::string>();
      const std::optional<kernel_id> id = kernel_by_name(name);
      if (!id) return error = "unknown kernel '" + name + "'", std::nullopt;
      r.kernels.push_back(kernel_info{
          *id, value_or<std::string>(k, "size", ""), value_or<std::uint64_t>(k, "check", 0),
          value_or<std::uint64_t>(k, "tasks", 0), value_or(k, "span", 0),
          value_or<std::int64_t>(k, "s1", 0), value_or(k, "serial_seconds", 0.0)});
    }
    for (const auto& x : j.at("rows")) {
      result_row row;
      row.kernel = x.at("kernel").get<std::string>();
      if (const auto id = kernel_by_name(row.kernel)) row.kernel = kernel_name(*id);
      row.runtime = saved_runtime_name(x.at("runtime").get<std::string>());
      row.threads = x.at("threads").get<unsigned>();
      row.seconds = x.at("seconds").get<double>();
      row.t1_over_ts = value_or(x, "t1_over_ts", 0.0);
      row.ts_over_tp = value_or(x, "ts_over_tp", 0.0);
      row.t1_over_tp = value_or(x, "t1_over_tp", 0.0);
      row.ns_per_task = value_or(x, "ns_per_task", 0.0);
      row.peak_rss_kb = value_or<std::int64_t>(x, "peak_rss_kb", -1);
      row.cores = value_or(x, "cores", 0.0);
      row.p_tinf = value_or<std::uint64_t>(x, "p_tinf", 0);
      row.check_ok = value_or(x, "check_ok", true);
      row.peak_live = value_or<std::int64_t>(x, "peak_live", -1);
      row.p_s1 = value_or<std::int64_t>(x, "p_s1", 0);
      if (const auto ps = x.find("peer_steals"); ps != x.end() && ps->is_number_unsigned())
        row.peer_steals = ps->get<std::uint64_t>();
      if (const auto st = x.find("stats"); st != x.end() && st->is_object()) {
        scheduler::scheduler_stats s;
        for (const auto& f : scheduler::scheduler_stats::fields)
          s.*f.member = value_or<std::uint64_t>(*st, f.name, 0);
        row.stats = s;
      }
      r.rows.push_back(row);
    }
    if (const auto idle = j.find("idle"); idle != j.end() && idle->is_array())
      for (const auto& i : *idle)
        r.idle.push_back(
            idle_row{saved_runtime_name(i.at("runtime").get<std::string>()),
                     i.at("threads").get<unsigned>(), value_or(i, "cpu_ms_per_idle_s", 0.0),
                     i.contains("own_ms_per_idle_s") && !i["own_ms_per_idle_s"].is_null()
                         ? std::optional<double>(i["own_ms_per_idle_s"].get<double>())
                         : std::nullopt});
    return r;
  } catch (const nlohmann::json::exception& e) {
    error = harness::json_error_text(e);  // names the key or the byte: "key 'rows' not found"
    return std::nullopt;
  }
}

namespace {

std::vector<std::string> plotted_runtimes(const bench_report& r) {
  std::vector<std::string> runtimes;  // table order, first appearance
  for (const auto& row : r.rows)
    if (row.runtime != "serial" &&
        std::find(runtimes.begin(), runtimes.end(), row.runtime) == runtimes.end())
      runtimes.push_back(row.runtime);
  return runtimes;
}

// A ratio for the plot's data file; "?" (gnuplot's missing value) when not measured.
std::string plot_ratio(double num, double den, bool measured) {
  return measured && den > 0 ? fmt::format("{}", num / den) : "?";
}

// One gnuplot index block per (kernel, runtime):
// "P time_ms Ts/TP steals/(P*Tinf) peak_live/(P*S1)" lines.
bool write_plot_data(const bench_report& r, const std::vector<std::string>& runtimes,
                     const std::string& dat) {
  std::ofstream d(dat);
  for (const auto& k : r.kernels) {
    for (const auto& rt : runtimes) {
      d << "# " << kernel_name(k.kernel) << ' ' << rt
        << "\n# P time_ms speedup_Ts_over_TP steals_over_P_Tinf peak_live_over_P_S1\n";
      for (const auto& row : r.rows)
        if (row.kernel == kernel_name(k.kernel) && row.runtime == rt)
          d << row.threads << ' ' << row.seconds * 1e3 << ' ' << row.ts_over_tp << ' '
            << plot_ratio(row.stats ? static_cast<double>(row.stats->steals) : 0,
                          static_cast<double>(row.p_tinf), row.stats.has_value())
            << ' '
            << plot_ratio(static_cast<double>(row.peak_live), static_cast<double>(row.p_s1),
                          row.peak_live >= 0)
            << '\n';
      d << "\n\n";
    }
  }
  return static_cast<bool>(d);
}

// Rows: time per runtime (log scale), speedup over serial, steals / (P*T_inf), peak live frames
// or tasks / (P*S1) (log scale); one column per kernel.
bool write_plot_script(const bench_report& r, const std::vector<std::string>& runtimes,
                       const std::string& dat, const std::string& png, const std::string& gp) {
  struct panel {
    int column;
    const char* title;
    const char* ylabel;
    bool log;
  };
  static constexpr panel panels[] = {{2, "time (ms)", "ms", true},
                                     {3, "speedup Ts/TP", "Ts/TP", false},
                                     {4, "steals / (P*Tinf)", "steals/(P*Tinf)", false},
                                     {5, "peak live / (P*S1)", "peak/(P*S1)", true}};
  std::ofstream g(gp);
  const std::size_t nk = r.kernels.size(), nr = runtimes.size();
  std::string names;
  for (const auto& rt : runtimes)
    names += rt + ' ';
  g << "set terminal pngcairo size " << 420 * nk << ",1500 font ',9'\nset output '" << png
    << "'\nset termoption noenhanced\nset datafile missing '?'\nset multiplot layout 4," << nk
    << "\nset key top left font ',8'\nset grid\nset xtics 1\n"
    << "names = '" << names << "'\nset xlabel 'P (threads)'\n";
  for (const panel& pn : panels) {
    for (std::size_t ki = 0; ki < nk; ++ki) {
      const auto& k = r.kernels[ki];
      g << "set title '" << kernel_name(k.kernel) << " " << k.size << ": " << pn.title
        << "'\nset ylabel '" << pn.ylabel << "'\n"
        << (pn.log ? "set logscale y\n" : "unset logscale y\n") << "plot for [i=0:" << nr - 1
        << "] '" << dat << "' index (" << ki * nr << "+i) using 1:" << pn.column
        << " with linespoints title word(names, i+1)\n";
    }
  }
  g << "unset multiplot\n";
  g.close();
  return static_cast<bool>(g);
}

}  // namespace

bool write_plot(const bench_report& r, const std::string& png, std::string& error) {
  const std::vector<std::string> runtimes = plotted_runtimes(r);
  const std::string dat = png + ".dat", gp = png + ".gp";
  if (!write_plot_data(r, runtimes, dat)) return error = "cannot write " + dat, false;
  if (!write_plot_script(r, runtimes, dat, png, gp)) return error = "cannot write " + gp, false;
  // gnuplot's messages (e.g. a panel where a runtime has no measured point, such as steals of
  // coro-serial) go to a log next to the script, not into the report.
  const std::string log = gp + ".log";
  const std::string cmd = "gnuplot '" + gp + "' 2>'" + log + "'";
  // NOLINTNEXTLINE(concurrency-mt-unsafe): the report is written after the runs, on one thread
  if (std::system(cmd.c_str()) != 0)
    return error = "gnuplot failed (is gnuplot installed? apt-get install gnuplot-nox): " + cmd +
                   "; see " + log,
           false;
  return true;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
