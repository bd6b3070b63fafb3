// models/front/cli.cpp: `stealcheck model` and the verify column (see cli.hpp).
#include "stealcheck/detail/models/front/cli.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <tuple>

#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"
#include "stealcheck/detail/models/divide/divide.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/models/front/run_json.hpp"
#include "stealcheck/detail/models/front/site_override.hpp"
#include "stealcheck/detail/models/report/token.hpp"

namespace stealcheck::model {

namespace {

struct one_run {
  std::string client;
  result r;
  shard_division division;  ///< a shard's (shard_count > 1)
};

// Validates the sites against the variant's list; returns an error line or "".
std::string parse_sites(const model_request& req, const variant_info& info, options& o) {
  for (const std::string& s : req.sites) {
    auto r = parse_site_override(s, info.sites, info.name);
    if (auto* e = std::get_if<std::string>(&r)) return *e;
    o.sites.push_back(std::get<site_override>(std::move(r)));
  }
  return "";
}

std::string replay_of(const model_request& req, std::string_view client, const std::string& token) {
  return replay_command(req.variant, client, req.model, req.sites, token).str();
}

void print_run(const model_request& req, const one_run& x, std::uint32_t shard_index,
               std::uint32_t shard_count) {
  std::string sites;
  for (const std::string& s : req.sites)
    sites += (sites.empty() ? " sites: " : ", ") + s;
  std::string jobs;
  if (req.jobs > 1 && x.r.executions() > 0)
    jobs = fmt::format(", {} jobs (the busiest explored {}%)", req.jobs,
                       x.r.busiest_job * 100 / x.r.executions());
  else if (req.jobs > 1)
    jobs = fmt::format(", {} jobs", req.jobs);
  if (shard_count > 1)
    jobs = x.division.depth == 0
               ? fmt::format(", shard {}/{} (no branch point: one piece, shard 0's)", shard_index,
                             shard_count)
               : fmt::format(", shard {}/{} ({} pieces, the deepest at depth {})", shard_index,
                             shard_count, x.division.pieces, x.division.depth);
  std::printf("%s/%s [%s]%s: %llu complete, %llu blocked, %.3f s, %.0f execs/s%s\n",
              req.variant.c_str(), x.client.c_str(), std::string(model_name(req.model)).c_str(),
              sites.c_str(), static_cast<unsigned long long>(x.r.complete),
              static_cast<unsigned long long>(x.r.blocked), x.r.seconds, x.r.execs_per_second(),
              jobs.c_str());
  if (x.r.limit_reached)
    std::printf("  stopped at --max-executions %llu: the exploration is NOT exhaustive\n",
                static_cast<unsigned long long>(req.max_executions));
  if (x.r.blocked > 0)
    std::printf(
        "  blocked by: %llu a false spin_assume, %llu a lock that read the mutex held, %llu the "
        "event bound of %u per thread\n",
        static_cast<unsigned long long>(x.r.blocked_assume),
        static_cast<unsigned long long>(x.r.blocked_mutex),
        static_cast<unsigned long long>(x.r.bound_hits), req.max_events);
  if (!x.r.blocked_note.empty()) std::printf("  blocked: %s\n", x.r.blocked_note.c_str());
  if (x.r.first_bound && !x.r.bug)
    std::printf("  the first execution cut by the bound:\n%s  replay: %s\n",
                x.r.first_bound->trace.c_str(),
                replay_of(req, x.client, x.r.first_bound->replay_token).c_str());
  if (x.r.bug) {
    std::printf("  BUG %s\n%s  replay: %s\n", kind_and_message(*x.r.bug).c_str(),
                x.r.bug->trace.c_str(), replay_of(req, x.client, x.r.bug->replay_token).c_str());
  }
}

// On a terminal (stderr), the status line while a client is explored: its executions so far,
// their rate and the time (harness/progress.hpp), so a long run is told from a hung one.
// Nothing otherwise (a log gets the result lines only), and nothing for a replay.
class progress_line {
 public:
  progress_line(const model_request& req, std::string_view client, const options& o)
      : o_(o), line_("model", "executions") {
    if (!line_.on() || !o.replay.empty()) return;
    line_.label(fmt::format("{}/{} [{}]", req.variant, client, model_name(req.model)));
    o_.progress = &line_.counter();
  }
  const model::options& watched() const { return o_; }

