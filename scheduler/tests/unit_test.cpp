// scheduler/tests/unit_test.cpp: single-threaded properties of the scheduler's parts: the event
// count's registration and epochs, the group arena's alignment and reuse, the victim generator's
// range and coverage.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "scheduler/event_count.hpp"
#include "scheduler/group_arena.hpp"
#include "scheduler/task.hpp"

namespace stealcheck::scheduler {
namespace {

TEST(EventCount, NotifyAfterPrepareChangesTheKeySoWaitReturns) {
  event_count ec;
  const std::uint32_t key = ec.prepare_wait();
  EXPECT_EQ(ec.sleepers(), 1u);
  ec.notify_one();  // a wake-up between prepare and wait must not be lost
  ec.wait(key);     // returns at once: the word differs from key (would hang otherwise)
  EXPECT_EQ(ec.sleepers(), 0u);
}

TEST(EventCount, CancelUnregisters) {
  event_count ec;
  (void)ec.prepare_wait();
  (void)ec.prepare_wait();
  EXPECT_EQ(ec.sleepers(), 2u);
  ec.cancel_wait();
  ec.cancel_wait();
  EXPECT_EQ(ec.sleepers(), 0u);
}

TEST(EventCount, HintIsThrottledUntilTheSleeperLeaves) {
  event_count ec;
  ec.hint_one();  // no sleeper: nothing happens
  EXPECT_EQ(ec.snapshot(), 0u);
  const std::uint32_t key = ec.prepare_wait();
  ec.hint_one();
  const std::uint32_t once = ec.snapshot();
  EXPECT_EQ(once, key + event_count::epoch_one + event_count::signalled);
  ec.hint_one();  // throttled: one wake-up already in flight, the word must not move
  EXPECT_EQ(ec.snapshot(), once);
  ec.wait(key);  // returns: the hint bumped the epoch; leaving clears the throttle
  EXPECT_EQ(ec.snapshot() & (event_count::waiter_mask | event_count::signalled), 0u);
}

TEST(GroupArena, AlignsAndGrowsAndReuses) {
  group_arena a;
  std::set<void*> seen;
  for (int i = 0; i < 1000; ++i) {
    void* p = a.allocate(24 + static_cast<std::size_t>(i % 5) * 8, i % 2 ? 16 : 8);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % (i % 2 ? 16 : 8), 0u);
    EXPECT_TRUE(seen.insert(p).second) << "address handed out twice before reset";
  }
  void* big = a.allocate(10000, 8);  // larger than a block: its own block
  ASSERT_NE(big, nullptr);
  a.reset();
  void* again = a.allocate(24, 8);
  EXPECT_TRUE(seen.count(again) == 1) << "reset() must reuse the inline block";
}

TEST(VictimRng, StaysInRangeAndCoversIt) {
  victim_rng r(12345);
  std::set<std::uint32_t> hit;
  for (int i = 0; i < 10000; ++i) {
    const std::uint32_t v = r.below(7);
    ASSERT_LT(v, 7u);
    hit.insert(v);
  }
  EXPECT_EQ(hit.size(), 7u);
}

}  // namespace
}  // namespace stealcheck::scheduler
