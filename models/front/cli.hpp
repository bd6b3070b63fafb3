// models/front/cli.hpp: the model checker's command line and its `stealcheck verify` column.
//
//   stealcheck model <variant>[/CLIENT] [--client NAME | --all-clients] [--model rc11|sc]
//                    [--site NAME=ORDER ...] [--replay TOKEN] [--dot FILE] [--json FILE]
//                    [--max-events N] [--max-executions N] [--jobs N]
//                    [--shard I/N | --shard auto [--shard-count N]] [--counts FILE]
//                    [--estimate [--samples K] [--seed S]]
// Prints one summary line per client (client, variant, model, overridden sites, complete and
// blocked executions, time, executions per second); on a bug the error kind and message, the
// failing execution per thread, and the exact command that replays it.
// Exit code (through `exit_code`): 0 no bug, 1 a bug was found, 2 bad input (unknown
// variant/client/site/order, malformed token; one error line on stderr).
//
// Thread role: the process's main thread. Complexity: that of the explorations run.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/graph/consistency.hpp"

namespace stealcheck::model {

/// What `stealcheck model` runs; also usable programmatically.
struct model_request {
  std::string variant;
  std::string client;  ///< empty: all clients of the variant
  memory_model model = memory_model::rc11;
  std::vector<std::string> sites;  ///< "NAME=ORDER"
  std::string replay;
  std::string dot_file;
  std::string svg_file;  ///< --svg: the failing execution drawn by Graphviz
  bool full = false;     ///< --full: every event of a failing execution, not only its slice
  std::string json_file;
  unsigned max_events = 1000;
  std::uint64_t max_executions = 0;  ///< stop after this many executions (0: no limit)
  unsigned jobs = 1;                 ///< explorer threads (options::jobs)
  bool estimate = false;             ///< --estimate: predict the size, explore nothing
  std::uint64_t samples = 10000;     ///< --samples: random paths of --estimate
  std::uint64_t seed = 0;            ///< --seed: of --estimate's paths (0: a fresh one)
  std::string shard;                 ///< --shard I/N or auto (shard_options::index/count)
  std::uint32_t shard_count = 0;     ///< --shard-count: N for `--shard auto` under Kubernetes
  std::string counts_file;  ///< --counts: a merged run's node counts (shard_options::counts)
  bool balance = false;     ///< --balance: how evenly N workers share it (measure_balance)
  std::vector<std::uint32_t> workers{2, 4, 8, 16, 64};  ///< --workers: the N of --balance
  unsigned stall_seconds = 60;                          ///< options::stall_seconds (0: never)
};

/// A shard's index and count from `--shard`: "I/N" (0 <= I < N), or "auto": Slurm job arrays
/// (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT), else a
/// Kubernetes Indexed Job (JOB_COMPLETION_INDEX, of `count` or STEALCHECK_SHARD_COUNT).
/// `env` looks a variable up (harness::env_value in the CLI). Throws harness::usage_error.
std::pair<std::uint32_t, std::uint32_t> parse_shard(const std::string& text, std::uint32_t count,
                                                    std::optional<std::string> (*env)(const char*));

/// Runs the request, printing to stdout. Returns the exit code (0 no bug, 1 a bug); throws
/// harness::usage_error for bad input (the CLI prints its one line and exits 2).
int run_model_command(const model_request& req);

/// Adds the `model` subcommand to `app`; its callback stores the exit code in `exit_code`.
void add_model_command(CLI::App& app, int& exit_code);

/// `stealcheck merge FILE... [--json OUT]` (models/front/merge.cpp): the JSON files of the
/// shards of one sharded run, added up per client: complete and blocked counts (and why
/// blocked), the time in all and of the longest shard, the node counts (shard_division::counted,
/// for the next run's `--counts`); the first shard's bug (lowest index) with its replay command.
/// Checks that every file comes from the same run (variant, model,
/// sites, stealcheck version, the same division) and that shards 0..N-1 are each there once.
/// Returns 0, or 1 when a shard found a bug; throws harness::usage_error (exit 2) for a
/// missing, duplicated or foreign shard or a file that is not a shard's.
int run_merge_command(const std::vector<std::string>& files, const std::string& json_file);
void add_merge_command(CLI::App& app, int& exit_code);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
