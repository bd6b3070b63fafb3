// `stealcheck model` through CLI11: good runs, a known-bad variant found and replayed, and
// bad input rejected with exit code 2.
#include "stealcheck/detail/models/front/cli.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"

namespace stealcheck::model {
namespace {

// The built-in variants, bound to the model checker only (the registry is open: this test
// registers what it needs).
const bool registered = [] {
  for_each_variant([](auto tag, const variant_info& info) {
    harness::variant v(info);
    bind<decltype(tag)::template deque>(v);
    harness::add_variant(std::move(v));
  });
  return true;
}();

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int run(std::vector<std::string> args) {
  CLI::App app("stealcheck");
  int code = -1;
  add_model_command(app, code);
  args.insert(args.begin(), "stealcheck");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args)
    argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const harness::usage_error& e) {  // bad input: as harness::run_cli reports it
    std::fprintf(stderr, "stealcheck: error: %s\n", e.what());
    return 2;
  }
  return code;
}

TEST(Cli, CorrectVariantOneClient) {
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push_pop_steal2"}), 0);
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push_pop_steal2", "--model", "sc"}), 0);
}

TEST(Cli, KnownBadFoundAndReplayed) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "chase_lev_no_pop_fence", "--client", "push2_pop_steal2"}), 1);
  const std::string out = testing::internal::GetCapturedStdout();
  const auto at = out.find("--replay '");
  ASSERT_NE(at, std::string::npos) << out;
  const auto end = out.find('\'', at + 10);
  const std::string token = out.substr(at + 10, end - at - 10);
  EXPECT_EQ(
      run({"model", "chase_lev_no_pop_fence", "--client", "push2_pop_steal2", "--replay", token}),
      1);
}

TEST(Cli, AllClientsAndOutputFiles) {
  EXPECT_EQ(run({"model", "chase_lev", "--all-clients"}), 0);
  const std::string dir = ::testing::TempDir();
  const std::string dot = dir + "/model_cli_test.dot";
  const std::string json = dir + "/model_cli_test.json";
  EXPECT_EQ(run({"model", "chase_lev_no_push_fence", "--client", "push_pop_steal2", "--dot", dot,
                 "--json", json}),
            1);
  const std::string dots = slurp(dot);
  const std::string js = slurp(json);
  EXPECT_NE(dots.find("digraph"), std::string::npos);
  EXPECT_NE(dots.find("rf"), std::string::npos);
  EXPECT_NE(js.find("\"bug\""), std::string::npos) << js;
  EXPECT_NE(js.find("--replay"), std::string::npos) << js;
}

TEST(Cli, LargeClientOnlyWhenNamedAndExecutionLimitIsSaid) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "chase_lev"}), 0);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.find("push4_pop4_2thieves_steal2"), std::string::npos) << out;
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push4_pop4_2thieves_steal2", "--max-executions",
                 "50"}),
            0);
  out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("push4_pop4_2thieves_steal2 [rc11]: 50 complete"), std::string::npos) << out;
  EXPECT_NE(out.find("NOT exhaustive"), std::string::npos) << out;
}

TEST(Cli, BlockedExecutionsAreCountedByCause) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "locked", "--client", "push2_pop_steal2"}), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  // the locked deque blocks only where a thread waits for the mutex (the count table in
  // models/README.md: 10 complete, 18 blocked)
  EXPECT_NE(out.find("push2_pop_steal2 [rc11]: 10 complete, 18 blocked"), std::string::npos) << out;
  EXPECT_NE(
      out.find("blocked by: 0 a false spin_assume, 18 a lock that read the mutex held, 0 the event "
               "bound of 1000 per thread"),
      std::string::npos)
      << out;
}

TEST(Cli, JobsGiveTheSequentialCountsAndBugs) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push3_pop2_2thieves", "--jobs", "2"}), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("push3_pop2_2thieves [rc11]: 1375 complete, 0 blocked"), std::string::npos)
      << out;
  EXPECT_NE(out.find(", 2 jobs"), std::string::npos) << out;
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"model", "chase_lev_no_pop_fence", "--client", "push2_pop_steal2", "--jobs", "2"}),
            1);
  const std::string bug = testing::internal::GetCapturedStdout();
  EXPECT_NE(bug.find("was taken twice"), std::string::npos) << bug;
}

TEST(Cli, SiteOverrideBreaksTheCorrectVariant) {
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push2_pop_steal2", "--site",
                 "chase_lev::pop.fence=relaxed"}),
            1);
}

