// bench/cli.cpp: see cli.hpp.
#include "bench/cli.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/runner.hpp"
#include "bench/runtimes.hpp"
#include "stealcheck/detail/harness/cli.hpp"

namespace stealcheck::bench {
namespace {

struct bench_args {
  std::string kernels, threads = "1,2", runtimes, json, plot, from_json;
  int reps = 0;  // 0: 5, or 1 with --quick
  bool quick = false;
};

// Fills cfg from args; on bad input returns the one-line error.
std::optional<std::string> to_config(const bench_args& a, bench_config& cfg) {
  if (!a.kernels.empty()) {
    cfg.kernels.clear();
    for (const auto& name : harness::split_commas(a.kernels)) {
      const std::optional<kernel_id> id = kernel_by_name(name);
      if (!id) {
        std::vector<std::string_view> names;
        names.reserve(std::size(known_kernels));
        for (kernel_id k : known_kernels)
          names.push_back(kernel_name(k));
        return fmt::format("unknown kernel '{}' (known: {})", name, fmt::join(names, ", "));
      }
      cfg.kernels.push_back(*id);
    }
  }
  cfg.threads.clear();
  for (const auto& t : harness::split_commas(a.threads)) {
    const std::optional<std::uint32_t> v = parse_uint(t, 1, 255);
    if (!v)
      return fmt::format("bad thread count '{}' in --threads (want integers 1..255, e.g. 1,2)", t);
    cfg.threads.push_back(*v);
  }
  if (!a.runtimes.empty()) {
    for (const auto& name : harness::split_commas(a.runtimes)) {
      if (name == "omp-llvm") {
        if (auto why = omp_llvm_unavailable())
          return fmt::format("runtime 'omp-llvm' is not available: {}", *why);
      }
      if (is_peer_runtime(name)) {  // no peer process started to check the name
        if (auto why = peer_unavailable(name))
          return fmt::format("runtime '{}' is not available: {}", name, *why);
        cfg.runtimes.push_back(name);
        continue;
      }
      if (make_runtime(name) == nullptr)
        return fmt::format(
            "unknown runtime '{}' (known: {}; a child-* runtime may end in policies, each once: "
            "/t<K> a fork throttle with K in 1..{}, /uniform, /sweep or /last_victim the victim "
            "order, /spin<US> microseconds of stealing before parking in 0..{}, /pause, "
            "/snooze or /yield the wait between failed steals, /one or /half what a batch "
            "steal takes, /search_any or /search_half how many workers may search at once; e.g. "
            "child-split/t4/sweep)",
            name, fmt::join(all_runtime_names(), ", "), max_throttle, max_spin_us);
      cfg.runtimes.push_back(name);
    }
  }
  if (a.reps < 0 || a.reps > 1000) return fmt::format("bad --reps {} (want 1..1000)", a.reps);
  cfg.quick = a.quick;
  cfg.reps = a.reps > 0 ? a.reps : (a.quick ? 1 : 5);
  cfg.idle_seconds = a.quick ? 0.1 : 1.0;
  if (a.quick) cfg.params = kernel_params::quick();
  return std::nullopt;
}

// --from-json FILE: the table (and --plot) of a run saved with --json, without running anything.
int replay_command(const bench_args& a) {
  std::ifstream f(a.from_json);
  if (!f) {
    fmt::print(stderr, "stealcheck bench: error: cannot read {}\n", a.from_json);
    return 2;
  }
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string recorded, err;
  const std::optional<bench_report> r = read_report_json(text, recorded, err);
  if (!r) {
    fmt::print(stderr, "stealcheck bench: error: {} is not a bench report: {}\n", a.from_json, err);
    return 2;
  }
  fmt::print("results of: {}\n", recorded.empty() ? "(no command recorded)" : recorded);
  print_table(*r, stdout);
  std::fflush(stdout);
  if (!a.plot.empty()) {
    if (!write_plot(*r, a.plot, err)) {
      fmt::print(stderr, "stealcheck bench: error: {}\n", err);
      return 1;
    }
    fmt::print(stderr, "plot written to {}\n", a.plot);
  }
  return 0;
}

int run_command(const bench_args& a, const std::string& command) {
  if (!a.from_json.empty()) return replay_command(a);
  bench_config cfg;
  if (auto err = to_config(a, cfg)) {
    fmt::print(stderr, "stealcheck bench: error: {}\n", *err);
    return 2;
  }
  const bench_report r = [&] {
    // On a terminal: the timed runs done (a round of every runtime counts one), of all.
    harness::status_line status(
        "bench", "rounds",
        cfg.kernels.size() * cfg.threads.size() * static_cast<std::uint64_t>(cfg.reps));
    cfg.status = &status;
    return run_bench(cfg, stderr);
  }();
  cfg.status = nullptr;
  print_table(r, stdout);
  std::fflush(stdout);  // the table before any later message on stderr, even into one file
  int code = r.checks_ok ? 0 : 1;
  if (!a.json.empty()) {
    std::ofstream f(a.json);
    f << report_json(r, command) << '\n';
    if (!f) {
      fmt::print(stderr, "stealcheck bench: error: cannot write {}\n", a.json);
      code = 1;
    }
  }
  if (!a.plot.empty()) {
    std::string err;
    if (!write_plot(r, a.plot, err)) {
      fmt::print(stderr, "stealcheck bench: error: {}\n", err);
      code = 1;
    } else {
      fmt::print(stderr, "plot written to {}\n", a.plot);
    }
  }
  return code;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<bench_args>();
  CLI::App* sub = app.add_subcommand("bench",
                                     "Benchmark the scheduler (every deque variant, both modes) "
                                     "against serial, oneTBB and OpenMP");
  sub->add_option("--kernels", args->kernels,
                  "Comma list of fib,nqueens,uts-t1,uts-t3,uts-fine,matmul,loop (the default), "
                  "uts-t1l,uts-t3l (UTS's large trees, about 10^8 nodes each), relay (one "
                  "task spawned and awaited at a time)");
  sub->add_option("--threads", args->threads, "Comma list of thread counts (default 1,2)");
  sub->add_option(
      "--runtimes", args->runtimes,
      "Comma list of serial,coro-serial,child-<variant>,cs-<variant>,tbb,omp,omp-llvm,java-fjp,"
      "java-serial,go,go-serial,rayon,rayon-serial,dotnet-mono,dotnet-serial (Java's "
      "ForkJoinPool and plain Java recursion, when a JDK was found; goroutines and plain Go "
      "recursion, when Go was found; Rayon and plain Rust recursion, when cargo and Rayon were "
      "found; .NET's tasks and plain C# recursion, when Mono was found) with a "
      "variant of the scheduler (chase_lev,locked,steal_half,split,the,abp,fjp,dotnet,"
      "crossbeam_lifo,bwos; for sc also chase_lev+lifo, chase_lev+lifo_steal, "
      "chase_lev+lifo_steal_quiet: a LIFO slot in front of chase_lev, private, stealable, or "
      "stealable without a wake-up when a push fills it) "
      "(default all; sc = child stealing, cs = continuation stealing, coro-serial = "
      "the cs kernels run serially; an sc name may end in policies: /t<K> forks throttled at "
      "K waiting tasks, /uniform|/sweep|/last_victim the victim order, /spin<US> the idle "
      "spin in microseconds, /pause|/snooze|/yield the wait between failed steals, "
      "/one|/half what a batch steal takes, /search_any|/search_half how many workers may "
      "search at once, e.g. child-split/t4/sweep/spin0)");
  sub->add_option("--reps", args->reps, "Timed repetitions per cell (default 5, --quick 1)");
  sub->add_flag("--quick", args->quick, "Small sizes, one repetition: a smoke run with checks");
  sub->add_option("--json", args->json, "Write the results as JSON to FILE")
      ->check(harness::output_file());
  sub->add_option("--plot", args->plot, "Write a PNG plot (gnuplot) to FILE.png")
      ->check(harness::output_file());
  sub->add_option("--from-json", args->from_json,
                  "Print the table (and with --plot, the plot) of a run saved with --json, "
                  "without running anything");
  sub->callback([args, sub, &exit_code] {
    std::string command = "stealcheck bench";
    for (const auto& o : sub->get_options()) {
      if (o->count() == 0 || o->get_name() == "--help") continue;
      command += " " + o->get_name();
      if (o->get_type_size() != 0) command += " " + o->as<std::string>();
    }
    exit_code = run_command(*args, command);
  });
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
