// stress/fuzz.cpp: `stealcheck fuzz` (see fuzz.hpp).
#include "stealcheck/detail/stress/fuzz.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/models/front/history.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/fuzz_campaign.hpp"
#include "stealcheck/detail/stress/fuzz_report.hpp"
#include "stealcheck/detail/stress/greybox.hpp"
#include "stealcheck/detail/stress/lin_model.hpp"

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
  if (steals_from_thieves(z, batch)) {
    std::uint64_t cross = seed ^ 0x7468696576657321ULL;  // "thieves!"
    const std::uint64_t n = s.thieves.size();
    for (std::size_t i = 0; i < n; ++i)
      for (lincheck::thief_step& t : s.thieves[i])
        if (t == lincheck::thief_step::steal && splitmix64_next(cross) % 4 == 0)
          t = lincheck::thief_step::steal_from((i + 1 + splitmix64_next(cross) % (n - 1)) % n + 1);
    lincheck::repair_thief_steps(s);
  }
  return s;
}

namespace {

constexpr std::uint64_t default_executions = 20000;

int run_fuzz(fuzz_args a) {
  const harness::variant* v = harness::find_variant(a.variant);
  if (v == nullptr)
    throw harness::usage_error(fmt::format("unknown variant '{}' ({} list shows them)", a.variant,
                                           harness::program_name()));
  const model::memory_model mm = model_named(a.model);
  a.overrides =
      checked_options(a.site_texts, a.z.steal_from_thieves.value_or(false), v->info(), a.variant);
  (void)sampler_for(a.strategy, 0);  // an unknown strategy is bad input before any work
  if (!a.corpus_dir.empty() && a.strategy != "greybox")
    throw harness::usage_error(
        "--corpus keeps the entries of a greybox campaign (--strategy greybox)");
  if (!a.corpus_dir.empty() && (!a.client.empty() || !a.scenario_text.empty() || a.one_scenario))
    throw harness::usage_error(
        "--corpus mutates generated scenarios: not with --client or one scenario");
  if (a.exhaustive && a.scenario_text.empty())
    throw harness::usage_error("--exhaustive explores the scenario that --scenario gives");
  std::optional<lincheck::scenario> given;
  if (!a.scenario_text.empty()) {
    std::string error;
    given = lincheck::parse_scenario(a.scenario_text, error);
    if (!given) throw harness::usage_error("--scenario: " + error);
    if (given->thieves.size() + 1 > model::max_threads)
      throw harness::usage_error(fmt::format("--scenario: {} thieves (the model runs at most {})",
                                             given->thieves.size(), model::max_threads - 1));
    a.one_scenario = true;
    if (a.scenario_seed == 0) a.scenario_seed = a.seed;
  }
  // the body: one built-in client, or the scenario of a seed
  const model::binding* mb = v->binding<model::binding>();
  const std::vector<model::clients::client_entry> clients =
      mb != nullptr ? mb->clients() : std::vector<model::clients::client_entry>{};
  const model::clients::client_entry* named = nullptr;  // --client
  const lincheck::binding* lb = v->binding<lincheck::binding>();
  if (!a.client.empty()) {
    if (mb == nullptr)
      throw harness::usage_error(
          fmt::format("variant '{}' has no model-checker binding", a.variant));
    for (const auto& cl : clients)
      if (cl.name == a.client) named = &cl;
    if (named == nullptr)
      throw harness::usage_error(
          fmt::format("unknown client '{}' for variant {}", a.client, a.variant));
  } else if (lb == nullptr) {
    throw harness::usage_error(fmt::format(
        "variant '{}' has no scenario binding (fuzz it with --client NAME)", a.variant));
  }
  if (a.executions == 0 && a.seconds <= 0) a.executions = default_executions;
  if (a.one_scenario) a.executions = a.per_scenario;
  std::ofstream json_out;
  if (!a.json_file.empty()) {  // opened first: an unwritable file is bad input before any work
    json_out.open(a.json_file);
    if (!json_out)
      throw harness::usage_error(fmt::format("cannot write JSON file '{}'", a.json_file));
  }
  const variant_info& info = v->info();
  fmt::print("fuzz {}: strategy {}, model {}, ", a.variant,
             a.exhaustive ? "exhaustive" : a.strategy, a.model);
  if (!a.client.empty())
    fmt::print("client {}", a.client);
  else if (given)
    fmt::print("the scenario given ({} steps)", steps(*given));
  else
    fmt::print("{} thieves x {} steals{}, owner {} + {} operations", a.z.thieves, a.z.steals,
               steals_from_thieves(a.z, info.batch_steal) ? " (steal@N too)" : "", a.z.prefix,
               a.z.ops);
  if (a.client.empty() && (a.z.capacity > 0 || info.capacity > 0))
    fmt::print(", capacity {}", a.z.capacity > 0 ? a.z.capacity : info.capacity);
  const std::size_t operations =
      given ? steps(*given)
            : static_cast<std::size_t>(a.z.prefix + a.z.ops + a.z.thieves * a.z.steals);
  if (a.client.empty() && operations > model::max_linearized_ops)
    fmt::print(" (more than {} operations: values judged, not their order)",
               model::max_linearized_ops);
  if (!a.exhaustive)
    fmt::print(", {} executions per scenario, seed {}", a.per_scenario,
               a.one_scenario ? a.scenario_seed : a.seed);
  // the command that repeats this run (printed now, and in --json)
  const std::string run_repeat =
      repeat_command(a, a.one_scenario ? std::optional(a.scenario_seed) : std::nullopt,
                     a.scenario_text, a.exhaustive)
          .str();
  fmt::print("\n  repeat: {}\n", run_repeat);
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const std::optional<scenario_runner> run =
      lb != nullptr ? std::optional<scenario_runner>(std::in_place, *lb, info, mm, a.strategy,
                                                     a.z.capacity, a.overrides)
                    : std::nullopt;
  campaign rounds(a, info.batch_steal, clients);
  std::atomic<std::uint64_t> executions{0}, scenarios{0}, with_bug{0};
  // On a terminal: the executions drawn (of --executions, or against --seconds), the rate, the
  // scenarios and, under greybox, the coverage and the corpus.
  harness::status_line progress("fuzz", "executions", a.executions);
  if (a.executions == 0) progress.deadline(a.seconds);
  double last_label = 0;
  nlohmann::json bug;  // null: none
  // --json: the run, its counts and its bug (null when none)
  auto finish = [&](int code) {
    if (!json_out.is_open()) return code;
    nlohmann::json j{{"stealcheck_version", harness::version()},
                     {"variant", a.variant},
                     {"strategy", a.exhaustive ? "exhaustive" : a.strategy},
                     {"model", a.model},
                     {"seed", a.one_scenario ? a.scenario_seed : a.seed},
                     {"jobs", a.jobs},
                     {"per_scenario", a.per_scenario},
                     {"executions", executions.load()},
                     {"scenarios", scenarios.load()},
                     {"events", rounds.events()},
                     {"seconds", elapsed()},
                     {"exhaustive", a.exhaustive && code == 0 && executions < exhaustive_cap},
                     {"repeat", run_repeat},
                     {"bug", bug}};
    if (a.keep_going) j["scenarios_with_bug"] = with_bug.load();
    if (rounds.greybox()) {
      j["coverage"] = rounds.coverage_size();
      j["corpus"] = rounds.corpus_size();
    }
    if (!a.client.empty())
      j["client"] = a.client;
    else if (given)
      j["scenario"] = a.scenario_text;
    else
      j["sizes"] = {{"thieves", a.z.thieves},
                    {"ops", a.z.ops},
                    {"steals", a.z.steals},
                    {"prefix", a.z.prefix},
                    {"steal_from_thieves", steals_from_thieves(a.z, info.batch_steal)}};
    json_out << j.dump(2) << "\n";
    return code;
  };
  auto status = [&] {  // the label, at most four times a second (the counts are atomic)
    progress.done(executions.load());
    if (!progress.on() || elapsed() - last_label < 0.25) return;
    last_label = elapsed();
    std::string text = fmt::format("{}, {} scenarios", a.variant, scenarios.load());
    if (rounds.greybox())
      text += fmt::format(", coverage {}, corpus {}", rounds.coverage_size(), rounds.corpus_size());
    progress.label(std::move(text));
  };
  // The first bug a job found, and where.
  struct found_bug {
    std::string report;
    lincheck::scenario s;
    const model::clients::client_entry* client = nullptr;  ///< a built-in client's round
    std::uint64_t seed = 0, execution = 0, scenario = 0;
    double seconds = 0;
  };
  std::optional<found_bug> first;
  std::mutex first_mutex;
  std::atomic<bool> stop{false};
  std::uint64_t client_stream = a.seed;  // --client: the seeds of its draws
  std::mutex client_mutex;
  auto job = [&] {
    while (!stop) {
      if (a.executions > 0 ? executions >= a.executions : elapsed() >= a.seconds) break;
      drawn_bug found;
      lincheck::scenario s;
      const model::clients::client_entry* client = nullptr;
      std::uint64_t sseed = a.scenario_seed, count = 0;
      if (!a.client.empty()) {
        if (!a.one_scenario) {
          const std::lock_guard<std::mutex> lock(client_mutex);
          sseed = splitmix64_next(client_stream);
        }
        found =
            sample_client(named->run, mm, a.overrides, a.strategy, a.per_scenario, sseed, count);
      } else if (a.one_scenario) {
        s = given ? *given : random_scenario(sseed, a.z, info.batch_steal);
        found = run->failure(s, a.exhaustive ? 0 : a.per_scenario, sseed, count);
      } else {
        round r = rounds.next();
        found = rounds.run(*run, r, count);
        s = std::move(r.s);
        sseed = r.seed;
        client = r.client;
      }
      const std::uint64_t before = executions.fetch_add(count);
      const std::uint64_t round = ++scenarios;
      if (!found.empty()) {
        const std::lock_guard<std::mutex> lock(first_mutex);
        ++with_bug;
        if (!first)
          first = found_bug{std::move(found.report), s,     client,   sseed,
                            before + count + 1,      round, elapsed()};
        if (!a.keep_going) stop = true;
      }
      if (a.jobs == 1) status();
      if (a.one_scenario) break;
    }
  };
  if (a.jobs <= 1 || a.one_scenario) {
    job();
  } else {
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < a.jobs; ++j)
      threads.emplace_back(job);
    std::atomic<unsigned> done{0};
    std::thread waiter([&] {
      for (auto& t : threads)
        t.join();
      done = 1;
    });
    while (done == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      status();
    }
    waiter.join();
  }
  if (first) {
    progress.stop();
    if (a.keep_going)
      fmt::print("bugs in {} of {} scenarios ({:.1f} %), {} executions in {:.2f} s; the first:\n",
                 with_bug.load(), scenarios.load(),
                 100.0 * static_cast<double>(with_bug.load()) /
                     static_cast<double>(std::max<std::uint64_t>(1, scenarios.load())),
                 executions.load(), elapsed());
    fmt::print("BUG in execution {} (scenario {}, {:.2f} s)\n", first->execution, first->scenario,
               first->seconds);
    if (const auto* cl = named != nullptr ? named : first->client) {
      const fuzz_args c = named != nullptr ? a : client_round_args(a, *cl);
      if (named == nullptr) fmt::print("  client: {} (a built-in client, sampled)\n", c.client);
      const bool repeated = client_bug_repeats(*cl, c, mm, first->seed);
      if (!repeated) {
        fmt::print("  {}\n", not_repeated_note);
      } else if (!cl->large) {  // the first failing execution in the client's tree, as scenarios do
        model::options opt;
        opt.model = mm;
        opt.sites = a.overrides;
        opt.max_executions = exhaustive_cap;
        const model::result r = model::explore(opt, cl->run);
        if (r.bug)
          first->report = fmt::format(
              "explored exhaustively: the first failing execution, after {} others\n  {}",
              r.executions() - 1, lincheck::bug_text(*r.bug));
      }
      const std::string repeat = repeat_command(c, first->seed).str();
      fmt::print("  {}\n  repeat this bug: {}\n", first->report, repeat);
      bug = {{"client", c.client},
             {"scenario_seed", first->seed},
             {"repeated", repeated},
             {"report", first->report},
             {"repeat", repeat}};
    } else {
      bug = report_bug(a, *run, first->s, first->seed, std::move(first->report));
    }
    return finish(1);
  }
  progress.stop();
  if (a.exhaustive) {
    fmt::print("no bug: {} executions, {}\n", executions.load(),
               executions >= exhaustive_cap ? "stopped at the cap: NOT exhaustive" : "every one");
    return finish(0);
  }
  fmt::print("no bug: {} executions of {} scenarios in {:.2f} s ({:.0f} execs/s", executions.load(),
             scenarios.load(), elapsed(),
             static_cast<double>(executions.load()) / std::max(elapsed(), 1e-9));
  if (rounds.events() > 0)
    fmt::print(", {:.0f} events/s",
               static_cast<double>(rounds.events()) / std::max(elapsed(), 1e-9));
  fmt::print(")");
  if (rounds.greybox() && !a.one_scenario && a.client.empty())
    fmt::print(", coverage {} tuples, corpus {}", rounds.coverage_size(), rounds.corpus_size());
  fmt::print("; sampled, NOT exhaustive\n");
  return finish(0);
}

