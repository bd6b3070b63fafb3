// models/front/run_json.hpp: the JSON files of the model checker's commands as typed records,
// written and read in one place:
//   client_record       one client of `stealcheck model --json` (a shard's when run with
//                       --shard I/N) or of `stealcheck merge --json` (the shards added up, with
//                       the node counts that `stealcheck model --counts` divides by);
//   certificate_record  `stealcheck certify --json` (one shard's with --shard I/S) and the merge
//                       of a certificate's shards.
// The keys and their meaning: docs/model-checker.md ("The JSON of a run") and docs/certify.md
// ("What a certificate records"). A reader rejects
// an entry without a key its kind needs, or with a field of the wrong type, by one
// harness::usage_error (exit 2) naming the file.
//
// Thread role: any (plain values and pure functions). Complexity: linear in the file.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/models/report/verdict.hpp"

namespace stealcheck::model {

/// Executions below each node of an exploration tree, by the node's path: its ordinals joined
/// by dots ("" is the root, "0.2" the root's first child's third child).
using node_count_map = std::map<std::string, std::uint64_t>;

/// The counts keyed by path text, and back; counts_from_paths throws harness::usage_error, its
/// line starting with `what`, for a key that is not a path.
node_count_map counts_by_path(const node_counts& counts);
node_counts counts_from_paths(const node_count_map& counts, const std::string& what);

/// The JSON in `file`; throws harness::usage_error (exit 2), its line starting with `what`, for
/// a file that cannot be read or is not JSON.
nlohmann::json read_json_file(const std::string& file, const std::string& what);

/// A shard's share of a client's tree (models/divide/divide.hpp's shard_division).
struct shard_record {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  std::uint64_t pieces = 0;         ///< pieces the tree was divided into
  std::uint64_t depth = 0;          ///< the deepest piece's depth
  std::string division;             ///< the division's fingerprint, 16 hex digits
  std::uint64_t counted_depth = 0;  ///< how deep `counts` goes
  node_count_map counts;            ///< this shard's executions below each node it counted
  friend bool operator==(const shard_record&, const shard_record&) = default;
};

/// What a merge adds to a client: the shards it added up and the node counts of the whole tree.
struct merged_record {
  std::uint32_t shards = 0;
  std::uint64_t busiest_shard_executions = 0;  ///< the most executions one shard explored
  double busiest_share = 1;                    ///< busiest_shard_executions over the mean
  std::uint64_t counted_depth = 0;
  node_count_map counts;  ///< the whole tree's executions below each counted node
};

/// The first bug a run (or a merge's shards) found.
struct bug_record {
  std::string kind;     ///< models/graph's error_name: "value", "race", "deadlock", ...
  std::string message;  ///< the cause, naming the value or location
  std::string trace;    ///< the failing execution, per thread
  std::string replay;   ///< the command that re-runs that execution
};

/// One client's exploration.
struct client_record {
  std::string stealcheck_version;
  std::string variant;
  std::string client;
  std::string model;               ///< "rc11" or "sc"
  std::vector<std::string> sites;  ///< overridden sites, "NAME=ORDER"
  std::uint64_t complete = 0;      ///< executions explored to their end
  std::uint64_t blocked = 0;       ///< executions that ended blocked
  /// Why blocked: "spin_assume", "mutex", "event_bound" (a run's: each key; a merge's: the keys
  /// its shards had, added up).
  std::map<std::string, std::uint64_t> blocked_by;
  bool exhaustive = true;                  ///< no --max-executions cut the exploration short
  double seconds = 0;                      ///< a run's time; a merge's: its shards' times added up
  std::optional<double> execs_per_second;  ///< a run's (not a merge's)
  std::optional<shard_record> shard;       ///< a shard's run (--shard I/N)
  std::optional<merged_record> merged;     ///< a merge's
  std::optional<bug_record> bug;
};

/// The JSON of `records` (an array), as the commands write it.
std::string client_records_text(const std::vector<client_record>& records);

/// The clients in `file`, written by `writer` ("stealcheck model --json", "stealcheck merge
/// --json"). Throws harness::usage_error, its line starting with `what`, for a file that cannot
/// be read, is not JSON, is not a non-empty array of clients, or has an entry without a key a
/// client has or with a field of the wrong type.
std::vector<client_record> read_client_records(const std::string& file, const std::string& what,
                                               const std::string& writer);

/// The bound of a certificate (stress/certify.hpp's certify_bound).
struct certificate_bound {
  std::uint64_t owner = 0;
  std::uint64_t thieves = 0;
  std::uint64_t steals = 0;
  std::uint64_t prefix = 0;
  bool steal_from_thieves = false;  ///< thief steps may steal@N (JSON: only when true)
  friend bool operator==(const certificate_bound&, const certificate_bound&) = default;
};

/// A scenario that broke the certificate: the one with the fewest steps.
struct certificate_violation {
  std::string scenario;  ///< lincheck::describe's text
  std::uint64_t steps = 0;
  std::string report;  ///< the exhaustive run's report
  std::string alone;   ///< the command that explores it alone
};

/// One `stealcheck certify --json` run, a shard of one, or the merge of its shards.
struct certificate_record {
  std::string stealcheck_version;
  std::string variant;
  std::string sites;  ///< the fingerprint of the variant's site orders
  std::string model;  ///< "rc11" or "sc"
  certificate_bound bound;
  std::int64_t capacity = 0;
  std::uint64_t scenarios_generated = 0;  ///< scenarios in the bound, before symmetry
  std::uint64_t classes = 0;              ///< classes after symmetry, in the whole bound
  std::uint64_t classes_run = 0;          ///< classes this run (or the merged shards) explored
  std::uint64_t complete = 0;             ///< executions explored to their end
  std::uint64_t blocked = 0;
  double seconds = 0;
  std::string command;                       ///< the command that repeats the run
  std::optional<std::uint32_t> shard_index;  ///< a shard's (with shard_count)
  std::uint32_t shard_count = 1;
  std::optional<std::uint32_t> shards;  ///< a merge's: how many shards it added up
  std::optional<certificate_violation> violation;
};

/// The bound as a certificate's JSON has it (`steal_from_thieves` only when set, so files
/// written before it existed read alike); merge compares shards by it.
nlohmann::json bound_json(const certificate_bound& b);

/// The JSON of `c`, as the commands write it.
std::string certificate_text(const certificate_record& c);

/// The certificate in the JSON `j` (parsed from `file`). Throws harness::usage_error naming
/// `file` when a key a certificate has is missing or a field has the wrong type.
certificate_record certificate_from(const nlohmann::json& j, const std::string& file);

/// Whether the JSON `j` is a certificate's (it has `classes_run`), not an array of clients.
bool is_certificate(const nlohmann::json& j);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
