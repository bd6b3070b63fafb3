// stress/certify.cpp: `stealcheck certify` (certify.hpp).
#include "stealcheck/detail/stress/certify.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"
#include "stealcheck/detail/models/front/run_json.hpp"
#include "stealcheck/detail/models/front/site_override.hpp"
#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/fuzz_campaign.hpp"
#include "stealcheck/detail/stress/lin_model.hpp"

namespace stealcheck::stress::certify {
namespace {

using lincheck::owner_step;
using lincheck::scenario;
using lincheck::thief_step;

// Every sequence of length 0..n over `alphabet`, shortest first.
template <class Step>
std::vector<std::vector<Step>> sequences(int from, int n, const std::vector<Step>& alphabet) {
  std::vector<std::vector<Step>> out;
  std::vector<std::vector<Step>> level{{}};
  for (int len = 0; len <= n; ++len) {
    if (len >= from) out.insert(out.end(), level.begin(), level.end());
    std::vector<std::vector<Step>> next;
    for (const auto& s : level)
      for (Step a : alphabet) {
        next.push_back(s);
        next.back().push_back(a);
      }
    level = std::move(next);
  }
  return out;
}

// The multisets of k thief sequences (indices into `seqs`, non-decreasing), for k = 0..most.
void thief_sets(std::size_t kinds, int most, std::vector<std::vector<std::size_t>>& out) {
  std::vector<std::size_t> cur;
  auto rec = [&](auto& self, std::size_t min) -> void {
    out.push_back(cur);
    if (static_cast<int>(cur.size()) == most) return;
    for (std::size_t i = min; i < kinds; ++i) {
      cur.push_back(i);
      self(self, i);
      cur.pop_back();
    }
  };
  rec(rec, 0);
}

// The thieves of `t` renamed: thief j (from 0) becomes thief to[j], and every steal@N step
// names its thief's new number.
std::vector<std::vector<thief_step>> renamed(const std::vector<std::vector<thief_step>>& t,
                                             const std::vector<std::size_t>& to) {
  std::vector<std::vector<thief_step>> out(t.size());
  for (std::size_t j = 0; j < t.size(); ++j) {
    out[to[j]] = t[j];
    for (thief_step& step : out[to[j]])
      if (step.k == thief_step::kind::steal_thief)
        step = thief_step::steal_from(to[step.from - 1U] + 1);
  }
  return out;
}

// Whether `t` is the least of its renamings (renamed, under every permutation): one member,
// the same whichever member the permutations start from, stands for each class.
bool least_renaming(const std::vector<std::vector<thief_step>>& t) {
  std::vector<std::size_t> to(t.size());
  std::iota(to.begin(), to.end(), std::size_t{0});
  while (std::next_permutation(to.begin(), to.end()))
    if (renamed(t, to) < t) return false;
  return true;
}

// The thieves of the scenarios with steal@N steps: for k = 0..most, every k-tuple of
// sequences of 1..steals steps (a steal, a batch steal or a steal@j of one of the k thieves)
// that valid_thief_steps accepts, the least of each class (least_renaming); `ordered` counts
// every accepted tuple. Validity does not change under renaming: the same steal@N names a
// thief that takes one batch before and after.
std::vector<std::vector<std::vector<thief_step>>> thief_classes_stealing(int most, int steals,
                                                                         std::uint64_t& ordered) {
  std::vector<std::vector<std::vector<thief_step>>> out;
  ordered = 0;
  for (int k = 0; k <= most; ++k) {
    std::vector<thief_step> alphabet{thief_step::steal, thief_step::steal_batch};
    for (int j = 1; j <= k; ++j)
      alphabet.push_back(thief_step::steal_from(static_cast<std::size_t>(j)));
    const auto seqs = sequences<thief_step>(1, steals, alphabet);
    const auto n = static_cast<std::size_t>(k);
    std::vector<std::size_t> at(n, 0);  // an odometer over seqs^k
    scenario s;
    s.thieves.resize(n);
    for (;;) {
      for (std::size_t i = 0; i < n; ++i)
        s.thieves[i] = seqs[at[i]];
      std::string error;
      if (lincheck::valid_thief_steps(s, error)) {
        ++ordered;
        if (least_renaming(s.thieves)) out.push_back(s.thieves);
      }
      std::size_t i = 0;
      while (i < n && ++at[i] == seqs.size())
        at[i++] = 0;
      if (i == n) break;
    }
  }
  return out;
}

// a * b and a + b, saturating at UINT64_MAX.
std::uint64_t mul_sat(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
std::uint64_t add_sat(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// n^k, saturating.
std::uint64_t power(std::uint64_t n, int k) {
  std::uint64_t r = 1;
  for (int i = 0; i < k; ++i)
    r = mul_sat(r, n);
  return r;
}

// A fingerprint of the variant's sites, names and orders (FNV-1a, 64 bits), each order as
// `overrides` sets it: two certificates with the same fingerprint checked the same orders.
std::string sites_fingerprint(const variant_info& info,
                              const std::vector<model::site_override>& overrides) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&h](std::string_view s) {
    for (const char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ULL;
    }
    h ^= 0xff;
    h *= 0x100000001b3ULL;
  };
  for (const site* s : info.sites) {
    std::memory_order order = s->order;
    for (const auto& [name, o] : overrides)
      if (name == s->name) order = o;
    mix(s->name);
    mix(std::to_string(static_cast<int>(order)));
  }
  return fmt::format("{:016x}", h);
}

// The most scenarios a bound may have (before symmetry): a larger one would not finish anyway.
constexpr std::uint64_t max_scenarios = 10'000'000;

struct certify_args {
  std::string variant;
  bound b;
  std::string model = "rc11";
  std::int64_t capacity = 0;
  unsigned jobs = 1;
  std::string shard;  // "I/S"
  std::string json_file, markdown_file;
  std::vector<std::string> site_texts;  // --site NAME=ORDER, as given
  std::vector<model::site_override> overrides;
};

// The options both commands repeat: --site, --model, --capacity.
void common_options(harness::command_line& c, const certify_args& a) {
  for (const std::string& t : a.site_texts)
    c.opt("--site", t);
  if (a.model != "rc11") c.opt("--model", a.model);
  if (a.capacity > 0) c.opt("--capacity", static_cast<std::uint64_t>(a.capacity));
}

harness::command_line command_of(const certify_args& a) {
  harness::command_line c{"certify", a.variant, {}};
  c.opt("--owner", static_cast<std::uint64_t>(a.b.owner))
      .opt("--thieves", static_cast<std::uint64_t>(a.b.thieves))
      .opt("--steals", static_cast<std::uint64_t>(a.b.steals));
  if (a.b.prefix > 0) c.opt("--prefix", static_cast<std::uint64_t>(a.b.prefix));
  if (a.b.steal_from_thieves) c.opt("--steal-from-thieves");
  common_options(c, a);
  if (!a.shard.empty()) c.opt("--shard", a.shard);
  return c;
}

// The command that explores scenario s alone (its report, exhaustively).
harness::command_line alone(const certify_args& a, const scenario& s) {
  harness::command_line c{"fuzz", a.variant, {}};
  c.opt("--scenario", lincheck::describe(s)).opt("--exhaustive");
  common_options(c, a);
  return c;
}

std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text) {
  unsigned long long i = 0, n = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%llu/%llu%c", &i, &n, &extra) != 2 || n == 0 || i >= n)
    throw harness::usage_error(
        fmt::format("--shard: '{}' is not I/S with 0 <= I < S (for example 0/4)", text));
  return {i, n};
}

int run_certify(certify_args& a) {
  const harness::variant* v = harness::find_variant(a.variant);
  if (v == nullptr)
    throw harness::usage_error(fmt::format("unknown variant '{}' ({} list shows them)", a.variant,
                                           harness::program_name()));
  const lincheck::binding* lb = v->binding<lincheck::binding>();
  if (lb == nullptr || !runs_model(v->info().backends))
    throw harness::usage_error(fmt::format(
        "variant '{}' has no model-checked scenario binding (certify explores scenarios)",
        a.variant));
  const model::memory_model mm = fuzz::model_named(a.model);
  a.overrides = fuzz::checked_options(a.site_texts, a.b.steal_from_thieves, v->info(), a.variant);
  const auto [shard_index, shard_count] =
      a.shard.empty() ? std::pair<std::uint64_t, std::uint64_t>{0, 1} : parse_shard(a.shard);
  if (shard_count > 1 && !a.markdown_file.empty())
    throw harness::usage_error(
        "--markdown writes a whole certificate: not with --shard (add up the shards' --json)");
  std::ofstream json_out, md_out;
  if (!a.json_file.empty() && !(json_out.open(a.json_file), json_out))
    throw harness::usage_error(fmt::format("cannot write JSON file '{}'", a.json_file));
  if (!a.markdown_file.empty() && !(md_out.open(a.markdown_file), md_out))
    throw harness::usage_error(fmt::format("cannot write Markdown file '{}'", a.markdown_file));
  const variant_info& info = v->info();
  if (const std::uint64_t most = scenario_count(a.b, info.batch_steal); most > max_scenarios)
    throw harness::usage_error(fmt::format(
        "the bound has {}{} scenarios, more than {} (a smaller --owner, --prefix, --thieves or "
        "--steals)",
        a.b.steal_from_thieves ? "up to " : "", most, max_scenarios));
  std::uint64_t generated = 0;
  const std::vector<scenario> all = scenarios(a.b, info.batch_steal, &generated);
  std::vector<scenario> mine;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i % shard_count == shard_index) mine.push_back(all[i]);
  const std::string command = command_of(a).str();
  const char* const model_label = mm == model::memory_model::rc11 ? "RC11" : "SC";
  const std::int64_t capacity =
      a.capacity > 0 ? a.capacity : model::clients::cap_or(info.capacity, 4);
  const std::string bound_text =
      fmt::format("at most {} owner operation{}{}, at most {} thie{} of at most {} {} each",
                  a.b.owner, a.b.owner == 1 ? "" : "s",
                  a.b.prefix > 0 ? fmt::format(" after a prefix of at most {}", a.b.prefix) : "",
                  a.b.thieves, a.b.thieves == 1 ? "f" : "ves", a.b.steals,
                  !info.batch_steal        ? "steals"
                  : a.b.steal_from_thieves ? "steals, batch steals or steals from another thief"
                                           : "steals or batch steals");
  std::string mutant;  // " with --site A --site B": the mutant certified, if one
  for (const std::string& t : a.site_texts)
    mutant += (mutant.empty() ? " with --site " : " --site ") + t;
  fmt::print("certify {}{} under {}: every scenario with {}\n", a.variant, mutant, model_label,
             bound_text);
  fmt::print("  {} scenarios, {} classes after thief symmetry{}\n", generated, all.size(),
             shard_count > 1
                 ? fmt::format("; shard {}/{}: {} classes", shard_index, shard_count, mine.size())
                 : "");
  std::fflush(stdout);

  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::atomic<std::uint64_t> complete{0}, total{0}, done{0};
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failing{mine.size()};  // the smallest failing index so far
  std::vector<std::string> reports(mine.size());
  std::mutex report_mutex;
  // On a terminal: the classes explored of this run's, their rate and the time left.
  harness::status_line progress("certify", "classes", mine.size());
  progress.label(a.variant);
  auto job = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= mine.size() || i > failing.load()) return;
      model::options opt;
      opt.model = mm;
      opt.sites = a.overrides;
      opt.max_events_per_thread = fuzz::events_bound(mine[i]);
      std::uint64_t here = 0;
      opt.on_complete = [&here](const model::graph&, const model::consistency_checker&) { ++here; };
      std::uint64_t count = 0;
      const auto f = lb->model(info.spec, capacity, opt, &count)(mine[i], 0);
      complete += here;
      total += count;
      ++done;
      progress.add();
      if (f) {
        const std::lock_guard<std::mutex> lock(report_mutex);
        reports[i] = f->report;
        std::size_t cur = failing.load();
        while (i < cur && !failing.compare_exchange_weak(cur, i)) {
        }
      }
    }
  };
  {
    std::vector<std::thread> threads;
    for (unsigned j = 1; j < a.jobs; ++j)
      threads.emplace_back(job);
    job();
    for (auto& t : threads)
      t.join();
  }
  progress.stop();
  const double seconds = elapsed();
  const std::uint64_t executions = total.load(), completed = complete.load();
  model::certificate_record cert;
  cert.stealcheck_version = harness::version();
  cert.variant = a.variant;
  cert.sites = sites_fingerprint(info, a.overrides);
  cert.model = a.model;
  cert.bound = {static_cast<std::uint64_t>(a.b.owner), static_cast<std::uint64_t>(a.b.thieves),
                static_cast<std::uint64_t>(a.b.steals), static_cast<std::uint64_t>(a.b.prefix),
                a.b.steal_from_thieves};
  cert.capacity = capacity;
  cert.shard_index = shard_index;
  cert.shard_count = shard_count;
  cert.scenarios_generated = generated;
  cert.classes = all.size();
  cert.classes_run = done.load();
  cert.complete = completed;
  cert.blocked = executions - completed;
  cert.seconds = seconds;
  cert.command = command;
  const std::size_t bad = failing.load();
  if (bad < mine.size()) {
    const scenario& s = mine[bad];
    const std::string again = alone(a, s).str();
    fmt::print("VIOLATION in {} ({} steps; no scenario with fewer steps{} fails):\n{}\n",
               lincheck::describe(s), steps(s), shard_count > 1 ? " in this shard" : "",
               reports[bad]);
    fmt::print("  explore it alone: {}\n", again);
    cert.violation =
        model::certificate_violation{lincheck::describe(s), steps(s), reports[bad], again};
    if (json_out.is_open()) json_out << model::certificate_text(cert);
    return 1;
  }
  fmt::print(
      "certificate: {}{} under {}, every scenario with {}: {} classes ({} scenarios), {} "
      "executions ({} complete, {} blocked), no violation; {:.1f} s\n",
      a.variant, mutant, model_label, bound_text, mine.size(),
      shard_count > 1 ? fmt::format("shard {}/{} of {}", shard_index, shard_count, generated)
                      : std::to_string(generated),
      executions, completed, executions - completed, seconds);
  fmt::print("  stealcheck {}, sites {}, capacity {}\n  command: {}\n", harness::version(),
             cert.sites, capacity, command);
  if (json_out.is_open()) json_out << model::certificate_text(cert);
  if (md_out.is_open())
    md_out << fmt::format(
        "<!-- Generated by `{} --markdown FILE` (stealcheck {}). Do not edit: CI regenerates it "
        "and fails when it differs. -->\n"
        "# {}{}: certificate\n\n"
        "Under {}, every scenario with {} (initial capacity {}): {} classes ({} scenarios), {} "
        "executions ({} complete, {} blocked), no violation. Thieves that differ only in their "
        "order{} are one class; every class explored exhaustively (`docs/certify.md`).\n\n"
        "| model | owner | prefix | thieves | steals | capacity | classes | scenarios | complete "
        "| blocked | sites |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | `{}` |\n",
        command, harness::version(), a.variant, mutant, model_label, bound_text, capacity,
        mine.size(), generated, executions, completed, executions - completed,
        a.b.steal_from_thieves ? " (steal@N renamed with them)" : "", model::model_name(mm),
        a.b.owner, a.b.prefix, a.b.thieves, a.b.steals, capacity, mine.size(), generated, completed,
        executions - completed, cert.sites);
  return 0;
}

}  // namespace

