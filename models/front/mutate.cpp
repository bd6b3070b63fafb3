// models/front/mutate.cpp: mutation analysis of memory-order sites (see mutate.hpp).
#include "stealcheck/detail/models/front/mutate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/models/front/bind.hpp"

namespace stealcheck::model {
namespace {

using mo = std::memory_order;

// One exploration of every chosen client, with `sites` overriding orders.
struct run_result {
  std::vector<client_counts> counts;
  std::vector<std::string> killers;
  std::string bug;
  std::string token;
};

run_result run_clients(const std::vector<clients::client_entry>& cls, memory_model m,
                       const std::vector<std::pair<std::string, mo>>& sites) {
  run_result out;
  for (const clients::client_entry& cl : cls) {
    options opt;
    opt.model = m;
    opt.sites = sites;
    const result r = explore(opt, cl.run);
    out.counts.push_back({std::string(cl.name), r.complete, r.blocked});
    if (!r.bug) continue;
    if (out.killers.empty()) {
      out.bug = kind_and_message(*r.bug);
      out.token = r.bug->replay_token;
    }
    out.killers.emplace_back(cl.name);
  }
  return out;
}

std::vector<clients::client_entry> chosen_clients(const harness::variant& v,
                                                  const mutate_options& o) {
  const binding* b = v.binding<binding>();
  if (b == nullptr)
    throw harness::usage_error("variant '" + std::string(v.name()) +
                               "' has no model-checker binding");
  std::vector<clients::client_entry> all = b->clients();
  std::vector<clients::client_entry> out;
  for (const auto& c : all) {
    const bool named = std::find(o.clients.begin(), o.clients.end(), c.name) != o.clients.end();
    if (o.clients.empty() ? !c.large : named) out.push_back(c);
  }
  for (const std::string& name : o.clients) {
    if (std::none_of(all.begin(), all.end(), [&](const auto& c) { return c.name == name; }))
      throw harness::usage_error("unknown client '" + name + "' for variant " +
                                 std::string(v.name()));
  }
  return out;
}

// "a, b, c" (sep between the names).
std::string joined(const std::vector<std::string>& names, std::string_view sep = ", ") {
  std::string out;
  for (const std::string& n : names)
    out += (out.empty() ? "" : std::string(sep)) + n;
  return out;
}

bool says_not_needed(std::string_view why) {
  return why.find("not needed") != std::string_view::npos;
}

}  // namespace

std::vector<mo> weaker_orders(site_kind k, mo o) {
  switch (k) {
    case site_kind::load:
    case site_kind::cas_failure:
      if (o == mo::seq_cst) return {mo::acquire, mo::relaxed};
      if (o == mo::acquire || o == mo::consume) return {mo::relaxed};
      return {};
    case site_kind::store:
      if (o == mo::seq_cst) return {mo::release, mo::relaxed};
      if (o == mo::release) return {mo::relaxed};
      return {};
    case site_kind::rmw:
    case site_kind::fence:
      if (o == mo::seq_cst) return {mo::acq_rel, mo::acquire, mo::release, mo::relaxed};
      if (o == mo::acq_rel) return {mo::acquire, mo::release, mo::relaxed};
      if (o == mo::acquire || o == mo::release || o == mo::consume) return {mo::relaxed};
      return {};
  }
  return {};
}

std::string_view verdict_name(mutant_verdict v) noexcept {
  switch (v) {
    case mutant_verdict::killed:
      return "killed";
    case mutant_verdict::equivalent:
      return "equivalent";
    case mutant_verdict::weaker_not_killed:
      return "weaker, not killed";
  }
  return "?";
}

bool mutate_report::ok() const {
  return !sites.empty() && std::all_of(sites.begin(), sites.end(), [](const site_summary& s) {
    return (s.justified || s.documented) && !s.contradicted;
  });
}

mutate_report mutate(const harness::variant& v, const mutate_options& o) {
  const auto cls = chosen_clients(v, o);
  mutate_report rep;
  const run_result base = run_clients(cls, o.model, {});
  if (!base.killers.empty())
    throw harness::usage_error("variant '" + std::string(v.name()) +
                               "' fails without a mutation (" + base.bug +
                               "): mutation analysis needs a correct variant");
  rep.baseline = base.counts;
  for (const site* s : v.info().sites) {
    for (mo w : weaker_orders(s->kind, s->order)) {
      mutant m;
      m.s = s;
      m.order = w;
      rep.mutants.push_back(m);
    }
  }
  if (o.progress != nullptr) o.progress->total(rep.mutants.size());
  // The mutants are independent: `jobs` threads take them in turn.
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed);  // a ticket; no data
         i < rep.mutants.size(); i = next.fetch_add(1, std::memory_order_relaxed)) {
      mutant& m = rep.mutants[i];
      const std::string override_text = fmt::format("{}={}", m.s->name, order_name(m.order));
      run_result r = run_clients(cls, o.model, {{std::string(m.s->name), m.order}});
      m.counts = std::move(r.counts);
      m.killers = std::move(r.killers);
      if (!m.killers.empty()) {
        m.verdict = mutant_verdict::killed;
        m.bug = std::move(r.bug);
        m.replay = replay_command(v.name(), m.killers.front(), o.model, {override_text}, r.token);
      } else {
        bool same = true;
        for (std::size_t c = 0; c < m.counts.size(); ++c)
          same = same && m.counts[c].complete == base.counts[c].complete &&
                 m.counts[c].blocked == base.counts[c].blocked;
        m.verdict = same ? mutant_verdict::equivalent : mutant_verdict::weaker_not_killed;
      }
      if (o.progress != nullptr) o.progress->add();
    }
  };
  std::vector<std::jthread> pool;
  for (unsigned j = 1; j < std::max(1u, o.jobs); ++j)
    pool.emplace_back(work);
  work();
  pool.clear();  // joins
  for (const site* s : v.info().sites) {
    site_summary sum;
    sum.s = s;
    sum.justified = true;
    sum.documented = says_not_needed(s->why);
    bool weakened = false;
    for (const mutant& m : rep.mutants) {
      if (m.s != s) continue;
      weakened = true;
      for (const std::string& k : m.killers)
        sum.names_killer = sum.names_killer || s->why.find(k) != std::string_view::npos;
      if (m.verdict == mutant_verdict::killed) continue;
      sum.justified = false;
      sum.weakest_surviving = m.order;  // strongest first: the last one is the weakest
    }
    sum.contradicted = weakened && sum.justified && sum.documented;
    if (!weakened || !sum.justified) sum.names_killer = false;
    rep.sites.push_back(sum);
  }
  return rep;
}

