// stress/fuzz.cpp: `stealcheck fuzz` (see fuzz.hpp).
#include "stress/fuzz.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "harness/cli.hpp"
#include "harness/errors.hpp"
#include "harness/random.hpp"
#include "harness/registry.hpp"
#include "harness/replay.hpp"
#include "models/front/bind.hpp"
#include "models/front/history.hpp"
#include "stress/bind.hpp"

namespace stealcheck::stress::fuzz {

lincheck::scenario random_scenario(std::uint64_t seed, const sizes& z, bool batch) {
  std::uint64_t stream = seed;
  auto owner_step = [&] {
    return splitmix64_next(stream) % 3 != 0 ? lincheck::owner_step::push
                                            : lincheck::owner_step::pop;
  };
  lincheck::scenario s;
  for (int i = 0; i < z.prefix; ++i)
    s.prefix.push_back(owner_step());
  for (int i = 0; i < z.ops; ++i)
    s.owner.push_back(owner_step());
  s.thieves.resize(static_cast<std::size_t>(z.thieves));
  for (auto& steps : s.thieves)
    for (int i = 0; i < z.steals; ++i)
      steps.push_back(batch && splitmix64_next(stream) % 3 == 0 ? lincheck::thief_step::steal_batch
                                                                : lincheck::thief_step::steal);
  return s;
}

namespace {

struct fuzz_args {
  std::string variant;
  sizes z;
  std::uint64_t executions = 0;  ///< 0: --seconds, or the default budget
  double seconds = 0;
  std::uint64_t per_scenario = 100;
  std::uint64_t seed = 0;
  std::uint64_t scenario_seed = 0;  ///< --scenario-seed: that one scenario only
  bool one_scenario = false;
  std::string model = "rc11";
  std::string client;
  std::string strategy = "random";
};

constexpr std::uint64_t default_executions = 20000;

// The command that repeats a run (or, with `scenario`, that one scenario alone).
harness::command_line repeat_command(const fuzz_args& a, std::optional<std::uint64_t> scenario) {
  harness::command_line c{"fuzz", a.variant, {}};
  if (!a.client.empty()) c.opt("--client", a.client);
  if (a.client.empty()) {
    c.opt("--thieves", static_cast<std::uint64_t>(a.z.thieves))
        .opt("--ops", static_cast<std::uint64_t>(a.z.ops))
        .opt("--steals", static_cast<std::uint64_t>(a.z.steals))
        .opt("--prefix", static_cast<std::uint64_t>(a.z.prefix));
  }
  if (a.model != "rc11") c.opt("--model", a.model);
  c.opt("--per-scenario", a.per_scenario);
  if (scenario) return c.opt("--scenario-seed", *scenario);
  if (a.seconds > 0)
    c.opt("--seconds", fmt::format("{:g}", a.seconds));
  else
    c.opt("--executions", a.executions);
  return c.opt("--seed", a.seed);
}

model::memory_model model_named(const std::string& name) {
  if (name == "rc11") return model::memory_model::rc11;
  if (name == "sc") return model::memory_model::sc;
  throw harness::usage_error(fmt::format("--model: '{}' is neither rc11 nor sc", name));
}

int run_fuzz(fuzz_args a) {
  const harness::variant* v = harness::find_variant(a.variant);
  if (v == nullptr)
    throw harness::usage_error(fmt::format("unknown variant '{}' ({} list shows them)", a.variant,
                                           harness::program_name()));
  model::options opt;
  opt.model = model_named(a.model);
  if (a.strategy != "random")
    throw harness::usage_error(
        fmt::format("--strategy: '{}' is not a strategy (random)", a.strategy));
  // the body: one built-in client, or the scenario of a seed
  std::function<void(model::client&)> client_body;
  const lincheck::binding* lb = v->binding<lincheck::binding>();
  if (!a.client.empty()) {
    const model::binding* mb = v->binding<model::binding>();
    if (mb == nullptr)
      throw harness::usage_error(
          fmt::format("variant '{}' has no model-checker binding", a.variant));
    for (const auto& cl : mb->clients())
      if (cl.name == a.client) client_body = cl.run;
    if (!client_body)
      throw harness::usage_error(
          fmt::format("unknown client '{}' for variant {}", a.client, a.variant));
  } else if (lb == nullptr) {
    throw harness::usage_error(fmt::format(
        "variant '{}' has no scenario binding (fuzz it with --client NAME)", a.variant));
  }
  if (a.executions == 0 && a.seconds <= 0) a.executions = default_executions;
  if (a.one_scenario) a.executions = a.per_scenario;
  const variant_info& info = v->info();
  fmt::print("fuzz {}: strategy {}, model {}, ", a.variant, a.strategy, a.model);
  if (!a.client.empty())
    fmt::print("client {}", a.client);
  else
    fmt::print("{} thieves x {} steals, owner {} + {} operations", a.z.thieves, a.z.steals,
               a.z.prefix, a.z.ops);
  const int operations = a.z.prefix + a.z.ops + a.z.thieves * a.z.steals;
  if (a.client.empty() && operations > static_cast<int>(model::max_linearized_ops))
    fmt::print(" (more than {} operations: values judged, not their order)",
               model::max_linearized_ops);
  fmt::print(
      ", {} executions per scenario, seed {}\n  repeat: {}\n", a.per_scenario,
      a.one_scenario ? a.scenario_seed : a.seed,
      repeat_command(a, a.one_scenario ? std::optional(a.scenario_seed) : std::nullopt).str());
  std::fflush(stdout);
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double last_status = 0;
  std::uint64_t executions = 0, scenarios = 0, blocked = 0;
  std::uint64_t stream = a.seed;
  for (;;) {
    if (a.executions > 0 ? executions >= a.executions : elapsed() >= a.seconds) break;
    const std::uint64_t sseed = a.one_scenario ? a.scenario_seed : splitmix64_next(stream);
    opt.sample = {a.per_scenario, sseed};
    std::string found;
    lincheck::scenario s;
    if (!a.client.empty()) {
      const model::result r = model::explore(opt, client_body);
      executions += r.executions();
      blocked += r.blocked;
      if (r.bug)
        found = fmt::format("{}: {}\n{}  replay token: {}", model::error_name(r.bug->kind),
                            r.bug->message, r.bug->trace, r.bug->replay_token);
    } else {
      s = random_scenario(sseed, a.z, info.batch_steal);
      std::uint64_t count = 0;
      const auto f = lb->model(info.spec, opt, &count)(s, sseed);
      executions += count;
      if (f) found = f->report;
    }
    ++scenarios;
    if (!found.empty()) {
      if (terminal) std::fprintf(stderr, "\r%78s\r", "");
      fmt::print("BUG in execution {} (scenario {}, {:.2f} s)\n", executions + 1, scenarios,
                 elapsed());
      if (a.client.empty()) fmt::print("  scenario: {}\n", lincheck::describe(s));
      fmt::print("  {}\n", found);
      fmt::print("  this scenario alone: {}\n", repeat_command(a, sseed).str());
      return 1;
    }
    if (terminal && elapsed() - last_status >= 1) {
      last_status = elapsed();
      std::fprintf(stderr, "\r%llu executions, %llu scenarios, %.0f execs/s, %.0f s",
                   static_cast<unsigned long long>(executions),
                   static_cast<unsigned long long>(scenarios),
                   static_cast<double>(executions) / last_status, last_status);
    }
    if (a.one_scenario) break;
  }
  if (terminal) std::fprintf(stderr, "\r%78s\r", "");
  fmt::print(
      "no bug: {} executions of {} scenarios in {:.2f} s ({:.0f} execs/s); sampled, NOT "
      "exhaustive\n",
      executions, scenarios, elapsed(),
      static_cast<double>(executions) / std::max(elapsed(), 1e-9));
  return 0;
}

}  // namespace

void add_fuzz_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<fuzz_args>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz", "sample the executions of generated scenarios (or a client) under RC11 or SC");
  cmd->add_option("variant", a->variant, "variant (stealcheck list)")->required();
  cmd->add_option("--strategy", a->strategy, "how executions are drawn: random")
      ->capture_default_str();
  cmd->add_option("--thieves", a->z.thieves, "thief threads")
      ->check(CLI::Range(1, 15))
      ->capture_default_str();
  cmd->add_option("--ops", a->z.ops, "owner operations while the thieves run")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--steals", a->z.steals, "steals per thief")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_option("--prefix", a->z.prefix, "owner operations before the thieves start")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  auto* execs = cmd->add_option("--executions", a->executions,
                                "stop after this many executions (default 20000)")
                    ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  auto* secs = cmd->add_option("--seconds", a->seconds, "stop after this long instead")
                   ->check(CLI::Range(0.001, 1e7));
  execs->excludes(secs);
  cmd->add_option("--per-scenario", a->per_scenario, "executions drawn of each scenario")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the scenarios and of the executions drawn");
  auto* one = cmd->add_option("--scenario-seed", a->scenario_seed,
                              "run the one scenario of this seed (as a bug report names it)");
  one->excludes(execs)->excludes(secs);
  cmd->add_option("--model", a->model, "memory model: rc11 or sc")->capture_default_str();
  auto* client =
      cmd->add_option("--client", a->client, "sample this built-in client instead of scenarios");
  for (const char* size : {"--thieves", "--ops", "--steals", "--prefix"})
    client->excludes(cmd->get_option(size));
  cmd->callback([a, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) a->seed = harness::default_seed();
    a->one_scenario = cmd->count("--scenario-seed") > 0;
    exit_code = run_fuzz(*a);
  });
}

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