std::uint64_t scenario_count(const bound& b, bool batch) {
  std::uint64_t ordered = 0;  // thieves in every order: kinds^k for k = 0..thieves
  for (int k = 0; k <= b.thieves; ++k) {
    // sequences of 1..M steps over an alphabet of `letters` (steal@1..k with steal_from_thieves)
    const std::uint64_t letters = !batch ? 1 : b.steal_from_thieves ? 2 + k : 2;
    std::uint64_t kinds = 0;
    for (int len = 1; len <= b.steals; ++len)
      kinds = add_sat(kinds, power(letters, len));
    ordered = add_sat(ordered, power(kinds, k));
  }
  // owner and prefix sequences of length 0..n: 2^(n+1) - 1 each
  return mul_sat(mul_sat(power(2, b.prefix + 1) - 1, power(2, b.owner + 1) - 1), ordered);
}

std::vector<scenario> scenarios(const bound& b, bool batch, std::uint64_t* generated) {
  const auto prefixes = sequences<owner_step>(0, b.prefix, {owner_step::push, owner_step::pop});
  const auto owners = sequences<owner_step>(0, b.owner, {owner_step::push, owner_step::pop});
  std::vector<std::vector<std::vector<thief_step>>> thieves;  // one per class
  if (batch && b.steal_from_thieves) {
    std::uint64_t ordered = 0;
    thieves = thief_classes_stealing(b.thieves, b.steals, ordered);
    if (generated != nullptr)
      *generated = mul_sat(mul_sat(prefixes.size(), owners.size()), ordered);
  } else {
    const std::vector<thief_step> alphabet =
        batch ? std::vector<thief_step>{thief_step::steal, thief_step::steal_batch}
              : std::vector<thief_step>{thief_step::steal};
    const auto thief_seqs = sequences<thief_step>(1, b.steals, alphabet);
    std::vector<std::vector<std::size_t>> sets;
    thief_sets(thief_seqs.size(), b.thieves, sets);
    for (const auto& set : sets) {
      thieves.emplace_back();
      for (std::size_t i : set)
        thieves.back().push_back(thief_seqs[i]);
    }
    if (generated != nullptr) *generated = scenario_count(b, batch);
  }
  std::vector<scenario> out;
  out.reserve(prefixes.size() * owners.size() * thieves.size());
  for (const auto& p : prefixes)
    for (const auto& o : owners)
      for (const auto& t : thieves)
        out.push_back(scenario{p, o, t});
  std::vector<std::pair<std::pair<std::size_t, std::string>, std::size_t>> order;
  order.reserve(out.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    order.push_back({{steps(out[i]), lincheck::describe(out[i])}, i});
  std::sort(order.begin(), order.end());
  std::vector<scenario> sorted;
  sorted.reserve(out.size());
  for (const auto& [key, i] : order)
    sorted.push_back(std::move(out[i]));
  return sorted;
}

void add_certify_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<certify_args>();
  CLI::App* cmd = app.add_subcommand(
      "certify", "explore every scenario up to a bound exhaustively, and write its certificate");
  cmd->add_option("variant", a->variant, "variant (stealcheck list)")->required();
  cmd->add_option("--owner", a->b.owner, "the owner's operations while the thieves run, at most")
      ->check(CLI::Range(0, 12))
      ->capture_default_str();
  cmd->add_option("--thieves", a->b.thieves, "thief threads, at most")
      ->check(CLI::Range(0, static_cast<int>(model::max_threads) - 1))
      ->capture_default_str();
  cmd->add_option("--steals", a->b.steals, "each thief's steals, at most")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  cmd->add_option("--prefix", a->b.prefix, "the owner's operations before the thieves, at most")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_flag("--steal-from-thieves", a->b.steal_from_thieves,
                "thief steps also steal from another thief's own deque (batch-stealing "
                "variants): steal@N");
  cmd->add_option("--site", a->site_texts,
                  "override a memory-order site: NAME=ORDER (certify a mutant, as `model --site`)");
  cmd->add_option("--model", a->model, "memory model: rc11 or sc")->capture_default_str();
  cmd->add_option("--capacity", a->capacity,
                  "the deque's initial capacity (default: the variant's, else 4)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--jobs", a->jobs, "scenarios explored at once (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--shard", a->shard, "run the classes of shard I of S (I/S)");
  cmd->add_option("--json", a->json_file, "write the certificate (or the violation) as JSON")
      ->check(harness::output_file());
  cmd->add_option("--markdown", a->markdown_file, "write the certificate as a Markdown table row")
      ->check(harness::output_file());
  cmd->callback([a, &exit_code] { exit_code = run_certify(*a); });
}

}  // namespace stealcheck::stress::certify
// SPDX-License-Identifier: Apache-2.0
