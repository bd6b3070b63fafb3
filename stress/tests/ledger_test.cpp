// The conservation ledger on hand-made logs: it accepts a conserved run and names the value
// of each kind of violation (duplicate, loss, invention).
#include "stress/ledger.hpp"

#include <gtest/gtest.h>

namespace stealcheck::stress {
namespace {

TEST(Ledger, AcceptsAConservedRun) {
  take_log owner, thief;
  owner.record(0, 0, taker_kind::pop);
  thief.record(2, 1, taker_kind::steal);
  owner.record(1, 0, taker_kind::drain);
  EXPECT_EQ(check_conservation(3, {&owner, &thief}), std::nullopt);
}

TEST(Ledger, NamesADuplicate) {
  take_log owner, thief;
  owner.record(0, 0, taker_kind::pop);
  owner.record(1, 0, taker_kind::pop);
  thief.record(1, 2, taker_kind::steal);
  EXPECT_EQ(check_conservation(2, {&owner, &thief}),
            "value 1 taken twice: owner pop and thief 2 steal");
}

TEST(Ledger, NamesALoss) {
  take_log owner;
  owner.record(0, 0, taker_kind::pop);
  owner.record(2, 0, taker_kind::drain);
  EXPECT_EQ(check_conservation(3, {&owner}),
            "value 1 lost: pushed, never taken, not in the final drain");
}

TEST(Ledger, NamesAnInvention) {
  take_log thief;
  thief.record(7, 1, taker_kind::steal_into);
  EXPECT_EQ(check_conservation(3, {&thief}),
            "value 7 invented (never pushed; 3 values were): taken by thief 1 steal_into");
}

TEST(Ledger, AtLeastOnceAcceptsADuplicateButNotALoss) {
  take_log owner, thief;
  owner.record(0, 0, taker_kind::pop);
  thief.record(0, 1, taker_kind::steal);
  EXPECT_EQ(check_conservation(1, {&owner, &thief}, true), std::nullopt);
  EXPECT_EQ(check_conservation(2, {&owner, &thief}, true),
            "value 1 lost: pushed, never taken, not in the final drain");
}

}  // namespace
}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
