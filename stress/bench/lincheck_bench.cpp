// Checking time of the linearizability checker (stress/lincheck.hpp) on real histories:
// chase_lev run natively with 1 owner + (threads-1) thieves, every operation recorded, then
// check() timed. Sizes 10^3, 10^4, 10^5 operations; 2, 4, 8 threads. The history is
// recorded once per size (outside the timed loop); each iteration checks it from scratch.
// Widened histories (stress/widened.hpp: every thread has an operation in flight almost all
// the time), legal and broken by one changed result, decided by check() (the direct decision,
// with the search as its fallback) and, for comparison, by the search alone.
// Run: build/release/stress/lincheck_bench --benchmark_counters_tabular=true
// Memory: peak_MB is the process's peak resident size when the benchmark ends; filter to one
// benchmark (--benchmark_filter) to read it for that one.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/stress/history_file.hpp"
#include "stealcheck/detail/stress/lin_native.hpp"
#include "stealcheck/detail/stress/widened.hpp"

namespace stealcheck::stress::lincheck {
namespace {

// A scenario of about `ops` operations: the owner pushes (and pops every 4th step), the
// thieves share the steals.
scenario big_scenario(std::int64_t ops, std::int64_t threads) {
  scenario s;
  const std::int64_t owner_ops = ops / 2;
  for (std::int64_t i = 0; i < owner_ops; ++i) {
    s.owner.push_back(i % 4 == 3 ? owner_step::pop : owner_step::push);
  }
  for (std::int64_t t = 1; t < threads; ++t) {
    s.thieves.emplace_back(static_cast<std::size_t>((ops - owner_ops) / (threads - 1)),
                           thief_step::steal);
  }
  return s;
}

const history& recorded(std::int64_t ops, std::int64_t threads) {
  static std::map<std::pair<std::int64_t, std::int64_t>, history> cache;
  auto& h = cache[{ops, threads}];
  if (h.empty()) {
    using D = chase_lev_tag::deque<std::uint64_t, native_memory>;
    h = run_native<D>(big_scenario(ops, threads), /*seed=*/1, /*jitter=*/true);
  }
  return h;
}

void BM_CheckHistory(benchmark::State& state) {
  const history& h = recorded(state.range(0), state.range(1));
  std::size_t states = 0;
  bool ok = true;
  for (auto _ : state) {
    const check_result r = check(h, spec::spec_kind::lifo_owner);
    states = r.states_explored;
    ok = ok && r.linearizable;
  }
  if (!ok) state.SkipWithError("history not linearizable");
  state.counters["ops"] = static_cast<double>(h.size());
  state.counters["states"] = static_cast<double>(states);
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(h.size()),
                                               benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CheckHistory)
    ->ArgsProduct({{1000, 10000, 100000}, {2, 4, 8}})
    ->ArgNames({"ops", "threads"})
    ->Unit(benchmark::kMillisecond);

const history& widened(std::int64_t ops, std::int64_t threads, std::int64_t change) {
  static std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, history> cache;
  auto& h = cache[{ops, threads, change}];
  if (h.empty())
    h = *widened_history({static_cast<std::size_t>(ops), static_cast<std::size_t>(threads),
                          /*seed=*/1, static_cast<widened_change>(change)});
  return h;
}

double peak_megabytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// change: 0 none (legal), 1 duplicate, 2 empty_steal, 3 empty_pop (stress/widened.hpp)
template <bool Direct>
void widened_bench(benchmark::State& state) {
  const auto change = state.range(2);
  const history& h = widened(state.range(0), state.range(1), change);
  check_result r;
  for (auto _ : state)
    r = Direct ? check(h, spec::spec_kind::lifo_owner) : search(h, spec::spec_kind::lifo_owner);
  if (r.linearizable != (change == 0)) state.SkipWithError("wrong verdict");
  state.counters["ops"] = static_cast<double>(h.size());
  state.counters["overlap"] = mean_overlap(h);
  state.counters["direct"] = r.direct ? 1 : 0;
  state.counters["states"] = static_cast<double>(r.states_explored);
  state.counters["peak_MB"] = peak_megabytes();
}
void BM_Widened(benchmark::State& state) {
  widened_bench<true>(state);
}
void BM_WidenedSearch(benchmark::State& state) {
  widened_bench<false>(state);
}
BENCHMARK(BM_Widened)
    ->ArgsProduct({{1000, 10000, 100000}, {2, 4, 8}, {0, 1, 2, 3}})
    ->ArgNames({"ops", "threads", "change"})
    ->Unit(benchmark::kMillisecond);
// the search alone, for comparison (8 threads)
BENCHMARK(BM_WidenedSearch)
    ->ArgsProduct({{1000, 10000, 100000}, {8}, {0, 1, 2, 3}})
    ->ArgNames({"ops", "threads", "change"})
    ->Unit(benchmark::kMillisecond);

// --save-widened=FILE [--ops=N] [--threads=T] [--change=NAME] [--seed=S]: writes one widened
// history as a history file (docs/history-format.md) instead of benchmarking, for
// `stealcheck lincheck --history FILE`. Returns the exit code, or -1 when not asked.
int save_widened(int argc, char** argv) {
  std::string file;
  widened_options o;
  o.ops = 100000;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const auto value = [&](std::string_view flag) -> std::optional<std::string> {
        if (a.rfind(flag, 0) != 0) return std::nullopt;
        return a.substr(flag.size());
      };
      const auto f = value("--save-widened="), n = value("--ops="), t = value("--threads="),
                 seed = value("--seed="), c = value("--change=");
      if (f) file = *f;
      if (n) o.ops = std::stoul(*n);
      if (t) o.threads = std::stoul(*t);
      if (seed) o.seed = std::stoull(*seed);
      if (c) {
        const auto change = change_by_name(*c);
        if (!change)
          throw std::invalid_argument("--change: none, duplicate, empty_steal or empty_pop");
        o.change = *change;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: bad option (%s)\n", e.what());
    return 2;
  }
  if (file.empty()) return -1;
  const auto h = widened_history(o);
  std::ofstream out(file);
  if (!h || !out) {
    std::fprintf(stderr, "error: %s\n", h ? "cannot write the file" : "no place for that change");
    return 2;
  }
  write_history(out, *h, spec::spec_kind::lifo_owner);
  std::printf("%zu operations, %zu threads, seed %llu, change %s, mean overlap %.2f: %s\n",
              h->size(), o.threads, static_cast<unsigned long long>(o.seed),
              std::string(change_name(o.change)).c_str(), mean_overlap(*h), file.c_str());
  return 0;
}

}  // namespace
}  // namespace stealcheck::stress::lincheck

int main(int argc, char** argv) {
  if (const int code = stealcheck::stress::lincheck::save_widened(argc, argv); code >= 0)
    return code;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
