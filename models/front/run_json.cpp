// models/front/run_json.cpp: the model checker's JSON records (see run_json.hpp).
#include "stealcheck/detail/models/front/run_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::model {
namespace {

// j[key] as T, or nullopt when j has no such key or it is null. Throws on a wrong type.
template <class T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<T>();
}

nlohmann::json shard_json(const shard_record& s) {
  return {{"index", s.index},  {"count", s.count},       {"pieces", s.pieces},
          {"depth", s.depth},  {"division", s.division}, {"counted_depth", s.counted_depth},
          {"counts", s.counts}};
}

shard_record shard_from(const nlohmann::json& j) {
  shard_record s;
  s.index = j.at("index").get<std::uint32_t>();
  s.count = j.at("count").get<std::uint32_t>();
  s.pieces = j.at("pieces").get<std::uint64_t>();
  s.depth = j.at("depth").get<std::uint64_t>();
  s.division = j.at("division").get<std::string>();
  s.counted_depth = j.value("counted_depth", std::uint64_t{0});
  s.counts = j.value("counts", node_count_map{});
  return s;
}

nlohmann::json client_json(const client_record& r) {
  nlohmann::json j{{"stealcheck_version", r.stealcheck_version},
                   {"variant", r.variant},
                   {"client", r.client},
                   {"model", r.model},
                   {"sites", r.sites},
                   {"complete", r.complete},
                   {"blocked", r.blocked},
                   {"blocked_by", r.blocked_by},
                   {"exhaustive", r.exhaustive},
                   {"seconds", r.seconds}};
  if (r.execs_per_second) j["execs_per_second"] = *r.execs_per_second;
  if (r.shard) j["shard"] = shard_json(*r.shard);
  if (r.merged) {
    j["shards"] = r.merged->shards;
    j["busiest_shard_executions"] = r.merged->busiest_shard_executions;
    j["busiest_share"] = r.merged->busiest_share;
    j["counted_depth"] = r.merged->counted_depth;
    j["counts"] = r.merged->counts;
  }
  if (r.bug)
    j["bug"] = {{"kind", r.bug->kind},
                {"message", r.bug->message},
                {"trace", r.bug->trace},
                {"replay", r.bug->replay}};
  return j;
}

// One client of a file; throws nlohmann's out_of_range for a missing key and type_error for a
// field of the wrong type (read_client_records names both).
client_record client_from(const nlohmann::json& j) {
  client_record r;
  r.client = j.at("client").get<std::string>();
  r.stealcheck_version = j.at("stealcheck_version").get<std::string>();
  r.variant = j.at("variant").get<std::string>();
  r.model = j.at("model").get<std::string>();
  r.sites = j.at("sites").get<std::vector<std::string>>();
  r.complete = j.at("complete").get<std::uint64_t>();
  r.blocked = j.at("blocked").get<std::uint64_t>();
  r.blocked_by = j.value("blocked_by", std::map<std::string, std::uint64_t>{});
  r.exhaustive = j.value("exhaustive", true);
  r.seconds = j.value("seconds", 0.0);
  r.execs_per_second = optional_at<double>(j, "execs_per_second");
  if (const auto it = j.find("shard"); it != j.end()) r.shard = shard_from(*it);
  if (j.contains("shards"))
    r.merged = merged_record{
        j.at("shards").get<std::uint32_t>(), j.value("busiest_shard_executions", std::uint64_t{0}),
        j.value("busiest_share", 1.0), j.value("counted_depth", std::uint64_t{0}),
        j.value("counts", node_count_map{})};
  if (const auto it = j.find("bug"); it != j.end())
    r.bug = bug_record{it->value("kind", ""), it->value("message", ""), it->value("trace", ""),
                       it->value("replay", "")};
  return r;
}

}  // namespace

nlohmann::json read_json_file(const std::string& file, const std::string& what) {
  std::ifstream in(file);
  if (!in) throw harness::usage_error(fmt::format("{}: cannot read the file", what));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw harness::usage_error(fmt::format("{}: not JSON ({})", what, harness::json_error_text(e)));
  }
}

node_count_map counts_by_path(const node_counts& counts) {
  node_count_map out;
  for (const auto& [path, n] : counts) {
    std::string key;
    for (const std::uint32_t k : path)
      key += (key.empty() ? "" : ".") + std::to_string(k);
    out[key] = n;
  }
  return out;
}

node_counts counts_from_paths(const node_count_map& counts, const std::string& what) {
  node_counts out;
  for (const auto& [key, n] : counts) {
    std::vector<std::uint32_t> path;
    for (std::size_t at = 0; !key.empty() && at <= key.size();) {
      const std::size_t dot = std::min(key.find('.', at), key.size());
      std::uint32_t k = 0;
      const auto [end, ec] = std::from_chars(key.data() + at, key.data() + dot, k);
      if (ec != std::errc{} || end != key.data() + dot || dot == at)
        throw harness::usage_error(
            fmt::format("{}: '{}' is not a node's path (ordinals joined by dots)", what, key));
      path.push_back(k);
      at = dot + 1;
    }
    out.emplace(std::move(path), n);
  }
  return out;
}

