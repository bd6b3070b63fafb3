// stealcheck lincheck <variant|all> [--mode native|model] [--scenarios N] [--runs R] [--seed S]
//                    [--reproduce STR] [--svg FILE]
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "deques/registry.hpp"
#include "stress/lin_model.hpp"
#include "stress/lin_native.hpp"
#include "tools/commands.hpp"

namespace stealcheck::tools {
namespace {

struct lincheck_args {
  std::string variant;
  std::string mode = "native";
  int scenarios = 100;
  int runs = 100;
  std::uint64_t seed = 0;
  std::string reproduce;
  std::string svg_file;
};

void report_failure(const lincheck_args& a, const std::string& name, const lincheck::outcome& out) {
  fmt::print("{:<24} FAIL  after {} passing scenarios: {}\n", name, out.scenarios, out.failure);
  if (a.mode == "model") {
    fmt::print("  the failing execution of the shrunk scenario:\n{}\n", out.timeline);
  } else {
    fmt::print("  minimal non-linearizable history (stamps are the recorder's clock):\n{}",
               out.timeline);
  }
  fmt::print("  replay: stealcheck lincheck {} --mode {} --seed {} --runs {} --reproduce '{}'\n",
             name, a.mode, a.seed, a.runs, out.reproduce);
  if (!a.svg_file.empty() && !out.svg.empty()) {
    std::ofstream(a.svg_file) << out.svg;
    fmt::print("  timeline written to {}\n", a.svg_file);
  }
}

int run_one(const lincheck_args& a, const std::string& name) {
  int rc = 0;
  with_variant(name, [&](auto tag, const variant_info& v) {
    lincheck::run_options o;
    o.scenarios = a.scenarios;
    o.runs = a.runs;
    o.seed = a.seed;
    o.reproduce = a.reproduce;
    o.batch = v.batch_steal;
    std::uint64_t count = 0;  // native: histories checked; model: executions explored
    const bool model_mode = a.mode == "model";
    o.small = model_mode;
    const lincheck::failure_finder finder =
        model_mode ? lincheck::model_finder<decltype(tag)>(model::options{}, &count)
                   : lincheck::native_finder<decltype(tag)>(o.runs, true, &count);
    const auto out = lincheck::check_generated(name, o, finder);
    if (out.error) throw usage_error(out.failure);
    if (!out.ok) {
      rc = 1;
      report_failure(a, name, out);
    } else if (model_mode) {
      fmt::print(
          "{:<24} pass  {} scenarios, each explored exhaustively under RC11: {} executions\n", name,
          out.scenarios, count);
    } else {
      fmt::print("{:<24} pass  {} scenarios x {} native runs, {} histories linearizable\n", name,
                 out.scenarios, o.runs, count);
    }
  });
  return rc;
}

int run_lincheck(const lincheck_args& a) {
  std::vector<std::string> names;
  if (a.variant == "all") {
    for_each_variant([&](auto, const variant_info& v) {
      if (!v.known_bad) names.emplace_back(v.name);
    });
  } else {
    require_variant(a.variant);
    names.push_back(a.variant);
  }
  fmt::print("lincheck --mode {}: seed {} (fixes the generated scenarios and injected delays)\n",
             a.mode, a.seed);
  int rc = 0;
  for (const auto& n : names)
    rc = std::max(rc, run_one(a, n));
  return rc;
}

}  // namespace

void add_lincheck_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<lincheck_args>();
  auto* cmd = app.add_subcommand(
      "lincheck", "Linearizability of generated concurrent scenarios (RapidCheck, shrinking)");
  cmd->add_option("variant", a->variant, "Variant name, or 'all' (the correct variants)")
      ->required();
  cmd->add_option("--mode", a->mode, "native (real threads) or model (the model checker)")
      ->check(CLI::IsMember({"native", "model"}));
  cmd->add_option("--scenarios", a->scenarios, "Generated scenarios")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--runs", a->runs, "Native runs per scenario")->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", a->seed, "RapidCheck seed (and base of the injected delays)");
  cmd->add_option("--reproduce", a->reproduce,
                  "Replay one failure: RapidCheck's reproduce=... string");
  cmd->add_option("--svg", a->svg_file, "Write the failing history's timeline as SVG");
  cmd->callback([a, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) a->seed = default_seed();
    exit_code = run_lincheck(*a);
  });
}

}  // namespace stealcheck::tools
