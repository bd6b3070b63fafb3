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
#include <string>
#include <vector>

#include "harness/cli.hpp"
#include "harness/errors.hpp"
#include "harness/progress.hpp"
#include "models/front/cli.hpp"

namespace stealcheck::model {
namespace {

struct shard_entry {
  std::string file;
  nlohmann::json e;  // one client's entry of a shard's file
};

// What must agree across the shards of one run, and its name for the error line.
constexpr const char* run_fields[] = {"variant", "model", "sites", "stealcheck_version"};
constexpr const char* shard_fields[] = {"index", "count", "pieces", "depth", "division"};

std::vector<shard_entry> read_shards(const std::vector<std::string>& files,
                                     harness::status_line& progress) {
  std::vector<shard_entry> out;
  for (const std::string& f : files) {
    const nlohmann::json j = read_clients_json(f, f, "stealcheck model --json");
    progress.add();
    for (const auto& e : j) {
      const bool shaped = e.is_object() && e.contains("client") && e.contains("complete") &&
                          e.contains("blocked") &&
                          std::all_of(std::begin(run_fields), std::end(run_fields),
                                      [&](const char* k) { return e.contains(k); });
      if (!shaped)
        throw harness::usage_error(
            fmt::format("{}: an entry is not a client of stealcheck model --json", f));
      if (!e.contains("shard"))
        throw harness::usage_error(
            fmt::format("{}: client {} is not a shard (run stealcheck model with --shard I/N)", f,
                        e["client"].dump()));
      const nlohmann::json& sh = e["shard"];
      if (!sh.is_object() || !std::all_of(std::begin(shard_fields), std::end(shard_fields),
                                          [&](const char* k) { return sh.contains(k); }))
        throw harness::usage_error(fmt::format(
            "{}: client {} has no division in its shard entry (index, count, pieces, depth, "
            "division): written by another stealcheck version?",
            f, e["client"].dump()));
      out.push_back({f, e});
    }
  }
  return out;
}

// The shards of one `stealcheck certify --shard I/S --json FILE` run added up: the classes
// run and the executions; the violation with the fewest steps, if any shard found one.
int merge_certificates(const std::vector<std::string>& files, const std::string& json_file,
                       harness::status_line& progress) {
  constexpr const char* same[] = {"variant", "model",    "sites",   "stealcheck_version",
                                  "bound",   "capacity", "classes", "scenarios_generated"};
  std::vector<nlohmann::json> at;
  std::vector<std::string> from;
  std::uint64_t classes_run = 0, complete = 0, blocked = 0;
  double seconds = 0, longest = 0;
  const nlohmann::json* violation = nullptr;
  std::vector<nlohmann::json> all;
  all.reserve(files.size());
  for (const std::string& f : files) {
    all.push_back(read_json_file(f, f));
    progress.add();
    const nlohmann::json& j = all.back();
    if (!j.is_object() || !j.contains("classes_run") || !j.contains("shard") ||
        !j.contains("executions") ||
        !std::all_of(std::begin(same), std::end(same),
                     [&](const char* k) { return j.contains(k); }))
      throw harness::usage_error(
          fmt::format("{}: not the JSON of stealcheck certify --shard I/S --json", f));
    for (const char* k : same)
      if (j[k] != all.front()[k])
        throw harness::usage_error(
            fmt::format("{}: {} {}, not {} as in {}: the shards come from different runs", f, k,
                        j[k].dump(), all.front()[k].dump(), files.front()));
    const auto count = j["shard"]["count"].get<std::uint64_t>();
    const auto index = j["shard"]["index"].get<std::uint64_t>();
    if (at.empty()) {
      at.resize(count);
      from.resize(count);
    }
    if (count != at.size())
      throw harness::usage_error(fmt::format("{}: shard {} of {}, not of {} as in {}", f, index,
                                             count, at.size(), files.front()));
    if (index >= count)
      throw harness::usage_error(fmt::format("{}: shard {} of {}?", f, index, count));
    if (!at[index].is_null())
      throw harness::usage_error(
          fmt::format("{} and {} both hold shard {}", from[index], f, index));
    at[index] = j;
    from[index] = f;
    classes_run += j["classes_run"].get<std::uint64_t>();
    complete += j["executions"]["complete"].get<std::uint64_t>();
    blocked += j["executions"]["blocked"].get<std::uint64_t>();
    const double t = j.value("seconds", 0.0);
    seconds += t;
    longest = std::max(longest, t);
  }
  progress.stop();
  std::string missing;
  for (std::size_t i = 0; i < at.size(); ++i)
    if (at[i].is_null()) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  if (!missing.empty())
    throw harness::usage_error(fmt::format("shard(s) {} of {} missing", missing, at.size()));
  for (const nlohmann::json& j : at)
    if (j.contains("violation") && !j["violation"].is_null() &&
        (violation == nullptr || j["violation"]["steps"] < (*violation)["steps"]))
      violation = &j["violation"];
  const nlohmann::json& f = at.front();
  const auto classes = f["classes"].get<std::uint64_t>();
  if (violation == nullptr && classes_run != classes)
    throw harness::usage_error(fmt::format(
        "the shards ran {} of {} classes and found no violation: a shard did not finish",
        classes_run, classes));
  // the whole run's command: a shard's without its --shard (certify writes it last)
  std::string command = f.value("command", "");
  if (const auto p = command.find(" --shard "); p != std::string::npos) command.erase(p);
  const auto& b = f["bound"];
  nlohmann::json m = f;
  m.erase("shard");
  m["shards"] = at.size();
  m["classes_run"] = classes_run;
  m["executions"] = {{"complete", complete}, {"blocked", blocked}};
  m["seconds"] = seconds;
  m["command"] = command;
  m["violation"] = violation != nullptr ? *violation : nlohmann::json(nullptr);
  if (violation != nullptr) {
    fmt::print("VIOLATION in {} ({} steps):\n{}\n  explore it alone: {}\n",
               (*violation)["scenario"].get<std::string>(), (*violation)["steps"].dump(),
               (*violation)["report"].get<std::string>(), (*violation)["alone"].get<std::string>());
  } else {
    fmt::print(
        "certificate: {} under {}, owner {} (prefix {}), {} thieves of {} steals: {} classes ({} "
        "scenarios), {} executions ({} complete, {} blocked), no violation; from {} shards, "
        "{:.1f} s in all, the longest {:.1f} s\n  stealcheck {}, sites {}\n  command: {}\n",
        f["variant"].get<std::string>(), f["model"].get<std::string>() == "sc" ? "SC" : "RC11",
        b["owner"].dump(), b["prefix"].dump(), b["thieves"].dump(), b["steals"].dump(), classes,
        f["scenarios_generated"].dump(), complete + blocked, complete, blocked, at.size(), seconds,
        longest, f["stealcheck_version"].get<std::string>(), f["sites"].get<std::string>(),
        command);
  }
  if (!json_file.empty()) {
    std::ofstream out(json_file);
    if (!out) throw harness::usage_error("cannot write JSON file '" + json_file + "'");
    out << m.dump(2) << "\n";
  }
  return violation != nullptr ? 1 : 0;
}

}  // namespace

int run_merge_command(const std::vector<std::string>& files, const std::string& json_file) {
  // On a terminal: the files read of all (a merge of many shards' large files takes a while).
  harness::status_line progress("merge", "files", files.size());
  try {
    const nlohmann::json first = read_json_file(files.front(), files.front());
    if (first.is_object() && first.contains("classes_run")) {
      return merge_certificates(files, json_file, progress);
    }
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
    throw harness::usage_error(
        fmt::format("a certificate shard file has a field of the wrong type ({})",
                    harness::json_error_text(e)));
  }
  const std::vector<shard_entry> all = read_shards(files, progress);
  progress.stop();
  try {
    for (const shard_entry& s : all)
      for (const char* k : run_fields)
        if (s.e[k] != all.front().e[k])
          throw harness::usage_error(
              fmt::format("{}: {} {}, not {} as in {}: the shards come from different runs", s.file,
                          k, s.e[k].dump(), all.front().e[k].dump(), all.front().file));
    std::map<std::string, std::vector<const shard_entry*>> by_client;
    for (const shard_entry& s : all)
      by_client[s.e["client"].get<std::string>()].push_back(&s);
    int code = 0;
    nlohmann::json merged = nlohmann::json::array();
    for (auto& [client, shards] : by_client) {
      const auto& first = shards.front()->e["shard"];
      const auto count = first["count"].get<std::uint32_t>();
      std::vector<const shard_entry*> at(count, nullptr);
      for (const shard_entry* s : shards) {
        const auto& sh = s->e["shard"];
        if (sh["count"] != first["count"] || sh["pieces"] != first["pieces"] ||
            sh["depth"] != first["depth"] || sh["division"] != first["division"])
          throw harness::usage_error(fmt::format(
              "{}: client {} divided as {}, not {} as in {}: the shards come from different "
              "runs",
              s->file, client, sh.dump(), first.dump(), shards.front()->file));
        const auto i = sh["index"].get<std::uint32_t>();
        if (i >= count)
          throw harness::usage_error(fmt::format("{}: shard {} of {}?", s->file, i, count));
        if (at[i] != nullptr)
          throw harness::usage_error(fmt::format("{} and {} both hold shard {} of client {}",
                                                 at[i]->file, s->file, i, client));
        at[i] = s;
      }
      std::string missing;
      for (std::uint32_t i = 0; i < count; ++i)
        if (at[i] == nullptr) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
      if (!missing.empty())
        throw harness::usage_error(
            fmt::format("client {}: shard(s) {} of {} missing", client, missing, count));
      std::uint64_t complete = 0, blocked = 0;
      double seconds = 0, longest = 0;
      bool exhaustive = true;
      std::map<std::string, std::uint64_t> blocked_by;
      const shard_entry* bug = nullptr;
      std::uint64_t busiest = 0;  // the most executions one shard explored
      // the executions below each node, added up (the shards' executions partition the
      // client's), for the next run's division (stealcheck model --counts)
      nlohmann::json counts = nlohmann::json::object();
      std::uint64_t counted_depth = 0;
      for (const shard_entry* s : at) {
        const auto c = s->e["complete"].get<std::uint64_t>();
        const auto b = s->e["blocked"].get<std::uint64_t>();
        complete += c;
        blocked += b;
        busiest = std::max(busiest, c + b);
        const double t = s->e.value("seconds", 0.0);
        seconds += t;
        longest = std::max(longest, t);
        exhaustive = exhaustive && s->e.value("exhaustive", true);
        if (s->e.contains("blocked_by"))
          for (const auto& [why, n] : s->e["blocked_by"].items())
            blocked_by[why] += n.get<std::uint64_t>();
        if (bug == nullptr && s->e.contains("bug")) bug = s;
        const nlohmann::json& sh = s->e["shard"];
        counted_depth = std::max(counted_depth, sh.value("counted_depth", std::uint64_t{0}));
        if (sh.contains("counts"))
          for (const auto& [node, n] : sh["counts"].items())
            counts[node] = counts.value(node, std::uint64_t{0}) + n.get<std::uint64_t>();
      }
      const nlohmann::json& f = all.front().e;
      // printf, not fmt: fmt's precision parsing trips g++ 12's -Wstringop-overflow at -O3
      std::printf(
          "%s/%s [%s]: %llu complete, %llu blocked, from %u shards (%llu pieces, the deepest "
          "at depth %llu); %.3f s in all, the longest shard %.3f s\n",
          f["variant"].get<std::string>().c_str(), client.c_str(),
          f["model"].get<std::string>().c_str(), static_cast<unsigned long long>(complete),
          static_cast<unsigned long long>(blocked), count,
          static_cast<unsigned long long>(first["pieces"].get<std::uint64_t>()),
          static_cast<unsigned long long>(first["depth"].get<std::uint64_t>()), seconds, longest);
      // The division's balance: the busiest shard's executions against the mean's.
      const double mean = static_cast<double>(complete + blocked) / count;
      const double share = mean > 0 ? static_cast<double>(busiest) / mean : 1.0;
      std::printf("  the busiest shard explored %llu executions, %.2fx the mean\n",
                  static_cast<unsigned long long>(busiest), share);
      nlohmann::json m{{"stealcheck_version", f["stealcheck_version"]},
                       {"variant", f["variant"]},
                       {"client", client},
                       {"model", f["model"]},
                       {"sites", f["sites"]},
                       {"complete", complete},
                       {"blocked", blocked},
                       {"blocked_by", blocked_by},
                       {"exhaustive", exhaustive},
                       {"shards", count},
                       {"busiest_shard_executions", busiest},
                       {"busiest_share", share},
                       {"seconds", seconds},
                       {"counted_depth", counted_depth},
                       {"counts", counts}};
      if (bug != nullptr) {
        const auto& b = bug->e["bug"];
        fmt::print("  BUG {} (shard {}, {}): {}\n{}  replay: {}\n", b.value("kind", "?"),
                   bug->e["shard"]["index"].get<std::uint32_t>(), bug->file, b.value("message", ""),
                   b.value("trace", ""), b.value("replay", ""));
        m["bug"] = b;
        code = 1;
      }
      merged.push_back(m);
    }
    if (!json_file.empty()) {
      std::ofstream out(json_file);
      if (!out) throw harness::usage_error("cannot write JSON file '" + json_file + "'");
      out << merged.dump(2) << "\n";
    }
    return code;
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
    throw harness::usage_error(fmt::format("a shard file has a field of the wrong type ({})",
                                           harness::json_error_text(e)));
  }
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