std::string client_records_text(const std::vector<client_record>& records) {
  nlohmann::json j = nlohmann::json::array();
  for (const client_record& r : records)
    j.push_back(client_json(r));
  return j.dump(2) + "\n";
}

std::vector<client_record> read_client_records(const std::string& file, const std::string& what,
                                               const std::string& writer) {
  const nlohmann::json j = read_json_file(file, what);
  if (!j.is_array() || j.empty())
    throw harness::usage_error(
        fmt::format("{}: not the JSON of {} (an array of clients)", what, writer));
  std::vector<client_record> out;
  for (const nlohmann::json& e : j) {
    try {
      if (!e.is_object())
        throw harness::usage_error(fmt::format("{}: an entry is not a client of {}", what, writer));
      out.push_back(client_from(e));
    } catch (const nlohmann::json::out_of_range& x) {
      throw harness::usage_error(fmt::format("{}: an entry is not a client of {} ({})", what,
                                             writer, harness::json_error_text(x)));
    } catch (const nlohmann::json::exception& x) {
      throw harness::usage_error(
          fmt::format("{}: a field of the wrong type ({})", what, harness::json_error_text(x)));
    }
  }
  return out;
}

nlohmann::json bound_json(const certificate_bound& b) {
  nlohmann::json j{
      {"owner", b.owner}, {"thieves", b.thieves}, {"steals", b.steals}, {"prefix", b.prefix}};
  if (b.steal_from_thieves) j["steal_from_thieves"] = true;
  return j;
}

std::string certificate_text(const certificate_record& c) {
  nlohmann::json j{{"stealcheck_version", c.stealcheck_version},
                   {"variant", c.variant},
                   {"sites", c.sites},
                   {"model", c.model},
                   {"bound", bound_json(c.bound)},
                   {"capacity", c.capacity},
                   {"scenarios_generated", c.scenarios_generated},
                   {"classes", c.classes},
                   {"classes_run", c.classes_run},
                   {"executions", {{"complete", c.complete}, {"blocked", c.blocked}}},
                   {"seconds", c.seconds},
                   {"command", c.command},
                   {"violation", nullptr}};
  if (c.shard_index) j["shard"] = {{"index", *c.shard_index}, {"count", c.shard_count}};
  if (c.shards) j["shards"] = *c.shards;
  if (c.violation)
    j["violation"] = {{"scenario", c.violation->scenario},
                      {"steps", c.violation->steps},
                      {"report", c.violation->report},
                      {"alone", c.violation->alone}};
  return j.dump(2) + "\n";
}

bool is_certificate(const nlohmann::json& j) {
  return j.is_object() && j.contains("classes_run");
}

certificate_record certificate_from(const nlohmann::json& j, const std::string& file) {
  try {
    certificate_record c;
    c.stealcheck_version = j.at("stealcheck_version").get<std::string>();
    c.variant = j.at("variant").get<std::string>();
    c.sites = j.at("sites").get<std::string>();
    c.model = j.at("model").get<std::string>();
    const nlohmann::json& b = j.at("bound");
    c.bound = {b.at("owner").get<std::uint64_t>(), b.at("thieves").get<std::uint64_t>(),
               b.at("steals").get<std::uint64_t>(), b.at("prefix").get<std::uint64_t>(),
               b.value("steal_from_thieves", false)};
    c.capacity = j.at("capacity").get<std::int64_t>();
    c.scenarios_generated = j.at("scenarios_generated").get<std::uint64_t>();
    c.classes = j.at("classes").get<std::uint64_t>();
    c.classes_run = j.at("classes_run").get<std::uint64_t>();
    c.complete = j.at("executions").at("complete").get<std::uint64_t>();
    c.blocked = j.at("executions").at("blocked").get<std::uint64_t>();
    c.seconds = j.value("seconds", 0.0);
    c.command = j.value("command", "");
    if (const auto it = j.find("shard"); it != j.end()) {
      c.shard_index = it->at("index").get<std::uint32_t>();
      c.shard_count = it->at("count").get<std::uint32_t>();
    }
    c.shards = optional_at<std::uint32_t>(j, "shards");
    if (const auto it = j.find("violation"); it != j.end() && !it->is_null())
      c.violation = certificate_violation{it->at("scenario").get<std::string>(),
                                          it->at("steps").get<std::uint64_t>(),
                                          it->value("report", ""), it->value("alone", "")};
    return c;
  } catch (const nlohmann::json::out_of_range& x) {
    throw harness::usage_error(fmt::format("{}: not the JSON of stealcheck certify --json ({})",
                                           file, harness::json_error_text(x)));
  } catch (const nlohmann::json::exception& x) {
    throw harness::usage_error(
        fmt::format("{}: a field of the wrong type ({})", file, harness::json_error_text(x)));
  }
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
