#include "stress/checker.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "deques/registry.hpp"
#include "stress/isolate.hpp"
#include "stress/run.hpp"

namespace stealcheck::stress {
namespace {

constexpr int last_item_runs = 24;

tools::check_cell run_all(auto tag, const variant_info& info, const tools::verify_options& o) {
  tools::check_cell cell;
  std::uint64_t ops_total = 0;
  for (scenario s : all_scenarios) {
    const int runs = s == scenario::last_item ? last_item_runs : 1;  // see stress_test.cpp
    for (int i = 0; i < runs; ++i) {
      config c;
      c.ops = o.quick && s != scenario::last_item ? 20000 : 200000;
      c.seed = o.seed + static_cast<std::uint64_t>(i);
      if (o.progress) {
        std::fprintf(stderr, "\r[verify] %s: stress %s (seed %llu)          ",
                     std::string(info.name).c_str(), std::string(scenario_name(s)).c_str(),
                     static_cast<unsigned long long>(c.seed));
      }
      const result r = run_isolated([&] { return run<decltype(tag)>(s, c); }, 120);
      cell.seconds += r.seconds;
      ops_total += r.pushed;
      if (!r.ok) {
        cell.verdict = tools::cell_verdict::fail;
        cell.failure = fmt::format("{}: {}", scenario_name(s), r.failure);
        cell.replay = fmt::format("stealcheck stress {} --scenario {} --ops {} --seed {}",
                                  info.name, scenario_name(s), c.ops, c.seed);
        cell.detail = fmt::format("failed in {}", scenario_name(s));
        return cell;
      }
    }
  }
  cell.verdict = tools::cell_verdict::pass;
  cell.detail = fmt::format("{} scenarios, {:.1f}M values", all_scenarios.size(),
                            static_cast<double>(ops_total) / 1e6);
  return cell;
}

}  // namespace

tools::checker stress_checker() {
  return {"stress", [](const variant_info& info, const tools::verify_options& o) {
            tools::check_cell cell;
            with_variant(info.name,
                         [&](auto tag, const variant_info& i) { cell = run_all(tag, i, o); });
            return cell;
          }};
}

}  // namespace stealcheck::stress
