// stress/cli.cpp: `stealcheck stress` and `stealcheck lincheck` (see cli.hpp).
//
// stealcheck stress <variant|all> [--threads N] [--ops N | --seconds S] [--seed S] [--scenario S]
//                   [--save-history FILE] [--memory-limit MB]
#include "stealcheck/detail/harness/cli.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"
#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/cli.hpp"
#include "stealcheck/detail/stress/history_file.hpp"
#include "stealcheck/detail/stress/isolate.hpp"
#include "stealcheck/detail/stress/lincheck.hpp"
#include "stealcheck/detail/stress/oplog.hpp"

namespace stealcheck::stress {
namespace {

struct stress_options {
  std::string variant;
  std::string scenario_name = "all";
  int threads = 4;
  std::uint64_t ops = 200000;
  double seconds = 0;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string save_history;  ///< --save-history: the first failing run's history, else the last's
  std::uint64_t memory_limit_mb = memory_ceiling_bytes >> 20;  ///< --memory-limit
};

// At most this many operations on a tape in all (48 bytes each).
constexpr std::size_t tape_operations = std::size_t{1} << 22;

// Runs one scenario; with a history file, records the run and writes its history there when
// it failed or is the last run (`last`). A run whose history cannot be written says why in its
// failure text.
result run_recorded(const binding& b, scenario_kind s, const config& c, const std::string& file,
                    bool last) {
  const auto threads = static_cast<std::uint32_t>(c.thieves + 1);
  oplog::tape t(threads, tape_operations / threads);
  oplog::record_into(&t);
  result r = b.run(s, c);
  oplog::record_into(nullptr);
  if (r.ok && !last) return r;
  std::string why;
  const auto h = oplog::history_of(t, why);
  std::ofstream f;
  if (h) f.open(file);
  if (h && f) {
    lincheck::write_history(f, *h, c.spec);
    return r;
  }
  const std::string note = "no history saved: " + (h ? fmt::format("cannot write {}", file) : why);
  r.failure = r.failure.empty() ? note : r.failure + "; " + note;
  return r;
}

std::vector<scenario_kind> pick_scenarios(const std::string& name) {
  if (name == "all") return {all_scenarios.begin(), all_scenarios.end()};
  auto s = parse_scenario(name);
  if (!s)
    throw harness::usage_error(
        fmt::format("unknown scenario '{}' (one of: mixed, spsc, stampede, last_item, resize, "
                    "no_starvation, destructors, all)",
                    name));
  return {*s};
}

int run_stress(const stress_options& o) {
  const auto variants = harness::select_variants(o.variant);
  const auto scenarios = pick_scenarios(o.scenario_name);
  config c;
  c.thieves = o.threads - 1;
  c.ops = o.ops;
  c.seconds = o.seconds;
  c.seed = o.seed;
  fmt::print("stress: {} thread(s) (1 owner + {} thieves) on {} core(s), seed {}\n", o.threads,
             c.thieves, std::thread::hardware_concurrency(), c.seed);
  fmt::print("{:<24} {:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>8}  {}\n", "variant", "scenario",
             "result", "pushed", "popped", "stolen", "aborts", "seconds", "");
  int failures = 0;
  const std::string& file = o.save_history;
  if (!file.empty()) std::remove(file.c_str());  // written by a recorded run, or not at all
  std::string saved;                             // whose history the file holds
  std::vector<std::pair<const harness::variant*, scenario_kind>> runs;
  for (const harness::variant* v : variants) {
    if (v->binding<binding>() == nullptr) continue;
    const bool scalar = v->info().values == value_support::scalar;
    for (scenario_kind s : scenarios) {
      if (scalar && needs_any_values(s)) {
        fmt::print("{:<24} {:<14} {:>6}  needs values with destructors (scalar-only variant)\n",
                   v->name(), scenario_name(s), "skip");
        continue;
      }
      runs.emplace_back(v, s);
    }
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const harness::variant* v = runs[k].first;
    const scenario_kind s = runs[k].second;
    const binding* b = v->binding<binding>();
    c.describe(v->info());
    const bool record = !file.empty() && saved.empty();
    const bool last = k + 1 == runs.size();
    const result r =
        run_isolated([&] { return record ? run_recorded(*b, s, c, file, last) : b->run(s, c); },
                     120 + 2 * o.seconds, default_stall_seconds, o.memory_limit_mb << 20);
    if (record && (!r.ok || last) && std::ifstream(file))
      saved = fmt::format("{} {} ({})", v->name(), scenario_name(s), r.ok ? "passed" : "failed");
    // a pass that went on with fresh deques says so: the deque keeps memory until destroyed
    const std::string note =
        r.ok && r.renewals > 0
            ? fmt::format(
                  "went on with a fresh deque {} time{} (each when the heap had grown "
                  "by {} MB: memory the deque keeps until it is destroyed)",
                  r.renewals, r.renewals == 1 ? "" : "s", o.memory_limit_mb / 2)
            : r.failure;
    fmt::print("{:<24} {:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>8.3f}  {}\n", v->name(),
               scenario_name(s), r.ok ? "pass" : "FAIL", r.pushed, r.popped, r.stolen,
               r.steal_abort, r.seconds, note);
    if (!r.ok) {
      ++failures;
      fmt::print("  replay the same mix: {}\n", replay_command(v->name(), s, o.threads, c).str());
    }
  }
  if (!saved.empty())
    fmt::print("history of {} written to {} (check: {} lincheck --history {})\n", saved, file,
               harness::program_name(), file);
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
  cmd->add_option("--seed", o->seed, "Seed of the operation mix and injected delays")
      ->check(harness::seed_value());
  cmd->add_option("--save-history", o->save_history,
                  "Record the runs (a stamp before and after each operation) and write the "
                  "first failing run's history, else the last run's, to this file")
      ->check(harness::output_file());
  cmd->add_option("--memory-limit", o->memory_limit_mb,
                  "Stop a run whose deque grew by more than this many MB resident (the harness's "
                  "own memory not counted)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->capture_default_str();
  cmd->callback([o, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) o->seed = harness::default_seed();
    exit_code = run_stress(*o);
  });
}

}  // namespace stealcheck::stress

namespace stealcheck::stress::lincheck {
namespace {

struct lincheck_args {
  std::string variant;
  std::string mode = "native";
  int scenarios = 100;
  int runs = 100;
  std::uint64_t seed = 0;
  std::string reproduce;
  std::string svg_file;
  std::string history_file;  ///< --history: check this file instead of generating scenarios
  std::string save_history;  ///< --save-history: write a native failure's history here
  std::string spec_name;     ///< --spec: a spec kind or a registered variant's name
};

// --spec NAME: a spec kind, or the spec a registered variant declares.
spec::spec_kind spec_named(const std::string& name) {
  if (const auto kind = spec_by_name(name)) return *kind;
  if (const harness::variant* v = harness::find_variant(name)) return v->info().spec;
  throw harness::usage_error(fmt::format(
      "unknown spec '{}' (lifo_owner, fifo_owner, unordered, at_least_once, or a variant's name: "
      "stealcheck list)",
      name));
}

// --history FILE: one history from a file, decided; exit 0 linearizable, 1 not.
int check_history_file(const lincheck_args& a) {
  std::ifstream f(a.history_file);
  if (!f) throw harness::usage_error(fmt::format("cannot read {}", a.history_file));
  const history_file file = read_history(f, a.history_file);
  if (file.ops.empty())
    throw harness::usage_error(fmt::format("{}: no operations", a.history_file));
  const spec::spec_kind kind = !a.spec_name.empty()
                                   ? spec_named(a.spec_name)
                                   : file.spec.value_or(spec::spec_kind::lifo_owner);
  std::set<std::uint32_t> threads;
  for (const operation& op : file.ops)
    threads.insert(op.thread);
  fmt::print("{}: {} operations on {} threads, spec {}\n", a.history_file, file.ops.size(),
             threads.size(), spec::spec_name(kind));
  const check_result r = check(file.ops, kind);
  if (r.linearizable) {
    std::vector<std::string> order;
    for (std::size_t i = 0; i < r.order.size() && i < 12; ++i)
      order.push_back(describe(file.ops[r.order[i]]));
    fmt::print("linearizable ({}); a witness order: {}{}\n",
               r.direct ? "decided directly" : fmt::format("{} states explored", r.states_explored),
               fmt::join(order, ", "),
               r.order.size() > 12 ? fmt::format(", ... ({} more)", r.order.size() - 12) : "");
    return 0;
  }
  const history m = minimize(file.ops, kind);
  if (m.size() == file.ops.size() && m.size() > 5000)
    fmt::print("not linearizable ({} operations, more than the 5,000 the minimizer takes)\n",
               m.size());
  else
    fmt::print("not linearizable ({} operations after minimizing, of {})\n", m.size(),
               file.ops.size());
  if (m.size() > 5000 && r.direct)  // the search behind spec_step() is the slow path here
    fmt::print("  proof: {}\n", r.proof);
  else
    fmt::print("  spec: {}\n", spec_step(m, kind));
  constexpr std::size_t printed_ops = 200;  // a timeline longer than this is left to --svg
  if (m.size() <= printed_ops)
    fmt::print("  minimal non-linearizable history (stamps as in the file):\n{}", timeline_text(m));
  else
    fmt::print("  its timeline is too long to print ({} operations): --svg draws it\n", m.size());
  if (!a.svg_file.empty()) {
    std::ofstream(a.svg_file) << timeline_svg(m, a.history_file);
    fmt::print("  timeline written to {}\n", a.svg_file);
  }
  return 1;
}

void report_failure(const lincheck_args& a, const run_options& o, const std::string& name,
                    const outcome& out) {
  if (out.kind == verdict::crashed) {  // no verdict from the child: the line names what happened
    fmt::print("{:<24} FAIL  {}\n", name, out.failure);
  } else {
    fmt::print("{:<24} FAIL  after {} passing scenarios: {}\n", name, out.scenarios, out.failure);
  }
  if (out.kind == verdict::model_bug) {
    fmt::print("  the failing execution of the shrunk scenario:\n{}\n", out.timeline);
  } else if (out.kind == verdict::not_linearizable) {
    fmt::print("  minimal non-linearizable history (stamps are the recorder's clock):\n{}",
               out.timeline);
  }
  fmt::print("  replay: {}\n", replay_command(name, a.mode, o, out.reproduce).str());
  if (!a.svg_file.empty() && !out.svg.empty()) {
    std::ofstream(a.svg_file) << out.svg;
    fmt::print("  timeline written to {}\n", a.svg_file);
  }
  if (!a.save_history.empty() && !out.history_file.empty()) {
    std::ofstream f(a.save_history);
    f << out.history_file;
    if (!f) throw harness::usage_error(fmt::format("cannot write {}", a.save_history));
    fmt::print("  history written to {} (recheck: {} lincheck --history {})\n", a.save_history,
               harness::program_name(), a.save_history);
  }
}

int run_one(const lincheck_args& a, const harness::variant& v) {
  const binding* b = v.binding<binding>();
  if (b == nullptr) return 0;
  const std::string name(v.name());
  run_options o;
  o.scenarios = a.scenarios;
  o.runs = a.runs;
  o.seed = a.seed;
  o.reproduce = a.reproduce;
  o.batch = v.info().batch_steal;
  o.spec = v.info().spec;
  std::uint64_t count = 0;  // native: histories checked; model: executions explored
  const bool model_mode = a.mode == "model";
  o.small = model_mode;
  o.replay_rounds = model_mode ? 1 : native_replay_rounds;
  const failure_finder finder = model_mode
                                    ? b->model(o.spec, v.info().capacity, model::options{}, &count)
                                    : b->native(o.spec, o.runs, true, &count);
  const auto out = model_mode ? check_generated(name, o, finder)
                              : check_generated_isolated(name, o, finder, &count, 300 + a.runs,
                                                         stress::default_stall_seconds);
  switch (out.kind) {
    case verdict::error:
      throw harness::usage_error(out.failure);
    case verdict::not_linearizable:
    case verdict::model_bug:
    case verdict::operation_threw:
    case verdict::crashed:
      report_failure(a, o, name, out);
      return 1;
    case verdict::reproduce_passes:
      fmt::print("{:<24} pass  the scenario of --reproduce now passes ({} {})\n", name, count,
                 model_mode ? "executions explored under RC11" : "histories linearizable");
      return 0;
    case verdict::linearizable:
      break;
  }
  if (model_mode) {
    fmt::print("{:<24} pass  {} scenarios, each explored exhaustively under RC11: {} executions\n",
               name, out.scenarios, count);
  } else {
    fmt::print("{:<24} pass  {} scenarios x {} native runs, {} histories linearizable\n", name,
               out.scenarios, o.runs, count);
  }
  return 0;
}

int run_lincheck(const lincheck_args& a) {
  if (!a.history_file.empty()) return check_history_file(a);
  if (a.variant.empty())
    throw harness::usage_error("lincheck needs a variant (or 'all'), or --history FILE");
  const auto variants = harness::select_variants(a.variant);
  fmt::print("lincheck --mode {}: seed {} (fixes the generated scenarios and injected delays)\n",
             a.mode, a.seed);
  int rc = 0;
  for (const harness::variant* v : variants)
    rc = std::max(rc, run_one(a, *v));
  return rc;
}

}  // namespace

void add_lincheck_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<lincheck_args>();
  auto* cmd = app.add_subcommand(
      "lincheck", "Linearizability of generated concurrent scenarios (RapidCheck, shrinking)");
  cmd->add_option("variant", a->variant,
                  "Variant name, or 'all' (the correct variants); not with --history");
  cmd->add_option("--mode", a->mode, "native (real threads) or model (the model checker)")
      ->check(CLI::IsMember({"native", "model"}));
  cmd->add_option("--scenarios", a->scenarios, "Generated scenarios")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--runs", a->runs, "Native runs per scenario")->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", a->seed, "RapidCheck seed (and base of the injected delays)")
      ->check(harness::seed_value());
  cmd->add_option("--reproduce", a->reproduce,
                  "Replay one failure: RapidCheck's reproduce=... string");
  cmd->add_option("--svg", a->svg_file, "Write the failing history's timeline as SVG")
      ->check(harness::output_file());
  cmd->add_option("--history", a->history_file,
                  "Check one recorded history from FILE (JSON Lines, docs/history-format.md): "
                  "exit 0 linearizable, 1 not, 2 a bad file");
  cmd->add_option("--save-history", a->save_history,
                  "Write the minimized history of a native failure to FILE (the --history "
                  "format), to recheck or share it")
      ->check(harness::output_file());
  cmd->add_option("--spec", a->spec_name,
                  "With --history: lifo_owner, fifo_owner, unordered, at_least_once, or a "
                  "variant's name (default: the file's header, else lifo_owner)");
  cmd->callback([a, &exit_code, cmd] {
    if (cmd->count("--seed") == 0) a->seed = harness::default_seed();
    exit_code = run_lincheck(*a);
  });
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
