// The scenarios of a certificate's bound: every scenario up to the bound is in exactly one
// class, classes differ only by more than the order of their thieves (with steal@N steps: more
// than a renaming of the thieves), smallest first, and the count before symmetry is the number
// of ordered scenarios.
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

// The text of s's class under renaming its thieves, steal@N targets with them: the least
// describe() over every order of the thieves, by brute force.
std::string renaming_class(const scenario& s) {
  std::vector<std::size_t> at(s.thieves.size());  // at[j]: the new place of thief j
  for (std::size_t j = 0; j < at.size(); ++j)
    at[j] = j;
  std::string least;
  do {
    scenario r = s;
    for (std::size_t j = 0; j < at.size(); ++j) {
      r.thieves[at[j]] = s.thieves[j];
      for (auto& step : r.thieves[at[j]])
        if (step.k == lincheck::thief_step::kind::steal_thief)
          step.from = static_cast<std::uint8_t>(at[step.from - 1U] + 1);
    }
    const std::string text = lincheck::describe(r);
    if (least.empty() || text < least) least = text;
  } while (std::next_permutation(at.begin(), at.end()));
  return least;
}

// Every ordered tuple of k thieves' sequences (1..steals steps of steal, steal_batch and
// steal@1..k) that valid_thief_steps accepts, for k = 0..most: f(thieves) for each.
template <class F>
void each_valid_thief_tuple(int most, int steals, F f) {
  for (int k = 0; k <= most; ++k) {
    std::vector<lincheck::thief_step> letters{lincheck::thief_step::steal,
                                              lincheck::thief_step::steal_batch};
    for (int j = 1; j <= k; ++j)
      letters.push_back(lincheck::thief_step::steal_from(static_cast<std::size_t>(j)));
    std::vector<std::vector<lincheck::thief_step>> seqs;
    auto grow = [&](auto& self, std::vector<lincheck::thief_step>& cur) -> void {
      if (!cur.empty()) seqs.push_back(cur);
      if (static_cast<int>(cur.size()) == steals) return;
      for (auto l : letters) {
        cur.push_back(l);
        self(self, cur);
        cur.pop_back();
      }
    };
    std::vector<lincheck::thief_step> cur;
    grow(grow, cur);
    scenario s;
    auto pick = [&](auto& self) -> void {
      if (static_cast<int>(s.thieves.size()) == k) {
        std::string error;
        if (lincheck::valid_thief_steps(s, error)) f(s);
        return;
      }
      for (const auto& q : seqs) {
        s.thieves.push_back(q);
        self(self);
        s.thieves.pop_back();
      }
    };
    pick(pick);
  }
}

TEST(Certify, StealsFromThievesCoverEveryValidScenarioOnceUnderRenaming) {
  const bound b{.owner = 1, .thieves = 3, .steals = 2, .prefix = 0, .steal_from_thieves = true};
  std::uint64_t generated = 0;
  const std::vector<scenario> all = scenarios(b, true, &generated);
  std::set<std::string> classes;
  std::size_t with_steal_from = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::string error;
    EXPECT_TRUE(lincheck::valid_thief_steps(all[i], error)) << lincheck::describe(all[i]) << error;
    EXPECT_TRUE(classes.insert(renaming_class(all[i])).second)
        << "two classes of " << renaming_class(all[i]);
    if (lincheck::describe(all[i]).find("steal@") != std::string::npos) ++with_steal_from;
    if (i > 0) {
      EXPECT_LE(steps(all[i - 1]), steps(all[i])) << "not smallest first at " << i;
    }
  }
  std::set<std::string> expected;
  std::uint64_t ordered = 0;
  each_valid_thief_tuple(b.thieves, b.steals, [&](const scenario& t) {
    for (const auto& owner : std::vector<std::vector<lincheck::owner_step>>{
             {}, {lincheck::owner_step::push}, {lincheck::owner_step::pop}}) {
      scenario s = t;
      s.owner = owner;
      expected.insert(renaming_class(s));
      ++ordered;
    }
  });
  EXPECT_EQ(classes, expected) << "the classes are not every valid scenario's, up to renaming";
  EXPECT_EQ(generated, ordered);
  EXPECT_LE(generated, scenario_count(b, true));
  // the classes without steal@N are the bound's without the option
  const std::vector<scenario> plain = scenarios({.owner = 1, .thieves = 3, .steals = 2}, true);
  EXPECT_EQ(all.size() - with_steal_from, plain.size());
  EXPECT_GT(with_steal_from, 0u);
}

TEST(Certify, ACountTooLargeToEnumerateSaturates) {
  EXPECT_EQ(scenario_count({.owner = 12, .thieves = 7, .steals = 8, .prefix = 8}, true),
            UINT64_MAX);
}

}  // namespace
}  // namespace stealcheck::stress::certify
// SPDX-License-Identifier: Apache-2.0
