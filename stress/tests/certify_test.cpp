// The scenarios of a certificate's bound: every scenario up to the bound is in exactly one
// class, classes differ only by more than the order of their thieves, smallest first, and the
// count before symmetry is the number of ordered scenarios.
#include "stealcheck/detail/stress/certify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace stealcheck::stress::certify {
namespace {

using lincheck::scenario;

// The scenario with its thieves in a canonical order: equal for the scenarios of one class.
std::string canonical(scenario s) {
  std::sort(s.thieves.begin(), s.thieves.end());
  return lincheck::describe(s);
}

// The number of distinct orders of s's thieves (multinomial: k! / prod(count!)).
std::uint64_t orders(const scenario& s) {
  std::map<std::vector<lincheck::thief_step>, int> count;
  for (const auto& t : s.thieves)
    ++count[t];
  std::uint64_t r = 1;
  for (std::size_t i = 2; i <= s.thieves.size(); ++i)
    r *= i;
  for (const auto& [t, n] : count)
    for (int i = 2; i <= n; ++i)
      r /= static_cast<std::uint64_t>(i);
  return r;
}

void expect_classes(const bound& b, bool batch, std::size_t classes, std::uint64_t generated) {
  const std::vector<scenario> all = scenarios(b, batch);
  EXPECT_EQ(all.size(), classes);
  EXPECT_EQ(scenario_count(b, batch), generated);
  std::set<std::string> seen;
  std::uint64_t ordered = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const scenario& s = all[i];
    EXPECT_TRUE(seen.insert(canonical(s)).second) << "two classes of " << canonical(s);
    EXPECT_LE(s.prefix.size(), static_cast<std::size_t>(b.prefix));
    EXPECT_LE(s.owner.size(), static_cast<std::size_t>(b.owner));
    EXPECT_LE(s.thieves.size(), static_cast<std::size_t>(b.thieves));
    for (const auto& t : s.thieves) {
      EXPECT_GE(t.size(), 1u);
      EXPECT_LE(t.size(), static_cast<std::size_t>(b.steals));
      if (!batch) {
        EXPECT_EQ(std::count(t.begin(), t.end(), lincheck::thief_step::steal_batch), 0);
      }
    }
    if (i > 0) {
      EXPECT_LE(steps(all[i - 1]), steps(s)) << "not smallest first at " << i;
    }
    ordered += orders(s);
  }
  EXPECT_EQ(ordered, generated) << "the classes do not cover every ordered scenario once";
}

TEST(Certify, ScenariosCoverTheBoundOnceEachUnderThiefSymmetry) {
  // owner sequences of length 0..1: 3; thief sequences {steal}: thief sets {}, {s}, {s, s}
  expect_classes({.owner = 1, .thieves = 2, .steals = 1, .prefix = 0}, false, 9, 9);
  // batch: thief sequences {s, b}: sets of at most 2: 1 + 2 + 3; ordered 1 + 2 + 4
  expect_classes({.owner = 1, .thieves = 2, .steals = 1, .prefix = 0}, true, 18, 21);
  // a prefix of at most 1: 3 more owner-alone choices each
  expect_classes({.owner = 2, .thieves = 2, .steals = 2, .prefix = 1}, false,
                 std::size_t{7} * 6 * 3, std::uint64_t{7} * 7 * 3);
  // batch, steals <= 2: 6 thief sequences; multisets of at most 3: 1 + 6 + 21 + 56
  expect_classes({.owner = 2, .thieves = 3, .steals = 2, .prefix = 0}, true, std::size_t{7} * 84,
                 std::uint64_t{7} * (1 + 6 + 36 + 216));
}

TEST(Certify, ACountTooLargeToEnumerateSaturates) {
  EXPECT_EQ(scenario_count({.owner = 12, .thieves = 7, .steals = 8, .prefix = 8}, true),
            UINT64_MAX);
}

}  // namespace
}  // namespace stealcheck::stress::certify
// SPDX-License-Identifier: Apache-2.0