void write_markdown(std::ostream& out, const harness::variant& v, const mutate_report& rep,
                    const mutate_options& o, const std::string& command) {
  const auto cls = chosen_clients(v, o);
  out << "<!-- Generated by `" << command << "` (stealcheck " << harness::version()
      << "). Do not edit: CI regenerates it and fails when it differs. -->\n";
  out << "# " << v.name() << ": memory orders and certificates\n\n";
  out << "## Fence minimality (" << model_name(o.model) << ")\n\n";
  out << "Each site weakened alone to every weaker order its kind allows, every client run "
         "exhaustively. *killed*: a client finds a bug (k/n: killed by k of the n clients, named); "
         "*equivalent*: the same executions on every client; *weaker*: more executions, no "
         "bug.\n\n";
  if (rep.sites.empty()) out << "(No memory-order sites declared: nothing was mutated.)\n";
  if (!rep.sites.empty())
    out << "| site | default | weakenings | weakest order that survives |\n|---|---|---|---|\n";
  for (const site_summary& s : rep.sites) {
    std::string cells;
    for (const mutant& m : rep.mutants) {
      if (m.s != s.s) continue;
      if (!cells.empty()) cells += "; ";
      cells += fmt::format("{}: {}", order_name(m.order), verdict_name(m.verdict));
      if (m.verdict == mutant_verdict::killed) {
        cells +=
            fmt::format(" {}/{} ({})", m.killers.size(), rep.baseline.size(), joined(m.killers));
      }
    }
    const std::string weakest = s.weakest_surviving
                                    ? std::string(order_name(*s.weakest_surviving))
                                    : (cells.empty() ? "- (no weaker order)" : "- (all killed)");
    out << "| `" << s.s->name << "` | " << order_name(s.s->order) << " | "
        << (cells.empty() ? "-" : cells) << " | " << weakest
        << (s.weakest_surviving && s.documented ? " (documented: not needed)" : "")
        << (s.weakest_surviving && !s.documented ? " (NOT JUSTIFIED)" : "") << " |\n";
  }
  out << "\n"
      << (rep.sites.empty() ? "Nothing was mutated: the certificates below are the whole result."
          : rep.ok()        ? "Every default order is killed when weakened, or documented as not "
                              "needed."
                            : "Some orders are neither killed when weakened nor documented.")
      << "\n\n## Certificates\n\n";
  out << "Complete and blocked executions of each client, explored exhaustively with no bug. "
         "Reproduce one with `stealcheck model "
      << v.name() << " --client CLIENT --model rc11` (or `--model sc`).\n\n";
  out << "| client | RC11 complete | RC11 blocked | SC complete | SC blocked |\n"
         "|---|---|---|---|---|\n";
  // the baseline already holds the counts under the model mutated in; explore the other one
  const auto other = o.model == memory_model::rc11 ? memory_model::sc : memory_model::rc11;
  const std::vector<client_counts> more = run_clients(cls, other, {}).counts;
  const auto& rc11 = o.model == memory_model::rc11 ? rep.baseline : more;
  const auto& sc = o.model == memory_model::rc11 ? more : rep.baseline;
  for (std::size_t c = 0; c < cls.size(); ++c)
    out << "| " << cls[c].name << " | " << rc11[c].complete << " | " << rc11[c].blocked << " | "
        << sc[c].complete << " | " << sc[c].blocked << " |\n";
}

