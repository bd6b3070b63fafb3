// The model checker's JSON records (models/front/run_json.hpp): what a run, a shard and a merge
// write reads back as the same record; node paths survive the round trip; a file with a key
// missing, a field of the wrong type or a path that is not one is rejected with one line.
#include "stealcheck/detail/models/front/run_json.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::model {
namespace {

// A file of this test's own, removed at the end of its scope.
struct temp_file {
  std::string path;
  explicit temp_file(const std::string& name, const std::string& text)
      : path(testing::TempDir() + "run_json_test_" + name) {
    std::ofstream(path) << text;
  }
  ~temp_file() { std::remove(path.c_str()); }
};

// The usage error's line when reading `text` as clients, or "" when it reads.
std::string client_error(const std::string& text) {
  const temp_file f("clients.json", text);
  try {
    (void)read_client_records(f.path, "F", "stealcheck model --json");
  } catch (const harness::usage_error& e) {
    return e.what();
  }
  return "";
}

client_record a_shard() {
  client_record r;
  r.stealcheck_version = "9.9.9";
  r.variant = "chase_lev";
  r.client = "push2_pop_steal2";
  r.model = "rc11";
  r.sites = {"chase_lev::pop.fence=relaxed"};
  r.complete = 40;
  r.blocked = 2;
  r.blocked_by = {{"spin_assume", 2}, {"mutex", 0}, {"event_bound", 0}};
  r.seconds = 0.25;
  r.execs_per_second = 168;
  r.shard = shard_record{1, 3, 12, 4, "0123456789abcdef", 2, {{"", 14}, {"0.1", 6}}};
  r.bug = bug_record{"assertion", "value 2 was taken twice", "thread 0: ...", "stealcheck ..."};
  return r;
}

TEST(RunJson, AShardsClientReadsBackAsWritten) {
  const client_record w = a_shard();
  const temp_file f("shard.json", client_records_text({w}));
  const std::vector<client_record> rs = read_client_records(f.path, f.path, "model");
  ASSERT_EQ(rs.size(), 1u);
  const client_record& r = rs.front();
  EXPECT_EQ(r.variant, w.variant);
  EXPECT_EQ(r.client, w.client);
  EXPECT_EQ(r.sites, w.sites);
  EXPECT_EQ(r.complete, 40u);
  EXPECT_EQ(r.blocked, 2u);
  EXPECT_EQ(r.blocked_by, w.blocked_by);
  EXPECT_EQ(r.execs_per_second, w.execs_per_second);
  ASSERT_TRUE(r.shard.has_value());
  EXPECT_EQ(*r.shard, *w.shard);
  EXPECT_FALSE(r.merged.has_value());
  ASSERT_TRUE(r.bug.has_value());
  EXPECT_EQ(r.bug->message, "value 2 was taken twice");
}

TEST(RunJson, AMergedClientKeepsItsCountsAndNoShard) {
  client_record w = a_shard();
  w.shard.reset();
  w.execs_per_second.reset();
  w.merged = merged_record{3, 20, 1.43, 2, {{"", 42}, {"0", 30}, {"1", 12}}};
  const temp_file f("merged.json", client_records_text({w}));
  const client_record r = read_client_records(f.path, f.path, "merge").front();
  EXPECT_FALSE(r.shard.has_value());
  EXPECT_FALSE(r.execs_per_second.has_value());
  ASSERT_TRUE(r.merged.has_value());
  EXPECT_EQ(r.merged->shards, 3u);
  EXPECT_EQ(r.merged->counts, w.merged->counts);
}

TEST(RunJson, NodePathsRoundTripAndBadOnesAreRejected) {
  const node_counts c{{{}, 42}, {{0}, 30}, {{1, 0, 7}, 12}};
  const node_count_map text = counts_by_path(c);
  EXPECT_EQ(text, (node_count_map{{"", 42}, {"0", 30}, {"1.0.7", 12}}));
  EXPECT_EQ(counts_from_paths(text, "F"), c);
  for (const char* bad : {"x", "1.", ".1", "1..2", "-1", "1.a"}) {
    try {
      (void)counts_from_paths({{bad, 1}}, "F");
      ADD_FAILURE() << "'" << bad << "' read as a path";
    } catch (const harness::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("is not a node's path"), std::string::npos) << e.what();
    }
  }
}

TEST(RunJson, MalformedClientFilesAreOneLineEach) {
  EXPECT_NE(client_error("{}").find("not the JSON of stealcheck model --json"), std::string::npos);
  EXPECT_NE(client_error("[]").find("an array of clients"), std::string::npos);
  EXPECT_NE(client_error("[1]").find("an entry is not a client"), std::string::npos);
  EXPECT_NE(client_error(R"([{"client": "c"}])").find("an entry is not a client"),
            std::string::npos);
  EXPECT_NE(client_error(R"([{"client": 5}])").find("a field of the wrong type"),
            std::string::npos);
  EXPECT_NE(client_error("[{").find("not JSON"), std::string::npos);
  // the control: what a run writes reads
  EXPECT_EQ(client_error(client_records_text({a_shard()})), "");
}

TEST(RunJson, CertificatesReadBackAndMissingKeysAreNamed) {
  certificate_record w;
  w.stealcheck_version = "9.9.9";
  w.variant = "chase_lev";
  w.sites = "1d4f348edf6aa4c3";
  w.model = "rc11";
  w.bound = {3, 2, 2, 0};
  w.capacity = 2;
  w.scenarios_generated = 105;
  w.classes = 90;
  w.classes_run = 30;
  w.complete = 19960;
  w.shard_index = 1;
  w.shard_count = 3;
  w.command = "stealcheck certify chase_lev --owner 3 --shard 1/3";
  const nlohmann::json j = nlohmann::json::parse(certificate_text(w));
  ASSERT_TRUE(is_certificate(j));
  EXPECT_TRUE(j.at("violation").is_null());
  const certificate_record r = certificate_from(j, "F");
  EXPECT_EQ(r.bound, w.bound);
  EXPECT_EQ(r.classes_run, 30u);
  EXPECT_EQ(r.shard_index, 1u);
  EXPECT_EQ(r.shard_count, 3u);
  EXPECT_FALSE(r.violation.has_value());
  nlohmann::json broken = j;
  broken["bound"].erase("steals");
  EXPECT_THROW((void)certificate_from(broken, "F"), harness::usage_error);
  broken = j;
  broken["classes"] = "ninety";
  EXPECT_THROW((void)certificate_from(broken, "F"), harness::usage_error);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
