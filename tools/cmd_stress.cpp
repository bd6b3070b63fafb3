// stealcheck stress <variant|all> [--threads N] [--ops N | --seconds S] [--seed S] [--scenario S]
#include <fmt/format.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "deques/registry.hpp"
#include "stress/isolate.hpp"
#include "stress/run.hpp"
#include "tools/commands.hpp"

namespace stealcheck::tools {
namespace {

struct stress_options {
  std::string variant;
  std::string scenario_name = "all";
  int threads = 4;
  std::uint64_t ops = 200000;
  double seconds = 0;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

std::vector<stress::scenario> pick_scenarios(const std::string& name) {
  if (name == "all") return {stress::all_scenarios.begin(), stress::all_scenarios.end()};
  auto s = stress::parse_scenario(name);
  if (!s)
    throw usage_error(
        fmt::format("unknown scenario '{}' (one of: mixed, spsc, stampede, last_item, resize, "
                    "no_starvation, destructors, all)",
                    name));
  return {*s};
}

int run_stress(const stress_options& o) {
  std::vector<std::string> variants;
  if (o.variant == "all") {
    for_each_variant([&](auto, const variant_info& v) {
      if (!v.known_bad) variants.emplace_back(v.name);
    });
  } else {
    require_variant(o.variant);
    variants.push_back(o.variant);
  }
  const auto scenarios = pick_scenarios(o.scenario_name);
  stress::config c;
  c.thieves = o.threads - 1;
  c.ops = o.ops;
  c.seconds = o.seconds;
  c.seed = o.seed;
  fmt::print("stress: {} thread(s) (1 owner + {} thieves) on {} core(s), seed {}\n", o.threads,
             c.thieves, std::thread::hardware_concurrency(), c.seed);
  fmt::print("{:<24} {:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>8}  {}\n", "variant", "scenario",
             "result", "pushed", "popped", "stolen", "aborts", "seconds", "");
  int failures = 0;
  for (const auto& name : variants) {
    with_variant(name, [&](auto tag, const variant_info&) {
      for (stress::scenario s : scenarios) {
        const stress::result r = stress::run_isolated(
            [&] { return stress::run<decltype(tag)>(s, c); }, 120 + 2 * o.seconds);
        fmt::print("{:<24} {:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>8.3f}  {}\n", name,
                   stress::scenario_name(s), r.ok ? "pass" : "FAIL", r.pushed, r.popped, r.stolen,
                   r.steal_abort, r.seconds, r.failure);
        if (!r.ok) {
          ++failures;
          fmt::print(
              "  replay the same mix: stealcheck stress {} --scenario {} --threads {} {} --seed "
              "{}\n",
              name, stress::scenario_name(s), o.threads,
              o.seconds > 0 ? fmt::format("--seconds {}", o.seconds)
                            : fmt::format("--ops {}", o.ops),
              c.seed);
        }
      }
    });
  }
  fmt::print(
      "{} failure(s). Seed {} (the seed fixes the operation mix and injected delays, not the "
      "thread timing).\n",
      failures, c.seed);
  return failures == 0 ? 0 : 1;
}

}  // namespace

void add_stress_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<stress_options>();
  auto* cmd = app.add_subcommand("stress", "Native multi-threaded stress with conservation checks");
  cmd->add_option("variant", o->variant, "Variant name, or 'all' (the correct variants)")
      ->required();
  cmd->add_option("--scenario", o->scenario_name, "Scenario name or 'all'");
  cmd->add_option("--threads", o->threads, "Threads in all (1 owner + thieves), 2..64")
      ->check(CLI::Range(2, 64));
  auto* ops = cmd->add_option("--ops", o->ops, "Owner operations per scenario")
                  ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  auto* secs = cmd->add_option("--seconds", o->seconds, "Run each scenario this long instead")
                   ->check(CLI::Range(0.001, 86400.0));
  ops->excludes(secs);
  cmd->add_option("--seed", o->seed, "Seed of the operation mix and injected delays");
  cmd->callback([o, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) o->seed = default_seed();
    exit_code = run_stress(*o);
  });
}

}  // namespace stealcheck::tools