// ---- the command -----------------------------------------------------------------------------

namespace {

struct mutate_args {
  std::string variant;
  std::vector<std::string> clients;
  unsigned jobs = 1;
  std::string model = "rc11";
  std::string json_file;
  std::string markdown_file;
};

std::string detail_of(const mutant& m, const mutate_report& rep) {
  if (m.verdict == mutant_verdict::killed) {
    return fmt::format("by {} of {}: {}", m.killers.size(), rep.baseline.size(), joined(m.killers));
  }
  if (m.verdict == mutant_verdict::equivalent) return "same counts on every client";
  std::string d;
  for (std::size_t c = 0; c < m.counts.size(); ++c) {
    if (m.counts[c].complete == rep.baseline[c].complete &&
        m.counts[c].blocked == rep.baseline[c].blocked)
      continue;
    d += fmt::format("{}{} {}+{} (was {}+{})", d.empty() ? "" : ", ", m.counts[c].client,
                     m.counts[c].complete, m.counts[c].blocked, rep.baseline[c].complete,
                     rep.baseline[c].blocked);
  }
  return d + "; no bug: not needed here, or a client that exposes it is missing";
}

void print_report(const harness::variant& v, const mutate_report& rep, const mutate_args& a) {
  fmt::print("{} mutate {} ({}): {} sites, {} mutants\n", harness::program_name(), v.name(),
             a.model, v.info().sites.size(), rep.mutants.size());
  std::string base;
  for (const auto& c : rep.baseline)
    base += fmt::format("{}{} {}+{}", base.empty() ? "" : ", ", c.client, c.complete, c.blocked);
  fmt::print("baseline (complete+blocked executions): {}\n\n", base);
  fmt::print("{:<40} {:<8} {:<8} {:<19} {}\n", "site", "default", "mutant", "verdict", "");
  for (const site* s : v.info().sites) {
    bool any = false;
    for (const mutant& m : rep.mutants) {
      if (m.s != s) continue;
      any = true;
      fmt::print("{:<40} {:<8} {:<8} {:<19} {}\n", s->name, order_name(s->order),
                 order_name(m.order), verdict_name(m.verdict), detail_of(m, rep));
      if (m.verdict == mutant_verdict::killed) {
        const std::string indent(59, ' ');  // under the detail column
        fmt::print("{}{}\n{}replay: {}\n", indent, m.bug, indent, m.replay->str());
      }
    }
    if (!any)
      fmt::print("{:<40} {:<8} {:<8} (no weaker order)\n", s->name, order_name(s->order), "-");
  }
  std::size_t killed = 0, equivalent = 0, weaker = 0;
  for (const mutant& m : rep.mutants) {
    killed += m.verdict == mutant_verdict::killed ? 1 : 0;
    equivalent += m.verdict == mutant_verdict::equivalent ? 1 : 0;
    weaker += m.verdict == mutant_verdict::weaker_not_killed ? 1 : 0;
  }
  fmt::print("\n{} killed, {} equivalent, {} weaker but not killed\n", killed, equivalent, weaker);
  for (const site_summary& s : rep.sites) {
    if (s.justified || !s.weakest_surviving) continue;
    fmt::print("{} {}: {} survives{}\n", s.documented ? "documented" : "NOT JUSTIFIED", s.s->name,
               order_name(*s.weakest_surviving),
               s.documented ? " (its text says it is not needed)"
                            : " -- add a client that kills it, or say in the site's text why "
                              "it is not needed");
  }
  for (const site_summary& s : rep.sites) {
    if (s.contradicted)
      fmt::print(
          "CONTRADICTED {}: its text says it is not needed, yet every weakening is "
          "killed\n",
          s.s->name);
    else if (s.justified && !s.names_killer && !weaker_orders(s.s->kind, s.s->order).empty())
      fmt::print("note {}: needed, but its text names no client that kills a weakening\n",
                 s.s->name);
  }
  if (rep.sites.empty()) {
    fmt::print(
        "mutate: NOTHING MUTATED ({} declares no memory-order sites; declare one per order, "
        "see docs/your-deque.md, \"Declare your memory orders as sites\")\n",
        v.name());
    return;
  }
  fmt::print("mutate: {}\n", rep.ok() ? "OK (every default order is killed when weakened, or "
                                        "documented as not needed)"
                                      : "FAILED (orders neither needed nor documented, or a "
                                        "text that says not needed of a needed order)");
}

void write_json(const std::string& file, const harness::variant& v, const mutate_report& rep) {
  nlohmann::json j;
  j["stealcheck_version"] = harness::version();
  j["variant"] = v.name();
  for (const auto& c : rep.baseline)
    j["baseline"].push_back(
        {{"client", c.client}, {"complete", c.complete}, {"blocked", c.blocked}});
  for (const mutant& m : rep.mutants) {
    nlohmann::json jm{{"site", m.s->name},
                      {"default", order_name(m.s->order)},
                      {"order", order_name(m.order)},
                      {"verdict", verdict_name(m.verdict)},
                      {"killers", m.killers}};
    for (const auto& c : m.counts)
      jm["counts"].push_back(
          {{"client", c.client}, {"complete", c.complete}, {"blocked", c.blocked}});
    if (m.replay) {
      jm["bug"] = m.bug;
      jm["replay"] = m.replay->str();
    }
    j["mutants"].push_back(jm);
  }
  for (const site_summary& s : rep.sites)
    j["sites"].push_back(
        {{"site", s.s->name},
         {"default", order_name(s.s->order)},
         {"justified", s.justified},
         {"documented", s.documented},
         {"contradicted", s.contradicted},
         {"names_killer", s.names_killer},
         {"weakest_surviving",
          s.weakest_surviving ? std::string(order_name(*s.weakest_surviving)) : std::string()}});
  j["ok"] = rep.ok();
  std::ofstream out(file);
  if (!out) throw harness::usage_error(fmt::format("cannot write JSON file '{}'", file));
  out << j.dump(2) << '\n';
}

}  // namespace

