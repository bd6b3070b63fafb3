// Checking time of the linearizability checker (stress/lincheck.hpp) on real histories:
// chase_lev run natively with 1 owner + (threads-1) thieves, every operation recorded, then
// check() timed. Sizes 10^3, 10^4, 10^5 operations; 2, 4, 8 threads. The history is
// recorded once per size (outside the timed loop); each iteration checks it from scratch.
// Run: build/release/stress/lincheck_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <utility>

#include "deques/registry.hpp"
#include "stress/lin_native.hpp"

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

}  // namespace
}  // namespace stealcheck::stress::lincheck

BENCHMARK_MAIN();
// SPDX-License-Identifier: Apache-2.0
