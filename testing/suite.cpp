// testing/suite.cpp: the GoogleTest conformance suite (include/stealcheck/testing.hpp).
#include <cerrno>  // program_invocation_name (glibc)
#include <cstdlib>
#include <deque>
#include <memory>
#include <stealcheck/testing.hpp>
#include <string>

namespace stealcheck::testing {
namespace {

// Variants registered as suites live here for the whole test run (the tests refer to them).
std::deque<harness::variant>& suites() {
  static std::deque<harness::variant> all;
  return all;
}

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (*end != '\0') {
    ADD_FAILURE() << name << "='" << s << "' is not a number";
    return fallback;
  }
  return v;
}

class unit_test : public ::testing::Test {
 public:
  unit_test(harness::check_unit unit, std::string full_name)
      : unit_(std::move(unit)), full_name_(std::move(full_name)) {}

  void TestBody() override {
    harness::verify_options o;
    o.seed = env_number("STEALCHECK_SEED", 1);
    o.scale = static_cast<int>(env_number("STEALCHECK_SCALE", 100));
    if (o.scale < 1) o.scale = 1;
    const std::string rerun = "STEALCHECK_SEED=" + std::to_string(o.seed) + " " +
                              harness::shell_quote(program_invocation_name) +
                              " --gtest_filter=" + full_name_;
    std::printf("seed %llu (rerun: %s)\n", static_cast<unsigned long long>(o.seed), rerun.c_str());
    harness::check_cell cell;
    try {
      cell = unit_.run(o);
    } catch (const harness::usage_error& e) {
      FAIL() << "error: " << e.what();
    }
    if (cell.verdict == harness::cell_verdict::skipped) GTEST_SKIP() << cell.detail;
    if (cell.verdict == harness::cell_verdict::fail) {
      std::string replay = "  rerun this test: " + rerun;
      if (cell.replay) replay += "\n  replay with a CLI that registers it: " + cell.replay->str();
      ADD_FAILURE() << cell.failure << "\n" << replay;
    }
  }

 private:
  harness::check_unit unit_;
  std::string full_name_;
};

}  // namespace

std::vector<harness::checker> conformance_checkers() {
  return {model::checker({model::memory_model::rc11, model::memory_model::sc}),
          stress::lincheck::checker(), stress::checker()};
}

bool register_suite(const char* suite, harness::variant v, const char* file, int line) {
  suites().push_back(std::move(v));
  const harness::variant& registered = suites().back();
  for (const harness::checker& c : conformance_checkers()) {
    for (harness::check_unit& u : c.units(registered)) {
      std::string name = c.name + "_" + u.name;
      std::string full = std::string(suite) + "." + name;
      ::testing::RegisterTest(suite, name.c_str(), nullptr, nullptr, file, line,
                              [u, full]() -> ::testing::Test* { return new unit_test(u, full); });
    }
  }
  return true;
}

}  // namespace stealcheck::testing
// SPDX-License-Identifier: Apache-2.0
