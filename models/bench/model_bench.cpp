// models/bench/model_bench.cpp: model-checker throughput (executions per second) on fixed deque
// clients. Never pass/fail on time. Run:
//   cmake --build build/release --target model_bench && ./build/release/models/model_bench
// The large client (push x4, pop x4, two thieves stealing twice; 1,024,124 executions) runs
// whole, once (tens of seconds); its rate is what is compared with GenMC's 8,000-13,000
// executions per second on clients of that size. The `_jobs2` entry runs it on two explorer
// threads (options::jobs) and reports executions per *wall* second (UseRealTime): the other
// entries report per CPU second of the one explorer thread.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace {

using namespace stealcheck;
using namespace stealcheck::model;

void run_client(benchmark::State& st, void (*fn)(client&), std::uint64_t cap, unsigned jobs = 1) {
  std::uint64_t execs = 0;
  std::uint64_t complete = 0;
  for (auto _ : st) {
    options o;
    o.max_executions = cap;
    o.jobs = jobs;
    const result r = explore(o, fn);
    if (r.bug) st.SkipWithError(r.bug->message.c_str());
    execs += r.executions();
    complete = r.complete;
  }
  st.counters["execs_per_iter"] = static_cast<double>(complete);
  st.counters["execs/s"] =
      benchmark::Counter(static_cast<double>(execs), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(run_client, chase_lev_push2_pop_steal2,
                  clients::push2_pop_steal2<chase_lev_tag::deque>, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_client, chase_lev_push3_pop2_2thieves,
                  clients::push3_pop2_2thieves<chase_lev_tag::deque>, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_client, chase_lev_push4_pop4_2thieves_steal2,
                  clients::push4_pop4_2thieves_steal2<chase_lev_tag::deque>, 0)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(run_client, chase_lev_push4_pop4_2thieves_steal2_jobs2,
                  clients::push4_pop4_2thieves_steal2<chase_lev_tag::deque>, 0, 2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
// SPDX-License-Identifier: Apache-2.0
