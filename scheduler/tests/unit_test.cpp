// scheduler/tests/unit_test.cpp: single-threaded properties of the scheduler's parts: the event
// count's registration and epochs, the group arena's alignment and reuse, the victim generator's
// range and coverage.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

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

template <std::size_t N, std::size_t A>
struct alignas(A) blob {
  unsigned char bytes[N];
};

TEST(GroupArena, AlignsAndGrowsAndReuses) {
  group_arena a;
  std::vector<std::pair<unsigned char*, std::size_t>> got;
  auto take = [&]<class T>(std::type_identity<T>) {
    auto* p = static_cast<unsigned char*>(a.allocate<T>());
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(T), 0u);
    std::memset(p, static_cast<int>(got.size() & 0xff), sizeof(T));
    got.emplace_back(p, sizeof(T));
  };
  for (int i = 0; i < 1000; ++i) {  // 1000 objects: the inline block, then heap blocks
    if (i % 3 == 0) take(std::type_identity<blob<24, 8>>{});
    if (i % 3 == 1) take(std::type_identity<blob<40, 16>>{});
    if (i % 3 == 2) take(std::type_identity<blob<56, 8>>{});
  }
  take(std::type_identity<blob<10000, 8>>{});     // larger than a block: its own block
  for (std::size_t k = 0; k < got.size(); ++k) {  // a later object overwriting one: overlap
    const auto [p, n] = got[k];
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(p[i], static_cast<unsigned char>(k & 0xff)) << "object " << k << " overlaps";
  }
  a.reset();
  void* again = a.allocate<blob<24, 8>>();
  EXPECT_EQ(again, got[0].first) << "reset() must reuse the inline block";
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
// SPDX-License-Identifier: Apache-2.0