void add_mutate_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<mutate_args>();
  auto* cmd = app.add_subcommand(
      "mutate", "Weaken each memory-order site in turn and classify the mutants (RC11)");
  cmd->add_option("variant", a->variant, "deque variant (stealcheck list)")->required();
  cmd->add_option("--clients", a->clients, "clients to run (default: every non-large one)")
      ->delimiter(',');
  cmd->add_option("--jobs", a->jobs, "mutants explored at once")->check(CLI::Range(1u, 64u));
  cmd->add_option("--model", a->model, "memory model")->check(CLI::IsMember({"rc11", "sc"}));
  cmd->add_option("--json", a->json_file, "also write the results as JSON")
      ->check(harness::output_file());
  cmd->add_option("--markdown", a->markdown_file,
                  "also write the fence-minimality table and the certificates as Markdown")
      ->check(harness::output_file());
  cmd->callback([a, &exit_code] {
    const harness::variant& v = harness::require_variant(a->variant);
    mutate_options o;
    o.clients = a->clients;
    o.jobs = a->jobs;
    o.model = a->model == "sc" ? memory_model::sc : memory_model::rc11;
    const mutate_report rep = [&] {
      harness::status_line progress("mutate", "mutants");  // on a terminal only
      progress.label(std::string(v.name()));
      o.progress = &progress;
      return mutate(v, o);
    }();
    o.progress = nullptr;
    print_report(v, rep, *a);
    if (!a->json_file.empty()) write_json(a->json_file, v, rep);
    if (!a->markdown_file.empty()) {
      std::ofstream out(a->markdown_file);
      if (!out)
        throw harness::usage_error(
            fmt::format("cannot write Markdown file '{}'", a->markdown_file));
      std::string command = "stealcheck mutate " + a->variant;
      if (!a->clients.empty()) command += " --clients " + joined(a->clients, ",");
      write_markdown(out, v, rep, o, command + " --markdown FILE");
    }
    exit_code = rep.ok() ? 0 : 1;
  });
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