// The conformance unit's budget: STEALCHECK_FUZZ_EXECUTIONS, else 2,000 times the scale.
std::uint64_t unit_executions(const harness::verify_options& o) {
  if (const auto n = harness::env_number("STEALCHECK_FUZZ_EXECUTIONS")) {
    if (*n == 0)
      throw harness::usage_error("STEALCHECK_FUZZ_EXECUTIONS='0' is not a positive number");
    return *n;
  }
  return std::max<std::uint64_t>(100, 2000 * static_cast<std::uint64_t>(o.scale) / 100);
}

}  // namespace

void add_fuzz_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<fuzz_args>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz", "sample the executions of generated scenarios (or a client) under RC11 or SC");
  cmd->add_option("variant", a->variant, "variant (stealcheck list)")->required();
  cmd->add_option("--strategy", a->strategy,
                  "how scenarios and executions are drawn: greybox, random, pct, tree")
      ->capture_default_str();
  cmd->add_option("--thieves", a->z.thieves, "thief threads (the model runs at most 8 threads)")
      ->check(CLI::Range(1, static_cast<int>(model::max_threads) - 1))
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
  cmd->add_flag_function(
      "--steal-from-thieves,!--no-steal-from-thieves",
      [a](std::int64_t n) { a->z.steal_from_thieves = n > 0; },
      "thieves also steal from each other's own deques: steal@N steps (default: on for a "
      "batch-stealing variant)");
  cmd->add_option("--site", a->site_texts,
                  "override a memory-order site: NAME=ORDER (a mutant, as `model --site`)");
  cmd->add_option("--capacity", a->z.capacity,
                  "the deque's initial capacity (default: the variant's, else 4)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  auto* execs = cmd->add_option("--executions", a->executions,
                                "stop after this many executions (default 20000)")
                    ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  auto* secs = cmd->add_option("--seconds", a->seconds, "stop after this long instead")
                   ->check(CLI::Range(0.001, 1e7));
  execs->excludes(secs);
  cmd->add_option("--per-scenario", a->per_scenario, "executions drawn of each scenario")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the scenarios and of the executions drawn")
      ->check(harness::seed_value());
  auto* one = cmd->add_option("--scenario-seed", a->scenario_seed,
                              "run the one scenario of this seed (as a bug report names it)");
  one->excludes(execs)->excludes(secs);
  auto* text = cmd->add_option("--scenario", a->scenario_text,
                               "run this scenario (as a bug report writes it) instead");
  text->excludes(execs)->excludes(secs);
  cmd->add_flag("--exhaustive", a->exhaustive,
                "explore every execution of --scenario's scenario (at most 10^6)");
  cmd->add_flag("!--no-minimize", a->minimize, "report a bug's scenario as found, not minimized");
  cmd->add_flag("--keep-going", a->keep_going,
                "go on after a bug to the end of the budget and count the scenarios with one (with "
                "--per-scenario 1: the share of single executions that show a bug)");
  cmd->add_flag("!--no-clients", a->clients,
                "sample generated scenarios only (by default every 2nd round samples one of the "
                "built-in clients)");
  cmd->add_option("--model", a->model, "memory model: rc11 or sc")->capture_default_str();
  cmd->add_option("--json", a->json_file, "write the run, its counts and its bug as JSON")
      ->check(harness::output_file());
  cmd->add_option("--jobs", a->jobs,
                  "campaign threads, sharing the seed stream, coverage and corpus (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--corpus", a->corpus_dir,
                  "greybox: read the corpus from this directory and write new entries to it");
  auto* client =
      cmd->add_option("--client", a->client, "sample this built-in client instead of scenarios");
  for (const char* size : {"--thieves", "--ops", "--steals", "--prefix", "--steal-from-thieves"}) {
    client->excludes(cmd->get_option(size));
    text->excludes(cmd->get_option(size));
  }
  client->excludes(text);
  client->excludes(cmd->get_option("--capacity"));
  cmd->callback([a, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) a->seed = harness::default_seed();
    a->one_scenario = cmd->count("--scenario-seed") > 0;
    exit_code = run_fuzz(*a);
  });
}

