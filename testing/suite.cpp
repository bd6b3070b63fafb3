// testing/suite.cpp: the GoogleTest conformance suite (include/stealcheck/testing.hpp).
#include <algorithm>
#include <cerrno>  // program_invocation_name (glibc)
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <stealcheck/testing.hpp>
#include <string>

#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/stress/fuzz.hpp"
#include "testing/checkers.hpp"

namespace stealcheck::testing {
namespace {

// Variants registered as suites live here for the whole test run (the tests refer to them).
std::deque<variant_handle>& suites() {
  static std::deque<variant_handle> all;
  return all;
}

// The suite's default options, as a test runs them without STEALCHECK_* in the environment.
harness::verify_options default_options() {
  harness::verify_options o;
  o.seed = 1;
  o.scale = 100;
  return o;
}

// STEALCHECK_SEED or STEALCHECK_SCALE; `fallback` (and a test failure) when it is no number.
std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  try {
    return harness::env_number(name).value_or(fallback);
  } catch (const harness::usage_error& e) {
    ADD_FAILURE() << e.what();
    return fallback;
  }
}

// STEALCHECK_REPLAY ("" when unset), said on the test's output when set: the one `what` the
// test then re-runs.
std::string env_replay(const char* what) {
  std::string r = harness::env_value("STEALCHECK_REPLAY").value_or("");
  if (!r.empty()) std::printf("STEALCHECK_REPLAY set: re-running that one %s\n", what);
  return r;
}

// The replay token (--replay) or reproduce string (--reproduce) of a replay command; "" if none.
std::string replay_argument(const harness::command_line& c) {
  for (const auto& [flag, value] : c.options)
    if (flag == "--replay" || flag == "--reproduce") return value;
  return {};
}

// The command without its program name.
std::string arguments(const harness::command_line& c) {
  const std::string line = c.str();
  return line.substr(std::min(line.size(), harness::program_name().size() + 1));
}

class unit_test : public ::testing::Test {
 public:
  unit_test(harness::check_unit unit, std::string full_name)
      : unit_(std::move(unit)), full_name_(std::move(full_name)) {}

  void TestBody() override {
    harness::verify_options o = default_options();
    o.seed = env_number("STEALCHECK_SEED", o.seed);
    o.scale = static_cast<int>(env_number("STEALCHECK_SCALE", static_cast<std::uint64_t>(o.scale)));
    if (o.scale < 1) o.scale = 1;
    o.replay = env_replay("failure");
    const std::string self =
        harness::shell_quote(program_invocation_name) + " --gtest_filter=" + full_name_;
    const std::string rerun = "STEALCHECK_SEED=" + std::to_string(o.seed) + " " + self;
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
      const std::string token = cell.replay ? replay_argument(*cell.replay) : std::string();
      if (!token.empty() && o.replay.empty())
        replay +=
            "\n  replay this failure alone: STEALCHECK_REPLAY=" + harness::shell_quote(token) +
            " " + self;
      if (cell.replay)  // the program is the user's own CLI (stealcheck_add_cli), not stealcheck
        replay += "\n  or with a CLI that registers the deque: <cli> " + arguments(*cell.replay);
      const std::string kind = cell.kind ? std::string(failure_name(*cell.kind)) : "?";
      ADD_FAILURE() << cell.failure << "\n  failure kind: " << kind << "\n" << replay;
    }
  }

 private:
  harness::check_unit unit_;
  std::string full_name_;
};

// One STEALCHECK_MODEL_TEST under one memory model.
class model_test : public ::testing::Test {
 public:
  model_test(model::options o, void (*body)(), std::string full_name)
      : options_(std::move(o)), body_(body), full_name_(std::move(full_name)) {}

  void TestBody() override {
    model::options o = options_;
    o.replay = env_replay("execution");
    const model::result r = model::check(o, body_);
    const std::string self =
        harness::shell_quote(program_invocation_name) + " --gtest_filter=" + full_name_;
    if (r.bug) {
      ADD_FAILURE() << model::headline(*r.bug) << "\n"
                    << r.bug->trace << "  replay this execution alone: STEALCHECK_REPLAY="
                    << harness::shell_quote(r.bug->replay_token) << " " << self;
      return;
    }
    std::printf("%s: %s", std::string(model::model_name(o.model)).c_str(),
                model::summary(r).c_str());
    if (r.complete == 0)
      ADD_FAILURE() << "no execution completed: all " << r.blocked
                    << " were blocked (a spin_until never satisfied, or a mutex always held), so "
                       "the test checked nothing";
  }

 private:
  model::options options_;
  void (*body_)();
  std::string full_name_;
};

}  // namespace

bool register_model_test(const char* suite, const char* name, const model_test_options& o,
                         void (*body)(), const char* file, int line) {
  for (const auto& [on, m] :
       {std::pair{o.rc11, model::memory_model::rc11}, std::pair{o.sc, model::memory_model::sc}}) {
    if (!on) continue;
    model::options opt = o.explore;
    opt.model = m;
    const std::string test = std::string(name) + "_" + std::string(model::model_name(m));
    const std::string full = std::string(suite) + "." + test;
    ::testing::RegisterTest(
        suite, test.c_str(), nullptr, nullptr, file, line,
        [opt, body, full]() -> ::testing::Test* { return new model_test(opt, body, full); });
  }
  return true;
}

std::vector<harness::checker> conformance_checkers() {
  return {model::checker({model::memory_model::rc11, model::memory_model::sc}),
          stress::lincheck::checker(), stress::checker(), stress::fuzz::checker()};
}

bool register_suite(const char* suite, const variant_handle& v, const char* file, int line) {
  suites().push_back(v);
  const harness::variant& registered = detail::bound_variant(suites().back());
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

namespace {

// The conformance checker named `checker`, or nullopt.
std::optional<harness::checker> conformance_checker(std::string_view checker) {
  for (harness::checker& c : conformance_checkers())
    if (c.name == checker) return std::move(c);
  return std::nullopt;
}

}  // namespace

std::vector<std::string> unit_names(const variant_handle& v, std::string_view checker) {
  std::vector<std::string> names;
  if (const std::optional<harness::checker> c = conformance_checker(checker))
    for (const harness::check_unit& u : c->units(detail::bound_variant(v)))
      names.push_back(u.name);
  return names;
}

unit_outcome run_unit(const variant_handle& v, std::string_view checker, std::string_view unit) {
  unit_outcome out;
  const std::optional<harness::checker> c = conformance_checker(checker);
  if (!c) return out;
  for (const harness::check_unit& u : c->units(detail::bound_variant(v))) {
    if (u.name != unit) continue;
    const harness::check_cell cell = u.run(default_options());
    out.found = true;
    out.passed = cell.verdict != harness::cell_verdict::fail;
    out.skipped = cell.verdict == harness::cell_verdict::skipped;
    out.kind = cell.kind;
    out.report = cell.failure;
    // a unit that ran says what it did in its counts; the checker words them as verify does
    out.detail = !cell.detail.empty() || !c->summarize ? cell.detail : c->summarize(1, cell.counts);
    return out;
  }
  return out;
}

}  // namespace stealcheck::testing
// SPDX-License-Identifier: Apache-2.0
