// models/front/merge.cpp: `stealcheck merge FILE...` (see cli.hpp): the JSON files of a
// sharded model run (`stealcheck model ... --shard I/N --json FILE`) or certify run
// (`stealcheck certify ... --shard I/S --json FILE`) added up, after checking that they are the
// shards 0..N-1 of one run, each once.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/models/front/cli.hpp"
#include "stealcheck/detail/models/front/run_json.hpp"

namespace stealcheck::model {
namespace {

struct shard_entry {
  std::string file;
  client_record r;  // one client of a shard's file
};

// What must agree across the shards of one run: its name for the error line, and the value's
// text in it (the JSON of the field).
std::vector<std::pair<const char*, std::string>> run_identity(const client_record& r) {
  return {{"variant", nlohmann::json(r.variant).dump()},
          {"model", nlohmann::json(r.model).dump()},
          {"sites", nlohmann::json(r.sites).dump()},
          {"stealcheck_version", nlohmann::json(r.stealcheck_version).dump()}};
}

std::vector<std::pair<const char*, std::string>> run_identity(const certificate_record& c) {
  return {{"variant", nlohmann::json(c.variant).dump()},
          {"model", nlohmann::json(c.model).dump()},
          {"sites", nlohmann::json(c.sites).dump()},
          {"stealcheck_version", nlohmann::json(c.stealcheck_version).dump()},
          {"bound", bound_json(c.bound).dump()},
          {"capacity", std::to_string(c.capacity)},
          {"classes", std::to_string(c.classes)},
          {"scenarios_generated", std::to_string(c.scenarios_generated)}};
}

// Throws a usage error when `r` (from `file`) is not of the run of `first` (from `first_file`).
template <class Record>
void check_same_run(const Record& r, const std::string& file, const Record& first,
                    const std::string& first_file) {
  const auto mine = run_identity(r), theirs = run_identity(first);
  for (std::size_t k = 0; k < mine.size(); ++k)
    if (mine[k].second != theirs[k].second)
      throw harness::usage_error(
          fmt::format("{}: {} {}, not {} as in {}: the shards come from different runs", file,
                      mine[k].first, mine[k].second, theirs[k].second, first_file));
}

// The shards of one run as they are read, by index: each of 0..count-1 once, the count the first
// shard's (kept by index, not in a vector of `count` places, so that a malformed count is an
// error line, not an allocation).
template <class T>
struct shard_set {
  std::uint64_t count = 0;
  std::map<std::uint64_t, std::pair<T, std::string>> at;  // index -> (shard, its file)

  // Adds `item`, shard `index` of `n` from `file`; a usage error for a count that differs from
  // the first file's (`first_file`), an index out of range or a shard seen twice (`whose`:
  // " of client NAME", or "").
  void place(std::uint64_t index, std::uint64_t n, const std::string& file,
             const std::string& first_file, const std::string& whose, T item) {
    if (at.empty()) count = n;
    if (n != count)
      throw harness::usage_error(
          fmt::format("{}: shard {} of {}, not of {} as in {}", file, index, n, count, first_file));
    if (index >= n) throw harness::usage_error(fmt::format("{}: shard {} of {}?", file, index, n));
    if (const auto it = at.find(index); it != at.end())
      throw harness::usage_error(
          fmt::format("{} and {} both hold shard {}{}", it->second.second, file, index, whose));
    at.emplace(index, std::pair<T, std::string>(std::move(item), file));
  }

