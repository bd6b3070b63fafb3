// The harness on its own: the open registry (a variant registered from this translation
// unit), the one replay builder's quoting, and run_checker's stop-at-first-failure cells.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::harness {
namespace {

struct counting_binding {
  int units;
  int failing_unit;                                     // -1: none
  failure_kind kind = failure_kind::value_taken_twice;  // what the failing unit shows
};

const bool registered = [] {
  variant good({.name = "zz_test_good", .summary = "registered by this test"});
  good.bind(counting_binding{3, -1});
  variant bad({.name = "aa_test_bad", .summary = "registered by this test", .known_bad = true});
  bad.bind(counting_binding{3, 1});
  // known-bads that declare their failure: one shows it, one shows another
  variant right({.name = "ab_test_shows_it",
                 .summary = "registered by this test",
                 .known_bad = true,
                 .must_show = {failure_kind::data_race, failure_kind::value_taken_twice}});
  right.bind(counting_binding{3, 0});
  variant wrong({.name = "ac_test_shows_another",
                 .summary = "registered by this test",
                 .known_bad = true,
                 .must_show = {failure_kind::data_race}});
  wrong.bind(counting_binding{3, 0, failure_kind::crash});
  return add_variant(std::move(good)) && add_variant(std::move(bad)) &&
         add_variant(std::move(right)) && add_variant(std::move(wrong));
}();

// Sites of a correct variant and of a known-bad derived from it: one site shadowed with a
// weaker order (KNOWN-BAD), one broken site that no correct variant has.
constexpr site good_store{"zz::push.store", std::memory_order_release, site_kind::store, "why"};
constexpr site good_load{"zz::steal.load", std::memory_order_acquire, site_kind::load, "why"};
constexpr site bad_store{"zz::push.store", std::memory_order_relaxed, site_kind::store,
                         "KNOWN-BAD: relaxed (no release)"};
constexpr site orphan{"yy::only.here", std::memory_order_relaxed, site_kind::load,
                      "KNOWN-BAD: relaxed"};
constexpr std::array good_sites{&good_store, &good_load};
constexpr std::array bad_sites{&bad_store, &good_load, &orphan};

const bool registered_sites = [] {
  return add_variant(variant({.name = "zz_test_sites", .sites = good_sites})) &&
         add_variant(variant({.name = "zz_test_sites_bad", .known_bad = true, .sites = bad_sites}));
}();

// Known-bads whose bug is in their code: fixed in a correct variant, in a known-bad, in none.
const bool registered_code_fixes = [] {
  auto bad = [](std::string_view name, std::string_view in) {
    return variant({.name = name,
                    .known_bad = true,
                    .fixed_in = {.variant = in, .change = "the check put back"},
                    .sites = good_sites});
  };
  return add_variant(bad("zz_test_code_bad", "zz_test_sites")) &&
         add_variant(bad("zz_test_code_in_bad", "aa_test_bad")) &&
         add_variant(bad("zz_test_code_in_none", "no_such_variant"));
}();

// A known-bad whose bug is in its code is fixed in the registered correct variant it names;
// naming a known-bad or an unknown variant is no fix, and a correct variant has none.
TEST(Registry, KnownBadIsFixedInTheCorrectVariantItNames) {
  ASSERT_TRUE(registered_code_fixes);
  EXPECT_EQ(fixed_in(require_variant("zz_test_code_bad")), &require_variant("zz_test_sites"));
  EXPECT_TRUE(fixed_at(require_variant("zz_test_code_bad")).empty());
  EXPECT_EQ(fixed_in(require_variant("zz_test_code_in_bad")), nullptr);
  EXPECT_EQ(fixed_in(require_variant("zz_test_code_in_none")), nullptr);
  EXPECT_EQ(fixed_in(require_variant("zz_test_sites")), nullptr);
  EXPECT_EQ(fixed_in(require_variant("zz_test_sites_bad")), nullptr);
}

// A known-bad's broken sites are where it is fixed, at the correct variant's order; a correct
// variant has none.
TEST(Registry, KnownBadIsFixedAtItsBrokenSitesWithTheCorrectOrders) {
  ASSERT_TRUE(registered_sites);
  EXPECT_TRUE(fixed_at(require_variant("zz_test_sites")).empty());
  const std::vector<site_fix> fixes = fixed_at(require_variant("zz_test_sites_bad"));
  ASSERT_EQ(fixes.size(), 2u);
  EXPECT_EQ(fixes[0].broken, &bad_store);
  ASSERT_NE(fixes[0].correct, nullptr);
  EXPECT_EQ(fixes[0].correct->name(), "zz_test_sites");
  EXPECT_EQ(fixes[0].order, std::memory_order_release);
  EXPECT_EQ(fixes[1].broken, &orphan);
  EXPECT_EQ(fixes[1].correct, nullptr);
}

// A number from the environment is digits that fit in 64 bits, or an error naming the variable;
// an unset variable is "not given".
TEST(Env, NumberIsDigitsOrAnErrorNamingTheVariable) {
  EXPECT_EQ(env_number("STEALCHECK_TEST_NEVER_SET"), std::nullopt);
  const char* name = "STEALCHECK_SEED";
  EXPECT_EQ(env_number_of(name, "42"), 42u);
  EXPECT_EQ(env_number_of(name, "18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "-1", " 5", "12x", "0x10", "18446744073709551616"}) {
    try {
      (void)env_number_of(name, bad);
      ADD_FAILURE() << "'" << bad << "' was taken for a number";
    } catch (const usage_error& e) {
      EXPECT_EQ(std::string(e.what()), std::string(name) + "='" + bad + "' is not a number");
    }
  }
}

checker counting_checker(int* ran) {
  checker c;
  c.name = "counting";
  c.units = [ran](const variant& v) {
    std::vector<check_unit> units;
    const counting_binding* b = v.binding<counting_binding>();
    if (b == nullptr) return units;
    for (int i = 0; i < b->units; ++i) {
      units.push_back(
          {"unit" + std::to_string(i), [ran, i, b](const verify_options&) {
             ++*ran;
             check_cell cell;
             cell.counts["things"] = 10;
             cell.verdict = i == b->failing_unit ? cell_verdict::fail : cell_verdict::pass;
             if (cell.verdict == cell_verdict::fail) {
               cell.failure = "value 7 taken twice";
               cell.kind = b->kind;
               cell.replay = command_line{"counting", "aa_test_bad", {}}.opt("--seed", 3);
             }
             return cell;
           }});
    }
    return units;
  };
  c.summarize = [](std::size_t n, const std::map<std::string, std::uint64_t>& k) {
    return std::to_string(n) + " units, " + std::to_string(k.at("things")) + " things";
  };
  return c;
}

TEST(Registry, AVariantRegisteredAnywhereIsFoundAndOrdered) {
  ASSERT_TRUE(registered && registered_sites && registered_code_fixes);
  ASSERT_NE(find_variant("zz_test_good"), nullptr);
  EXPECT_EQ(find_variant("no_such_variant"), nullptr);
  EXPECT_THROW(require_variant("no_such_variant"), usage_error);
  const auto all = variants();
  ASSERT_EQ(all.size(), 9u);
  EXPECT_EQ(all[0]->name(), "zz_test_good");  // correct ones first, whatever their names
  EXPECT_EQ(all[1]->name(), "zz_test_sites");
  EXPECT_EQ(all[2]->name(), "aa_test_bad");
  EXPECT_EQ(select_variants("all").size(), 2u);  // "all": the correct ones
  EXPECT_EXIT(add_variant(variant({.name = "zz_test_good"})), ::testing::ExitedWithCode(2),
              "stealcheck: error: variant 'zz_test_good' is registered twice");
  EXPECT_EQ(find_variant("zz_test_good")->binding<int>(), nullptr);
}

TEST(Checker, StopsAtTheFirstFailureAndSumsCounts) {
  int ran = 0;
  const checker c = counting_checker(&ran);
  const check_cell good = run_checker(c, *find_variant("zz_test_good"), verify_options{});
  EXPECT_EQ(good.verdict, cell_verdict::pass);
  EXPECT_EQ(good.detail, "3 units, 30 things");
  EXPECT_EQ(ran, 3);
  const check_cell bad = run_checker(c, *find_variant("aa_test_bad"), verify_options{});
  EXPECT_EQ(bad.verdict, cell_verdict::fail);
  EXPECT_EQ(ran, 5);  // unit2 never ran
  EXPECT_EQ(bad.failure, "unit1: value 7 taken twice");
  EXPECT_EQ(bad.kind, failure_kind::value_taken_twice);
  ASSERT_TRUE(bad.replay.has_value());
  EXPECT_EQ(bad.replay->str(), "stealcheck counting aa_test_bad --seed 3");
}

// A checker whose unit aborts the process on the known-bad variant (stealcheck itself dying,
// not a deque in a child): verify has written the rows done before it, and the fatal-signal
// line names the unit it was running.
checker aborting_checker() {
  checker c;
  c.name = "aborting";
  c.units = [](const variant& v) {
    std::vector<check_unit> units;
    const bool bad = v.info().known_bad;
    units.push_back({"unit0", [bad](const verify_options&) {
                       if (bad) std::abort();
                       check_cell cell;
                       cell.verdict = cell_verdict::pass;
                       return cell;
                     }});
    return units;
  };
  return c;
}

std::string file_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Verify, ACrashKeepsTheRowsDoneAndNamesTheUnit) {
  const std::string out = ::testing::TempDir() + "verify_rows.txt";
  auto run = [&out] {
    if (std::freopen(out.c_str(), "w", stdout) == nullptr) std::_Exit(9);
    CLI::App app;
    int exit_code = 0;
    add_verify_command(app, {aborting_checker()}, exit_code);
    const char* argv[] = {"stealcheck", "verify", "--include-known-bad"};
    app.parse(3, argv);
  };
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  const char* line = "";  // the sanitizers report such faults themselves
#else
  const char* line =
      "stealcheck: error: died of SIGABRT while running aborting/unit0 on aa_test_bad";
#endif
  EXPECT_EXIT(run(), ::testing::KilledBySignal(SIGABRT), line);
  const std::string rows = file_text(out);
  EXPECT_NE(rows.find("zz_test_good"), std::string::npos) << rows;  // written before the crash
  EXPECT_NE(rows.find("| ok"), std::string::npos) << rows;
  EXPECT_EQ(rows.find("aa_test_bad"), std::string::npos) << rows;  // never finished
}

TEST(Replay, QuotesWhatAShellWouldSplit) {
  EXPECT_EQ(shell_quote("push2_pop_steal2"), "push2_pop_steal2");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("v1;0.1"), "'v1;0.1'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  set_program_name("my-stealcheck");
  EXPECT_EQ((command_line{"stress", "x", {}}.opt("--ops", 5).str()),
            "my-stealcheck stress x --ops 5");
  set_program_name("stealcheck");
}

// A known-bad that declares its failure is caught only by a cell that shows it: a failure of
// another kind (here a crash where a data race is due) leaves it not caught, and verify exits 1.
TEST(Verify, AKnownBadIsCaughtOnlyByTheFailureItDeclares) {
  const std::string out = ::testing::TempDir() + "verify_kinds.txt";
  auto run = [&out](const char* variant) {
    if (std::freopen(out.c_str(), "w", stdout) == nullptr) std::_Exit(9);
    CLI::App app;
    int exit_code = 0;
    int ran = 0;
    add_verify_command(app, {counting_checker(&ran)}, exit_code);
    const char* argv[] = {"stealcheck", "verify", variant};
    app.parse(3, argv);
    std::fflush(stdout);
    std::_Exit(exit_code);
  };
  EXPECT_EXIT(run("ab_test_shows_it"), ::testing::ExitedWithCode(0), "");
  std::string rows = file_text(out);
  EXPECT_NE(rows.find("| expected failure: caught (value_taken_twice)"), std::string::npos) << rows;
  EXPECT_NE(rows.find("ab_test_shows_it / counting [value_taken_twice]: unit0"), std::string::npos)
      << rows;
  EXPECT_EXIT(run("ac_test_shows_another"), ::testing::ExitedWithCode(1), "");
  rows = file_text(out);
  EXPECT_NE(rows.find("| KNOWN-BAD NOT CAUGHT: failed as crash, must show data_race"),
            std::string::npos)
      << rows;
}

}  // namespace
}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