harness::checker checker() {
  harness::checker c;
  c.name = "fuzz";
  c.units = [](const harness::variant& v) {
    std::vector<harness::check_unit> units;
    const lincheck::binding* b = v.binding<lincheck::binding>();
    if (b == nullptr || !runs_model(v.info().backends)) return units;
    const std::string variant(v.name());
    const variant_info info = v.info();
    const model::binding* mb = v.binding<model::binding>();
    std::vector<model::clients::client_entry> clients =
        mb != nullptr ? mb->clients() : std::vector<model::clients::client_entry>{};
    units.push_back(
        {"rc11", [variant, b, info, clients](const harness::verify_options& o) {
           harness::check_cell cell;
           const auto t0 = std::chrono::steady_clock::now();
           fuzz_args a;
           a.variant = variant;
           a.seed = o.seed;
           a.executions = unit_executions(o);
           const scenario_runner run(*b, info, model::memory_model::rc11, a.strategy);
           campaign rounds(a, info.batch_steal, clients);
           std::uint64_t executions = 0, scenarios = 0;
           while (executions < a.executions) {
             const round r = rounds.next();
             drawn_bug found = rounds.run(run, r, executions);
             ++scenarios;
             if (found.empty()) continue;
             cell.verdict = harness::cell_verdict::fail;
             if (r.client != nullptr) {
               const fuzz_args with = client_round_args(a, *r.client);
               const bool repeated =
                   client_bug_repeats(*r.client, with, model::memory_model::rc11, r.seed);
               cell.failure =
                   fmt::format("in execution {} of scenario {}, client {}:\n{}{}", executions,
                               scenarios, with.client,
                               repeated ? "" : std::string(not_repeated_note) + "\n", found.report);
               cell.kind = found.kind;
               cell.replay = repeat_command(with, r.seed);
               break;
             }
             const lincheck::scenario& s = r.s;
             const std::uint64_t seed = r.seed;
             const shrunk_bug bug = shrink(run, s, seed, a.per_scenario, true, std::move(found));
             cell.kind = bug.kind;
             cell.failure = fmt::format(
                 "in execution {} of scenario {}, {} {}:\n{}{}", executions + 1, scenarios,
                 bug.repeated ? "minimized to" : "scenario", lincheck::describe(bug.scenario),
                 bug.repeated ? "" : std::string(not_repeated_note) + "\n", bug.report);
             cell.replay =
                 repeat_command(a, seed, lincheck::describe(bug.scenario), bug.exhaustive);
             break;
           }
           if (cell.verdict != harness::cell_verdict::fail)
             cell.verdict = harness::cell_verdict::pass;
           cell.counts = {{"fuzz_execs", executions}, {"fuzz_scenarios", scenarios}};
           cell.seconds =
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
           return cell;
         }});
    return units;
  };
  c.cell_width = 38;  // "pass (2000 execs, 20 scenarios, 0.2s)"
  c.summarize = [](std::size_t, const std::map<std::string, std::uint64_t>& k) {
    return fmt::format("{} execs, {} scenarios", k.count("fuzz_execs") ? k.at("fuzz_execs") : 0,
                       k.count("fuzz_scenarios") ? k.at("fuzz_scenarios") : 0);
  };
  return c;
}

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
