// `stealcheck litmus` as a function (run_litmus): exit codes, mismatch lines, located errors,
// directory search and the JSON report.
#include "litmus/suite.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace stealcheck::litmus {
namespace {
namespace fs = std::filesystem;

const char* const sb = R"(C SB-claims-never
(* Expected: rc11=Never execs=3; sc=Never execs=3
   Source: deliberately wrong *)
{ x = 0; y = 0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}
P1 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (0:r0=0 /\ 1:r0=0)
)";

/// A scratch directory, removed at the end of the test.
class LitmusSuite : public ::testing::Test {
 protected:
  fs::path dir =
      fs::temp_directory_path() / ("stealcheck-litmus-test-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::create_directories(dir / "sub"); }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  int run(const litmus_options& opt) { return run_litmus(opt, out, err); }
  std::ostringstream out, err;
};

TEST_F(LitmusSuite, WrongExpectationIsAMismatchWithExitOneAndJson) {
  litmus_options opt;
  opt.paths = {write("sb.litmus", sb)};
  opt.models = {model_kind::rc11, model_kind::sc};
  opt.runner = "reference";
  opt.json_file = (dir / "out.json").string();
  EXPECT_EQ(run(opt), 1);
  EXPECT_NE(out.str().find("MISMATCH SB-claims-never [rc11] " + opt.paths[0] +
                           ": verdict Sometimes, expected Never; execs 4, expected 3"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("MISMATCH SB-claims-never [sc]"), std::string::npos);
  EXPECT_NE(out.str().find("2 runs (1 tests), 1 match, 1 MISMATCH"), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "out.json"));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["verdict"], "Sometimes");
  EXPECT_EQ(j[0]["expected"]["verdict"], "Never");
  EXPECT_EQ(j[0]["match"], false);
  EXPECT_EQ(j[0]["execs"], 4);
  EXPECT_EQ(j[0]["states"].size(), 4u);
  EXPECT_EQ(j[1]["match"], true);
}

TEST_F(LitmusSuite, MalformedFileIsLocatedAndExitsTwo) {
  litmus_options opt;
  opt.paths = {write("ok.litmus", sb), write("bad.litmus", "C bad\n{ x = 0; }\nP0 (x) { }\n")};
  EXPECT_EQ(run(opt), 2);
  EXPECT_NE(err.str().find(opt.paths[1] + ":3:5: expected a parameter type"), std::string::npos)
      << err.str();
  EXPECT_EQ(out.str(), "");  // nothing runs when a file is malformed
}

TEST_F(LitmusSuite, MissingPathExitsTwo) {
  litmus_options opt;
  opt.paths = {(dir / "nope.litmus").string()};
  EXPECT_EQ(run(opt), 2);
  EXPECT_NE(err.str().find("no such file or directory"), std::string::npos);
}

TEST_F(LitmusSuite, DirectoriesAreSearchedRecursivelyForDotLitmusOnly) {
  const std::string a = write("sub/b.litmus", sb), b = write("a.litmus", sb);
  write("notes.txt", "not a test");
  write("c.litmus-negative", "C broken");
  std::vector<std::string> missing;
  const std::vector<std::string> files = collect_litmus_files({dir.string()}, missing);
  EXPECT_TRUE(missing.empty());
  EXPECT_EQ(files, (std::vector<std::string>{b, a}));
}

}  // namespace
}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
