// stress/fuzz_report.cpp: a fuzz run's bug, minimized, explored and reported (fuzz_report.hpp).
#include "stealcheck/detail/stress/fuzz_report.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "stealcheck/detail/stress/lin_model.hpp"

namespace stealcheck::stress::fuzz {

namespace {

// A minimized scenario of at most this many steps is explored exhaustively (at most
// exhaustive_cap executions) for the report of the first failing execution in the tree.
constexpr std::size_t exhaustive_steps = 12;
// Minimizing: at most max_checks smaller scenarios tried, each drawn as the failing one was
// (the per-scenario count, from its seed), so the minimized bug repeats from the same seed.
constexpr int max_checks = 400;

}  // namespace

// The command that repeats a run; with `scenario` set, that one generated scenario; with `text`,
// a scenario written out (sampled from `scenario`'s seed, or with `exhaustive` all of it).
harness::command_line repeat_command(const fuzz_args& a, std::optional<std::uint64_t> scenario,
                                     const std::string& text, bool exhaustive) {
  harness::command_line c{"fuzz", a.variant, {}};
  if (!a.client.empty()) c.opt("--client", a.client);
  if (a.client.empty() && text.empty()) {
    c.opt("--thieves", static_cast<std::uint64_t>(a.z.thieves))
        .opt("--ops", static_cast<std::uint64_t>(a.z.ops))
        .opt("--steals", static_cast<std::uint64_t>(a.z.steals))
        .opt("--prefix", static_cast<std::uint64_t>(a.z.prefix));
    if (!a.z.steal_from_thieves.value_or(true)) c.opt("--no-steal-from-thieves");
  }
  if (!text.empty()) c.opt("--scenario", text);
  if (a.z.capacity > 0) c.opt("--capacity", static_cast<std::uint64_t>(a.z.capacity));
  for (const std::string& s : a.site_texts)
    c.opt("--site", s);
  if (a.model != "rc11") c.opt("--model", a.model);
  if (!a.clients && a.client.empty() && text.empty() && !scenario) c.opt("--no-clients");
  if (exhaustive) return c.opt("--exhaustive");
  if (a.strategy != "greybox") c.opt("--strategy", a.strategy);
  c.opt("--per-scenario", a.per_scenario);
  if (scenario) return c.opt("--scenario-seed", *scenario);
  if (a.jobs > 1) c.opt("--jobs", static_cast<std::uint64_t>(a.jobs));
  if (a.seconds > 0)
    c.opt("--seconds", fmt::format("{:g}", a.seconds));
  else
    c.opt("--executions", a.executions);
  return c.opt("--seed", a.seed);
}

// Fewer thieves, owner operations and steals while the bug is still drawn (each candidate
// `draws` times from `seed`): greedy, one step at a time, until no single step can go.
namespace {

lincheck::scenario minimize(const scenario_runner& run, lincheck::scenario s, std::uint64_t draws,
                            std::uint64_t seed, int& checks) {
  std::uint64_t ignored = 0;
  auto fails = [&](const lincheck::scenario& c) {
    ++checks;
    return !run.failure(c, draws, seed, ignored).empty();
  };
  for (bool changed = true; changed && checks < max_checks;) {
    changed = false;
    auto keep_if_fails = [&](lincheck::scenario c) {
      lincheck::repair_thief_steps(c);  // a thief's only batch gone: steals from it are steals
      if (c == s || checks >= max_checks || !fails(c)) return;
      s = std::move(c);
      changed = true;
    };
    for (std::size_t t = s.thieves.size(); t-- > 0 && s.thieves.size() > 1;) {
      lincheck::scenario c = s;
      lincheck::remove_thief(c, t);
      keep_if_fails(std::move(c));
    }
    for (auto part : {&lincheck::scenario::owner, &lincheck::scenario::prefix})
      for (std::size_t i = (s.*part).size(); i-- > 0;) {
        lincheck::scenario c = s;
        (c.*part).erase((c.*part).begin() + static_cast<std::ptrdiff_t>(i));
        keep_if_fails(std::move(c));
      }
    for (std::size_t t = 0; t < s.thieves.size(); ++t)
      for (std::size_t i = s.thieves[t].size(); i-- > 1;) {
        lincheck::scenario c = s;
        c.thieves[t].erase(c.thieves[t].begin() + static_cast<std::ptrdiff_t>(i));
        keep_if_fails(std::move(c));
      }
  }
  return s;
}

}  // namespace

// Draws scenario s again from `seed` (per_scenario executions): when the bug does not come
// back, the failure as found is kept and marked not repeated. Otherwise minimizes it (unless
// not `minimize`) and explores the result exhaustively when it has at most exhaustive_steps
// steps.
shrunk_bug shrink(const scenario_runner& run, const lincheck::scenario& s, std::uint64_t seed,
                  std::uint64_t per_scenario, bool minimize_it, drawn_bug found) {
  shrunk_bug out{s, std::move(found.report), found.kind};
  std::uint64_t ignored = 0;
  drawn_bug again = run.failure(s, per_scenario, seed, ignored);
  if (again.empty()) {
    out.repeated = false;
    return out;
  }
  if (minimize_it) {
    out.scenario = minimize(run, s, per_scenario, seed, out.checks);
    if (out.scenario != s) again = run.failure(out.scenario, per_scenario, seed, ignored);
    if (again.empty()) {  // the minimized scenario failed in minimize() but not now
      out.scenario = s;
      out.repeated = false;
      return out;
    }
  }
  out.report = std::move(again.report);
  out.kind = again.kind;
  if (steps(out.scenario) <= exhaustive_steps) {
    std::uint64_t count = 0;
    const drawn_bug first = run.failure(out.scenario, 0, 0, count);
    if (!first.empty()) {
      out.report = fmt::format(
          "explored exhaustively: the first failing execution, after {} "
          "others\n  {}",
          count, first.report);
      out.kind = first.kind;
      out.exhaustive = true;
    }
  }
  return out;
}

bool client_bug_repeats(const model::clients::client_entry& c, const fuzz_args& with,
                        model::memory_model m, std::uint64_t seed) {
  std::uint64_t ignored = 0;
  return !sample_client(c.run, m, with.overrides, with.strategy, with.per_scenario, seed, ignored)
              .empty();
}

// A bug found in scenario s (drawn from `seed`): minimized, explored exhaustively when small,
// reported with the command that repeats it.
// Returns the bug as --json writes it.
nlohmann::json report_bug(const fuzz_args& a, const scenario_runner& run,
                          const lincheck::scenario& s, std::uint64_t seed, std::string found) {
  fmt::print("  scenario: {}\n", lincheck::describe(s));
  shrunk_bug b{s, std::move(found), std::nullopt, a.exhaustive};
  if (!a.exhaustive) {
    b = shrink(run, s, seed, a.per_scenario, a.minimize, drawn_bug{std::move(b.report), {}});
    if (a.minimize && b.repeated)
      fmt::print("  minimized to {} of {} steps ({} smaller scenarios tried): {}\n",
                 steps(b.scenario), steps(s), b.checks, lincheck::describe(b.scenario));
  }
  const std::string repeat =
      repeat_command(a, seed, lincheck::describe(b.scenario), b.exhaustive).str();
  if (!b.repeated) fmt::print("  {}\n", not_repeated_note);
  fmt::print("  {}\n  repeat this bug: {}\n", b.report, repeat);
  return {{"scenario", lincheck::describe(s)},
          {"scenario_seed", seed},
          {"minimized", lincheck::describe(b.scenario)},
          {"repeated", b.repeated},
          {"exhaustive", b.exhaustive},
          {"report", b.report},
          {"repeat", repeat}};
}

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