  // "" when every shard is there, else the usage error's line (the first ten missing named).
  std::string missing(const std::string& whose) const {
    if (at.size() == count) return "";
    std::string names;
    std::uint64_t named = 0;
    for (std::uint64_t i = 0; i < count && named < 10; ++i)
      if (!at.contains(i)) names += (named++ == 0 ? "" : ", ") + std::to_string(i);
    const std::uint64_t absent = count - at.size();
    if (absent > named) names += fmt::format(" and {} more", absent - named);
    return fmt::format("{}shard(s) {} of {} missing", whose, names, count);
  }
};

std::vector<shard_entry> read_shards(const std::vector<std::string>& files,
                                     harness::status_line& progress) {
  std::vector<shard_entry> out;
  for (const std::string& f : files) {
    std::vector<client_record> rs = read_client_records(f, f, "stealcheck model --json");
    progress.add();
    for (client_record& r : rs) {
      if (!r.shard)
        throw harness::usage_error(
            fmt::format("{}: client \"{}\" is not a shard (run stealcheck model with --shard I/N)",
                        f, r.client));
      out.push_back({f, std::move(r)});
    }
  }
  return out;
}

// The shards of one `stealcheck certify --shard I/S --json FILE` run added up: the classes
// run and the executions; the violation with the fewest steps, if any shard found one.
int merge_certificates(const std::vector<std::string>& files, const std::string& json_file,
                       harness::status_line& progress) {
  shard_set<certificate_record> shards;
  std::optional<certificate_record> first;
  for (const std::string& f : files) {
    const nlohmann::json j = read_json_file(f, f);
    progress.add();
    if (!is_certificate(j) || !j.contains("shard"))
      throw harness::usage_error(
          fmt::format("{}: not the JSON of stealcheck certify --shard I/S --json", f));
    certificate_record c = certificate_from(j, f);
    if (!first) first = c;
    check_same_run(c, f, *first, files.front());
    // the shard's place read before the record moves into it (parameters may be initialized in
    // any order)
    const std::uint64_t index = *c.shard_index;
    const std::uint64_t count = c.shard_count;
    shards.place(index, count, f, files.front(), "", std::move(c));
  }
  progress.stop();
  if (std::string e = shards.missing(""); !e.empty()) throw harness::usage_error(e);
  certificate_record m = shards.at.begin()->second.first;
  m.classes_run = m.complete = m.blocked = 0;
  m.seconds = 0;
  m.violation.reset();
  double longest = 0;
  for (const auto& [index, shard] : shards.at) {
    const certificate_record* c = &shard.first;
    m.classes_run += c->classes_run;
    m.complete += c->complete;
    m.blocked += c->blocked;
    m.seconds += c->seconds;
    longest = std::max(longest, c->seconds);
    if (c->violation && (!m.violation || c->violation->steps < m.violation->steps))
      m.violation = c->violation;
  }
  if (!m.violation && m.classes_run != m.classes)
    throw harness::usage_error(fmt::format(
        "the shards ran {} of {} classes and found no violation: a shard did not finish",
        m.classes_run, m.classes));
  // the whole run's command: a shard's without its --shard (certify writes it last)
  if (const auto p = m.command.find(" --shard "); p != std::string::npos) m.command.erase(p);
  m.shard_index.reset();
  m.shard_count = 1;
  m.shards = static_cast<std::uint32_t>(shards.count);
  if (m.violation) {
    fmt::print("VIOLATION in {} ({} steps):\n{}\n  explore it alone: {}\n", m.violation->scenario,
               m.violation->steps, m.violation->report, m.violation->alone);
  } else {
    fmt::print(
        "certificate: {} under {}, owner {} (prefix {}), {} thieves of {} steals{}: {} classes ({} "
        "scenarios), {} executions ({} complete, {} blocked), no violation; from {} shards, "
        "{:.1f} s in all, the longest {:.1f} s\n  stealcheck {}, sites {}\n  command: {}\n",
        m.variant, m.model == "sc" ? "SC" : "RC11", m.bound.owner, m.bound.prefix, m.bound.thieves,
        m.bound.steals, m.bound.steal_from_thieves ? " (steal@N too)" : "", m.classes,
        m.scenarios_generated, m.complete + m.blocked, m.complete, m.blocked, shards.count,
        m.seconds, longest, m.stealcheck_version, m.sites, m.command);
  }
  if (!json_file.empty()) {
    std::ofstream out(json_file);
    if (!out) throw harness::usage_error("cannot write JSON file '" + json_file + "'");
    out << certificate_text(m);
  }
  return m.violation ? 1 : 0;
}

// The text of a client's division, for the error line of shards divided differently.
std::string division_text(const shard_record& s) {
  return fmt::format("{} shards, {} pieces to depth {}, division {}", s.count, s.pieces, s.depth,
                     s.division);
}

// The shards of one client (every index once), added up; prints its lines.
client_record merge_client(const std::string& client,
                           const std::vector<const shard_entry*>& shards) {
  const shard_record& first = *shards.front()->r.shard;
  shard_set<const shard_entry*> set;
  const std::string whose = " of client " + client;
  for (const shard_entry* s : shards) {
    const shard_record& sh = *s->r.shard;
    if (sh.count != first.count || sh.pieces != first.pieces || sh.depth != first.depth ||
        sh.division != first.division)
      throw harness::usage_error(fmt::format(
          "{}: client {} divided as {}, not {} as in {}: the shards come from different runs",
          s->file, client, division_text(sh), division_text(first), shards.front()->file));
    set.place(sh.index, sh.count, s->file, shards.front()->file, whose, s);
  }
  if (std::string e = set.missing("client " + client + ": "); !e.empty())
    throw harness::usage_error(e);
  client_record m = shards.front()->r;
  m.complete = m.blocked = 0;
  m.seconds = 0;
  m.exhaustive = true;
  m.blocked_by.clear();
  m.execs_per_second.reset();
  m.shard.reset();
  m.bug.reset();
  merged_record merged{first.count, 0, 1.0, 0, {}};
  double longest = 0;
  const shard_entry* bug = nullptr;
  for (const auto& [index, shard] : set.at) {
    const shard_entry* s = shard.first;
    const client_record& r = s->r;
    m.complete += r.complete;
    m.blocked += r.blocked;
    merged.busiest_shard_executions =
        std::max(merged.busiest_shard_executions, r.complete + r.blocked);
    m.seconds += r.seconds;
    longest = std::max(longest, r.seconds);
    m.exhaustive = m.exhaustive && r.exhaustive;
    for (const auto& [why, n] : r.blocked_by)
      m.blocked_by[why] += n;
    if (bug == nullptr && r.bug) bug = s;
    // the executions below each node, added up (the shards' executions partition the
    // client's), for the next run's division (stealcheck model --counts)
    merged.counted_depth = std::max(merged.counted_depth, r.shard->counted_depth);
    for (const auto& [node, n] : r.shard->counts)
      merged.counts[node] += n;
  }
  // printf, not fmt: fmt's precision parsing trips g++ 12's -Wstringop-overflow at -O3
  std::printf(
      "%s/%s [%s]: %llu complete, %llu blocked, from %u shards (%llu pieces, the deepest "
      "at depth %llu); %.3f s in all, the longest shard %.3f s\n",
      m.variant.c_str(), client.c_str(), m.model.c_str(),
      static_cast<unsigned long long>(m.complete), static_cast<unsigned long long>(m.blocked),
      first.count, static_cast<unsigned long long>(first.pieces),
      static_cast<unsigned long long>(first.depth), m.seconds, longest);
  // The division's balance: the busiest shard's executions against the mean's.
  const double mean = static_cast<double>(m.complete + m.blocked) / first.count;
  merged.busiest_share =
      mean > 0 ? static_cast<double>(merged.busiest_shard_executions) / mean : 1.0;
  std::printf("  the busiest shard explored %llu executions, %.2fx the mean\n",
              static_cast<unsigned long long>(merged.busiest_shard_executions),
              merged.busiest_share);
  m.merged = std::move(merged);
  if (bug != nullptr) {
    const bug_record& b = *bug->r.bug;
    fmt::print("  BUG {} (shard {}, {}): {}\n{}  replay: {}\n", b.kind, bug->r.shard->index,
               bug->file, b.message, b.trace, b.replay);
    m.bug = b;
  }
  return m;
}

}  // namespace

int run_merge_command(const std::vector<std::string>& files, const std::string& json_file) {
  // On a terminal: the files read of all (a merge of many shards' large files takes a while).
  harness::status_line progress("merge", "files", files.size());
  if (is_certificate(read_json_file(files.front(), files.front())))
    return merge_certificates(files, json_file, progress);
  const std::vector<shard_entry> all = read_shards(files, progress);
  progress.stop();
  for (const shard_entry& s : all)
    check_same_run(s.r, s.file, all.front().r, all.front().file);
  std::map<std::string, std::vector<const shard_entry*>> by_client;
  for (const shard_entry& s : all)
    by_client[s.r.client].push_back(&s);
  int code = 0;
  std::vector<client_record> merged;
  for (const auto& [client, shards] : by_client) {
    merged.push_back(merge_client(client, shards));
    if (merged.back().bug) code = 1;
  }
  if (!json_file.empty()) {
    std::ofstream out(json_file);
    if (!out) throw harness::usage_error("cannot write JSON file '" + json_file + "'");
    out << client_records_text(merged);
  }
  return code;
}

void add_merge_command(CLI::App& app, int& exit_code) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "add up the JSON files of a sharded model or certify run (--shard I/N --json FILE)");
  cmd->add_option("files", *files, "the shards' JSON files (stealcheck model or certify --json)")
      ->required();
  cmd->add_option("--json", *json, "write the merged results as JSON")
      ->check(harness::output_file());
  cmd->callback([files, json, &exit_code] { exit_code = run_merge_command(*files, *json); });
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