 private:
  model::options o_;
  harness::status_line line_;
};

// --estimate's line: the predicted executions and time with their 95% intervals, the seed and
// the command that repeats it.
void print_estimate(const model_request& req, const std::string& client, const estimate& e) {
  harness::command_line again{"model", req.variant, {}};
  again.opt("--client", client);
  if (req.model == memory_model::sc) again.opt("--model", "sc");
  for (const std::string& s : req.sites)
    again.opt("--site", s);
  again.opt("--estimate").opt("--samples", e.samples).opt("--seed", e.seed);
  std::printf(
      "%s/%s [%s]: about %.3g executions (95%%: %.3g .. %.3g), about %.3g s on this "
      "machine (95%%: %.3g .. %.3g s); %llu random paths in %.2f s, seed %llu\n  "
      "again: %s\n",
      req.variant.c_str(), client.c_str(), std::string(model_name(req.model)).c_str(), e.executions,
      e.low, e.high, e.seconds, e.seconds_low, e.seconds_high,
      static_cast<unsigned long long>(e.samples), e.elapsed,
      static_cast<unsigned long long>(e.seed), again.str().c_str());
}

// --balance's table: per number of workers, the shards' division and the busiest shard's share
// of the mean, and the jobs' rounds in lockstep against the mean.
void print_balance(const model_request& req, const std::string& client, const balance& b) {
  std::printf("%s/%s [%s]: %llu executions, %.3f s on %u jobs; shared among N workers:\n",
              req.variant.c_str(), client.c_str(), std::string(model_name(req.model)).c_str(),
              static_cast<unsigned long long>(b.total.executions()), b.total.seconds, req.jobs);
  std::printf("  %4s | %-45s | %-28s | %s\n", "", "N shards (divided by estimates)",
              "then by the counts they wrote", "N jobs (work given away, in lockstep)");
  std::printf("  %4s | %6s %5s %13s %7s %10s | %6s %13s %7s | %12s %7s %6s\n", "N", "pieces",
              "depth", "busiest", "share", "division", "pieces", "busiest", "share", "rounds",
              "share", "given");
  for (const balance_row& r : b.rows)
    std::printf(
        "  %4u | %6llu %5zu %13llu %6.2fx %8.2f s | %6llu %13llu %6.2fx | %12llu %6.2fx %6llu\n",
        r.workers, static_cast<unsigned long long>(r.pieces), r.depth,
        static_cast<unsigned long long>(r.busiest), r.share, r.divide_seconds,
        static_cast<unsigned long long>(r.counted_pieces),
        static_cast<unsigned long long>(r.counted_busiest), r.counted_share,
        static_cast<unsigned long long>(r.rounds), r.jobs_share,
        static_cast<unsigned long long>(r.given));
}

// Draws the first failing run's DOT as SVG with Graphviz's dot. "" or why it failed.
std::string write_svg(const std::string& file, const std::vector<one_run>& runs) {
  const auto bug =
      std::find_if(runs.begin(), runs.end(), [](const one_run& x) { return x.r.bug.has_value(); });
  if (bug == runs.end()) return "";
  if (file.find('\'') != std::string::npos) return "--svg: a file name with ' is not supported";
  FILE* p = ::popen(("dot -Tsvg -o '" + file + "' 2>/dev/null").c_str(), "w");
  if (p == nullptr) return "--svg: cannot run Graphviz's dot";
  std::fputs(bug->r.bug->dot.c_str(), p);
  const int status = ::pclose(p);
  if (status != 0)
    return "--svg: Graphviz's dot failed (exit status " + std::to_string(status) +
           "; is the graphviz package installed?)";
  return "";
}

// The node counts of `client` in a merged run's records (stealcheck merge --json), for a run of
// the same variant, model and sites; a usage error for anything else.
std::shared_ptr<const node_counts> read_counts(const model_request& req, const std::string& client,
                                               const std::vector<client_record>& file) {
  const std::string& f = req.counts_file;
  for (const client_record& e : file) {
    if (e.client != client) continue;
    if (e.shard)
      throw harness::usage_error(fmt::format(
          "--counts {}: one shard's file; give the merged one (stealcheck merge --json)", f));
    if (!e.merged)
      throw harness::usage_error(fmt::format(
          "--counts {}: client {} has no node counts (written by stealcheck merge --json)", f,
          client));
    if (e.variant != req.variant || e.model != model_name(req.model) || e.sites != req.sites)
      throw harness::usage_error(fmt::format(
          "--counts {}: counted for {} [{}] sites {}, not this run's variant, model and sites", f,
          e.variant, e.model, nlohmann::json(e.sites).dump()));
    return std::make_shared<node_counts>(counts_from_paths(e.merged->counts, "--counts " + f));
  }
  throw harness::usage_error(fmt::format("--counts {}: no counts of client {}", f, client));
}

void write_outputs(const model_request& req, const std::vector<one_run>& runs,
                   std::uint32_t shard_index, std::uint32_t shard_count) {
  if (!req.dot_file.empty()) {
    std::ofstream f(req.dot_file);
    if (!f) throw harness::usage_error("cannot write DOT file '" + req.dot_file + "'");
    for (const one_run& x : runs)
      if (x.r.bug) f << x.r.bug->dot;
  }
  if (!req.json_file.empty()) {
    std::vector<client_record> records;
    for (const one_run& x : runs) {
      client_record e;
      e.stealcheck_version = harness::version();
      e.variant = req.variant;
      e.client = x.client;
      e.model = model_name(req.model);
      e.sites = req.sites;
      e.complete = x.r.complete;
      e.blocked = x.r.blocked;
      e.blocked_by = {{"spin_assume", x.r.blocked_assume},
                      {"mutex", x.r.blocked_mutex},
                      {"event_bound", x.r.bound_hits}};
      e.exhaustive = !x.r.limit_reached;
      e.seconds = x.r.seconds;
      e.execs_per_second = x.r.execs_per_second();
      if (shard_count > 1)
        e.shard = shard_record{shard_index,
                               shard_count,
                               x.division.pieces,
                               x.division.depth,
                               fmt::format("{:016x}", x.division.fingerprint),
                               x.division.counted_depth,
                               counts_by_path(x.division.counted)};
      if (x.r.bug)
        e.bug = bug_record{std::string(error_name(x.r.bug->kind)), x.r.bug->message, x.r.bug->trace,
                           replay_of(req, x.client, x.r.bug->replay_token)};
      records.push_back(std::move(e));
    }
    std::ofstream out(req.json_file);
    if (!out) throw harness::usage_error("cannot write JSON file '" + req.json_file + "'");
    out << client_records_text(records);
  }
}

// A non-negative integer from the text of a flag or variable, or a usage error naming it.
std::uint32_t shard_number(const std::string& text, const std::string& what) {
  std::uint32_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw harness::usage_error(fmt::format("{}: '{}' is not a shard number", what, text));
  return v;
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> parse_shard(
    const std::string& text, std::uint32_t count, std::optional<std::string> (*env)(const char*)) {
  std::uint32_t index = 0, n = 0;
  if (text == "auto") {
    if (const auto id = env("SLURM_ARRAY_TASK_ID")) {
      const auto total = env("SLURM_ARRAY_TASK_COUNT");
      if (!total) throw harness::usage_error("--shard auto: SLURM_ARRAY_TASK_COUNT is not set");
      const std::uint32_t min =
          shard_number(env("SLURM_ARRAY_TASK_MIN").value_or("0"), "SLURM_ARRAY_TASK_MIN");
      const std::uint32_t raw = shard_number(*id, "SLURM_ARRAY_TASK_ID");
      if (raw < min)
        throw harness::usage_error(
            "--shard auto: SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN");
      index = raw - min;
      n = shard_number(*total, "SLURM_ARRAY_TASK_COUNT");
    } else if (const auto k = env("JOB_COMPLETION_INDEX")) {
      index = shard_number(*k, "JOB_COMPLETION_INDEX");
      const auto from_env = env("STEALCHECK_SHARD_COUNT");
      if (count == 0 && !from_env)
        throw harness::usage_error(
            "--shard auto under a Kubernetes Indexed Job needs --shard-count N or "
            "STEALCHECK_SHARD_COUNT (the Job's completions)");
      n = count != 0 ? count : shard_number(*from_env, "STEALCHECK_SHARD_COUNT");
    } else {
      throw harness::usage_error(
          "--shard auto: neither a Slurm job array (SLURM_ARRAY_TASK_ID) nor a Kubernetes "
          "Indexed Job (JOB_COMPLETION_INDEX) in the environment; give --shard I/N");
    }
  } else {
    const auto slash = text.find('/');
    if (slash == std::string::npos)
      throw harness::usage_error(
          fmt::format("--shard: '{}' is neither I/N (shard I of N, from 0) nor auto", text));
    index = shard_number(text.substr(0, slash), "--shard");
    n = shard_number(text.substr(slash + 1), "--shard");
  }
  if (n == 0 || index >= n)
    throw harness::usage_error(
        fmt::format("--shard: shard {} of {} does not exist (shards are 0 .. N-1)", index, n));
  return {index, n};
}

namespace {

// The request's combinations of options, in one place: a usage error for the first that does not
// hold (each option's own range is CLI11's check in add_model_command).
void validate(const model_request& req) {
  auto no = [](const char* what) { throw harness::usage_error(what); };
  const bool shard = !req.shard.empty(), replay = !req.replay.empty();
  if (shard && (replay || req.max_executions != 0))
    no("--shard explores a fixed share of the tree: not with --replay or --max-executions");
  if (!req.counts_file.empty() && !shard)
    no("--counts divides the tree among shards: only with --shard");
  if (req.balance && (req.estimate || shard || replay || req.max_executions != 0))
    no("--balance explores every piece: not with --estimate, --shard, --replay or "
       "--max-executions");
  if (req.estimate && (shard || replay || req.jobs > 1))
    no("--estimate explores nothing: not with --shard, --replay or --jobs");
  if (req.estimate && req.samples == 0) no("--samples: at least 1");
}

// The clients a request names: the one of --client, else every client but the large ones.
std::vector<clients::client_entry> chosen_clients(const model_request& req, const binding& b) {
  std::vector<clients::client_entry> out;
  for (const auto& cl : b.clients())
    if (req.client.empty() ? !cl.large : cl.name == req.client) out.push_back(cl);
  if (!req.client.empty() && out.empty())
    throw harness::usage_error("unknown client '" + req.client + "' for variant " + req.variant);
  return out;
}

// --balance: how evenly workers would share each client's pieces. Returns the exit code.
int run_balance(const model_request& req, const options& o,
                const std::vector<clients::client_entry>& chosen) {
  int code = 0;
  for (const auto& cl : chosen) {
    const auto t0 = std::chrono::steady_clock::now();
    balance bal = measure_balance(o, cl.run, req.workers);
    bal.total.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_balance(req, std::string(cl.name), bal);
    if (bal.total.bug || bal.total.bound_hits > 0) {
      std::printf(
          "  no balance measured: %s; `%s model %s --client %s` reports it\n",
          bal.total.bug ? bal.total.bug->message.c_str() : "executions cut at the event bound",
          harness::program_name().c_str(), req.variant.c_str(), std::string(cl.name).c_str());
      code = 1;
    }
  }
  return code;
}

}  // namespace

int run_model_command(const model_request& request) {
  // "VARIANT/CLIENT" names one client (`stealcheck model sched/fork2_join.chase_lev`).
  model_request req = request;
  if (const auto slash = req.variant.find('/'); slash != std::string::npos) {
    if (!req.client.empty())
      throw harness::usage_error("give the client either as " + req.variant +
                                 " or with --client, not both");
    req.client = req.variant.substr(slash + 1);
    req.variant.resize(slash);
  }
  validate(req);
  if (!req.replay.empty() && req.client.empty())
    throw harness::usage_error("--replay needs --client");
  const harness::variant* v = harness::find_variant(req.variant);
  if (v == nullptr)
    throw harness::usage_error("unknown variant '" + req.variant + "' (" + harness::program_name() +
                               " list shows them)");
  const binding* b = v->binding<binding>();
  if (b == nullptr)
    throw harness::usage_error("variant '" + req.variant + "' has no model-checker binding");
  options o;
  o.model = req.model;
  o.max_events_per_thread = req.max_events;
  o.max_executions = req.max_executions;
  o.jobs = req.jobs;
  o.stall_seconds = req.stall_seconds;
  o.replay = req.replay;
  o.full_trace = req.full;
  if (std::string e = parse_sites(req, v->info(), o); !e.empty()) throw harness::usage_error(e);
  const std::vector<clients::client_entry> chosen = chosen_clients(req, *b);
  if (!req.replay.empty() && !decode_token(req.replay))
    throw harness::usage_error("malformed replay token '" + req.replay + "'");
  if (req.balance) return run_balance(req, o, chosen);
  if (req.estimate) {
    for (const auto& cl : chosen)
      print_estimate(req, std::string(cl.name),
                     estimate_exploration(o, cl.run, req.samples, req.seed));
    return 0;
  }
  shard_options shard;
  if (!req.shard.empty())
    std::tie(shard.index, shard.count) =
        parse_shard(req.shard, req.shard_count, harness::env_value);
  std::vector<client_record> counts;
  if (!req.counts_file.empty())
    counts = read_client_records(req.counts_file, "--counts " + req.counts_file,
                                 "stealcheck merge --json");
  int code = 0;
  std::vector<one_run> runs;
  for (const auto& cl : chosen) {
    if (!req.counts_file.empty()) shard.counts = read_counts(req, std::string(cl.name), counts);
    shard_result x = [&] {
      const progress_line line(req, cl.name, o);
      return explore_shard(line.watched(), shard, cl.run);
    }();
    runs.push_back({std::string(cl.name), std::move(x.run), std::move(x.division)});
    // a token that does not describe an execution of this client is bad input
    if (runs.back().r.bug && runs.back().r.bug->kind == error_kind::bad_replay)
      throw harness::usage_error(runs.back().r.bug->message);
    print_run(req, runs.back(), shard.index, shard.count);
    if (runs.back().r.bug) code = 1;
  }
  write_outputs(req, runs, shard.index, shard.count);
  if (!req.svg_file.empty())
    if (const std::string e = write_svg(req.svg_file, runs); !e.empty())
      throw harness::usage_error(e);
  return code;
}

void add_model_command(CLI::App& app, int& exit_code) {
  auto req = std::make_shared<model_request>();
  auto model = std::make_shared<std::string>("rc11");
  CLI::App* cmd = app.add_subcommand("model", "exhaustive RC11 model checking of a deque variant");
  cmd->add_option("variant", req->variant, "variant (stealcheck list), or VARIANT/CLIENT")
      ->required();
  auto* one = cmd->add_option("--client", req->client, "one client (default: all)");
  auto all = std::make_shared<bool>(false);
  cmd->add_flag("--all-clients", *all,
                "run every client of the variant except the large ones (the default)")
      ->excludes(one);
  cmd->add_option("--model", *model, "memory model: rc11 or sc");
  cmd->add_option("--site", req->sites, "override a memory-order site: NAME=ORDER");
  cmd->add_option("--replay", req->replay, "re-run exactly the execution of this token");
  cmd->add_option("--dot", req->dot_file, "write the failing execution as Graphviz DOT")
      ->check(harness::output_file());
  cmd->add_option("--svg", req->svg_file,
                  "draw the failing execution (its slice, unless --full) as SVG with Graphviz")
      ->check(harness::output_file());
  cmd->add_flag("--full", req->full,
                "list every event of a failing execution (default: the events of the "
                "operations the failed check is about, and the writes they read)");
  cmd->add_option("--json", req->json_file, "write the results as JSON")
      ->check(harness::output_file());
  cmd->add_option("--max-events", req->max_events, "events per thread before a thread is cut")
      ->check(CLI::Range(1u, hb_clocks::max_events));
  cmd->add_option("--max-executions", req->max_executions,
                  "stop after N executions (not exhaustive; said in the summary)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  cmd->add_option("--jobs", req->jobs,
                  "explorer threads, which give each other work (same counts; a bug is "
                  "re-found sequentially for its report); with --shard, the shard's threads")
      ->check(CLI::Range(1u, 64u));
  cmd->add_flag("--estimate", req->estimate,
                "predict the executions and the time from random paths (Knuth's estimator); "
                "explores nothing");
  cmd->add_option("--samples", req->samples, "random paths of --estimate (default 10000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  cmd->add_option("--seed", req->seed, "seed of --estimate's random paths")
      ->check(harness::seed_value());
  cmd->add_flag("--balance", req->balance,
                "print how evenly N shards (the fixed division) and N jobs (in lockstep) share "
                "the client's executions: the busiest worker against the mean");
  cmd->add_option("--workers", req->workers, "with --balance: the numbers N (default 2,4,8,16,64)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 256u));
  cmd->add_option("--shard", req->shard,
                  "explore shard I of N (I/N, from 0), or auto: from a Slurm job array or a "
                  "Kubernetes Indexed Job; stealcheck merge adds the shards' JSON files up");
  cmd->add_option("--shard-count", req->shard_count,
                  "with --shard auto under a Kubernetes Indexed Job: the number of shards")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--counts", req->counts_file,
                  "with --shard: divide the tree by the executions an earlier run counted "
                  "(the JSON of its stealcheck merge --json) instead of estimates");
  cmd->add_option("--stall-seconds", req->stall_seconds,
                  "end with an error when a model thread runs this long without a model "
                  "operation (an endless loop the event bound cannot see); 0: never")
      ->check(CLI::Range(0u, 86400u));
  cmd->callback([req, model, all, &exit_code, cmd] {
    if (*model != "rc11" && *model != "sc")
      throw harness::usage_error("unknown model '" + *model + "' (rc11 or sc)");
    req->model = *model == "sc" ? memory_model::sc : memory_model::rc11;
    if (cmd->count("--seed") == 0) req->seed = harness::default_seed();
    exit_code = run_model_command(*req);
  });
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
