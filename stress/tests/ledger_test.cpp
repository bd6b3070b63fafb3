// The conservation ledger on hand-made runs: it accepts a conserved run and names the value of
// each kind of violation (duplicate, loss, invention), inside its window and beyond it, where
// the state of judged values is forgotten and only counts and fingerprints remain.
#include "stealcheck/detail/stress/ledger.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace stealcheck::stress {
namespace {

// One run: an owner log and `thieves` thief logs on one ledger.
struct run {
  value_ledger ledger;
  std::vector<take_log> logs;
  explicit run(int thieves, bool duplicates_allowed = false,
               std::size_t window = value_ledger::default_window)
      : ledger(duplicates_allowed, window), logs(static_cast<std::size_t>(thieves) + 1) {
    for (auto& l : logs)
      ledger.attach(l);
  }
  void push(std::uint64_t n) {  // ids pushed_ .. pushed_ + n - 1
    for (std::uint64_t i = 0; i < n; ++i, ++pushed_) {
      ledger.pushing(pushed_);
      ledger.pushed(pushed_);
    }
  }
  void take(std::uint64_t id, std::uint32_t thread, taker_kind how = taker_kind::steal) {
    logs[thread].record(id, thread, how, thread == 0 ? pushed_ : value_ledger::no_bound);
  }
  // The text of check()'s fault; its kind is kept in `kind`.
  std::optional<std::string> check() {
    const std::optional<harness::fault> f = ledger.check(pushed_);
    kind = f ? std::optional(f->kind) : std::nullopt;
    return f ? std::optional(f->text) : std::nullopt;
  }
  std::optional<failure_kind> kind;
  std::uint64_t pushed_ = 0;
};

TEST(Ledger, AcceptsAConservedRun) {
  run r(1);
  r.push(3);
  r.take(0, 0, taker_kind::pop);
  r.take(2, 1);
  r.take(1, 0, taker_kind::drain);
  EXPECT_EQ(r.ledger.verdict(), "");
  EXPECT_EQ(r.check(), std::nullopt);
}

TEST(Ledger, NamesADuplicateAsItReturns) {
  run r(2);
  r.push(2);
  r.take(0, 0, taker_kind::pop);
  r.take(1, 0, taker_kind::pop);
  r.take(1, 2);
  EXPECT_EQ(r.ledger.verdict(),
            "value 1 was taken twice: owner pop, then thief 2 steal (judged as it returned)");
  EXPECT_EQ(r.ledger.verdict_kind(), failure_kind::value_taken_twice);
}

TEST(Ledger, NamesALoss) {
  run r(0);
  r.push(3);
  r.take(0, 0, taker_kind::pop);
  r.take(2, 0, taker_kind::drain);
  EXPECT_EQ(r.check(), "value 1 was lost: pushed, never taken, not in the final drain");
  EXPECT_EQ(r.kind, failure_kind::value_lost);
}

TEST(Ledger, NamesAnInvention) {
  run r(1);
  r.push(3);
  r.take(7, 1, taker_kind::steal_into);
  EXPECT_EQ(r.check(),
            "value 7 was never pushed (invented): taken by thief 1 steal_into when 3 values were "
            "pushed");
  EXPECT_EQ(r.kind, failure_kind::value_invented);
}

TEST(Ledger, NamesAnOwnerInventionAsItReturns) {
  run r(0);
  r.push(3);
  r.take(5, 0, taker_kind::pop);
  EXPECT_EQ(r.ledger.verdict(),
            "value 5 was never pushed (invented): owner pop took it when 3 values were pushed "
            "(judged as it returned)");
}

TEST(Ledger, AtLeastOnceAcceptsADuplicateButNotALoss) {
  run r(1, /*duplicates_allowed=*/true);
  r.push(1);
  r.take(0, 0, taker_kind::pop);
  r.take(0, 1);
  EXPECT_EQ(r.ledger.verdict(), "");
  EXPECT_EQ(r.check(), std::nullopt);
  r.push(1);
  EXPECT_EQ(r.check(), "value 1 was lost: pushed, never taken, not in the final drain");
}

// A value whose slot is still held by an older live value waits in the side table: a run that
// keeps more values live than the window has slots is judged exactly.
TEST(Ledger, ValuesBeyondTheWindowAreJudgedExactly) {
  run r(1, false, /*window=*/4);
  r.push(10);
  for (std::uint64_t id = 10; id-- > 0;)
    r.take(id, 1);
  EXPECT_EQ(r.ledger.verdict(), "");
  EXPECT_EQ(r.check(), std::nullopt);

  run lost(1, false, 4);
  lost.push(10);
  for (std::uint64_t id = 0; id < 10; ++id)
    if (id != 6) lost.take(id, 1);
  EXPECT_EQ(lost.check(), "value 6 was lost: pushed, never taken, not in the final drain");
}

// Its memory stays the window's: a million values through a window of 64 slots.
TEST(Ledger, MemoryDoesNotGrowWithTheRun) {
  run r(1, false, /*window=*/64);
  const std::size_t start = r.ledger.bytes();
  for (int round = 0; round < 100000; ++round) {
    r.push(10);
    for (std::uint64_t id = r.pushed_ - 10; id < r.pushed_; ++id)
      r.take(id, 1);
  }
  EXPECT_EQ(r.ledger.bytes(), start);
  EXPECT_EQ(r.ledger.live(r.pushed_), 0U);
  EXPECT_EQ(r.check(), std::nullopt);
}

// A value taken again after its slot was reused: no mark is left to see, the count finds it.
TEST(Ledger, ADuplicateOfAForgottenValueIsFoundByTheCount) {
  run r(1, false, /*window=*/4);
  for (std::uint64_t id = 0; id < 20; ++id) {  // each slot reused five times
    r.push(1);
    r.take(id, 1);
  }
  r.take(3, 0, taker_kind::drain);
  EXPECT_EQ(r.ledger.verdict(), "");
  const auto bad = r.check();
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->find("21 takes of 20 pushed values: a value taken twice"), 0U) << *bad;
}

// A value taken twice after its state was forgotten, and another never taken: the one never
// taken keeps its state (here in the side table) and is named.
TEST(Ledger, ALossBesideAForgottenDuplicateIsNamed) {
  run r(1, false, /*window=*/4);
  r.push(20);
  for (std::uint64_t id = 0; id < 20; ++id)
    r.take(id == 5 ? 4 : id, 1);  // 4 twice, 5 never
  EXPECT_EQ(r.check(), "value 5 was lost: pushed, never taken, not in the final drain");
}

}  // namespace
}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