TEST(Cli, BadInputExitsWith2) {
  EXPECT_EQ(run({"model", "no_such_variant"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", "nope"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--site", "chase_lev::pop.fence=strong"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--site", "nope=relaxed"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--site", "chase_lev::steal.load_top=release"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--model", "tso"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--max-executions", "many"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--max-executions", "-5"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--max-events", "0"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--max-events", "-1"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--max-events", "32001"}), 2);  // the 16-bit clocks' cap
  EXPECT_EQ(run({"model", "chase_lev", "--jobs", "0"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--jobs", "two"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--jobs", "65"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--stall-seconds", "-1"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--stall-seconds", "a minute"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", "push_pop_steal2", "--replay", "garbage"}), 2);
}

// Options that exclude or need each other: bad input (exit 2) before anything is explored; the
// control, an estimate of one client, runs.
TEST(Cli, OptionCombinationsAreCheckedBeforeExploring) {
  const std::string c = "push2_pop_steal2";
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--shard", "0/2", "--replay", "AAAA"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--shard", "0/2", "--max-executions", "5"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--counts", "merged.json"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--balance", "--estimate"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--balance", "--max-executions", "5"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--estimate", "--jobs", "2"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--estimate", "--samples", "0"}), 2);
  EXPECT_EQ(run({"model", "chase_lev/" + c, "--client", c}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--replay", "AAAA"}), 2);
  EXPECT_EQ(run({"model", "chase_lev", "--client", c, "--estimate", "--samples", "10"}), 0);
}

TEST(Cli, VerifyColumn) {
  ASSERT_TRUE(registered);
  const harness::checker c = checker();
  EXPECT_EQ(c.name, "model");
  for (const char* name : {"chase_lev", "chase_lev_no_push_fence"}) {
    const harness::variant& v = harness::require_variant(name);
    const harness::check_cell cell = harness::run_checker(c, v, harness::verify_options{});
    if (v.info().known_bad) {
      EXPECT_EQ(cell.verdict, harness::cell_verdict::fail);
      ASSERT_TRUE(cell.replay.has_value());
      EXPECT_NE(cell.replay->str().find("--replay"), std::string::npos);
      EXPECT_NE(cell.failure.find("never pushed"), std::string::npos) << cell.failure;
    } else {
      EXPECT_EQ(cell.verdict, harness::cell_verdict::pass) << cell.failure;
      const auto& entries = v.binding<binding>()->clients();
      const std::string n = std::to_string(std::count_if(entries.begin(), entries.end(),
                                                         [](const auto& e) { return !e.large; })) +
                            " clients";
      EXPECT_NE(cell.detail.find(n), std::string::npos) << cell.detail << " (expected " << n << ")";
    }
  }
}

// --shard: I/N, or auto from the engine's variables (a fake environment here).
TEST(Cli, ShardsFromArgumentsSlurmAndKubernetes) {
  static std::map<std::string, std::string> env;
  const auto parse = [](const std::string& text, std::uint32_t count = 0) {
    return parse_shard(text, count, [](const char* n) -> std::optional<std::string> {
      const auto it = env.find(n);
      return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
  };
  EXPECT_EQ(parse("3/8"), std::make_pair(3u, 8u));
  EXPECT_EQ(parse("0/1"), std::make_pair(0u, 1u));
  for (const char* bad : {"8/8", "1/0", "3", "-1/4", "a/4", "1/4x", "auto"})
    EXPECT_THROW(parse(bad), harness::usage_error) << bad;
  env = {
      {"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "8"}};
  EXPECT_EQ(parse("auto"), std::make_pair(4u, 8u));  // arrays may start at 1
  env = {{"SLURM_ARRAY_TASK_ID", "5"}};
  EXPECT_THROW(parse("auto"), harness::usage_error);  // no count
  env = {{"JOB_COMPLETION_INDEX", "2"}};
  EXPECT_THROW(parse("auto"), harness::usage_error);  // no count for an Indexed Job
  EXPECT_EQ(parse("auto", 4), std::make_pair(2u, 4u));
  env = {{"JOB_COMPLETION_INDEX", "2"}, {"STEALCHECK_SHARD_COUNT", "3"}};
  EXPECT_EQ(parse("auto"), std::make_pair(2u, 3u));
  env = {{"JOB_COMPLETION_INDEX", "3"}, {"STEALCHECK_SHARD_COUNT", "3"}};
  EXPECT_THROW(parse("auto"), harness::usage_error);  // index out of range
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
