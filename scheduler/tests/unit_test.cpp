// scheduler/tests/unit_test.cpp: single-threaded properties of the scheduler's parts: the event
// count's registration and epochs, the group arena's alignment and reuse, the victim generator's
// range and coverage, the order of each victim policy, the wait of each idle policy.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "scheduler/event_count.hpp"
#include "scheduler/group_arena.hpp"
#include "scheduler/idle.hpp"
#include "scheduler/search.hpp"
#include "scheduler/task.hpp"
#include "scheduler/victims.hpp"

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

// A round's victims under `policy`, with try_steal succeeding at victim `hit` (none: never).
std::vector<unsigned> round_victims(victim_policy policy, unsigned p, unsigned self,
                                    victim_rng& rng, unsigned& last, unsigned hit = no_victim) {
  std::vector<unsigned> tried;
  task dummy{};
  steal_round_in_order(policy, p, self, rng, last, [&](unsigned v) -> task* {
    tried.push_back(v);
    return v == hit ? &dummy : nullptr;
  });
  return tried;
}

// sweep tries every other worker exactly once per round, never itself, from a start that
// varies; uniform makes P-1 attempts that never name the thief and, over rounds, reach every
// victim.
TEST(Victims, SweepTriesEveryOtherWorkerOnceAndUniformNeverTheThief) {
  for (unsigned p : {1u, 2u, 3u, 5u, 16u}) {
    for (unsigned self = 0; self < p; ++self) {
      victim_rng rng(7 + self);
      unsigned last = no_victim;
      std::set<unsigned> starts;
      std::set<unsigned> reached;
      for (int round = 0; round < 200; ++round) {
        const std::vector<unsigned> s = round_victims(victim_policy::sweep, p, self, rng, last);
        ASSERT_EQ(s.size(), p - 1) << "p=" << p;
        const std::set<unsigned> once(s.begin(), s.end());
        ASSERT_EQ(once.size(), p - 1) << "a victim twice in one sweep, p=" << p;
        ASSERT_EQ(once.count(self), 0u);
        if (!s.empty()) starts.insert(s.front());
        const std::vector<unsigned> u = round_victims(victim_policy::uniform, p, self, rng, last);
        ASSERT_EQ(u.size(), p - 1);
        for (unsigned v : u) {
          ASSERT_NE(v, self);
          ASSERT_LT(v, p);
          reached.insert(v);
        }
      }
      EXPECT_EQ(starts.size(), p - 1) << "the sweep's start is not random, p=" << p;
      EXPECT_EQ(reached.size(), p - 1) << "uniform missed a victim in 200 rounds, p=" << p;
    }
  }
}

// last_victim goes back first to the worker its last steal succeeded at; a failed attempt there
// forgets it, and the round goes on at random.
TEST(Victims, LastVictimReturnsToItsLastSuccessUntilItFails) {
  victim_rng rng(3);
  unsigned last = no_victim;
  const unsigned p = 8, self = 2;
  std::vector<unsigned> r = round_victims(victim_policy::last_victim, p, self, rng, last, 5);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.back(), 5u);
  EXPECT_EQ(last, 5u);
  r = round_victims(victim_policy::last_victim, p, self, rng, last, 5);
  EXPECT_EQ(r, std::vector<unsigned>{5u}) << "the last victim first, and only it";
  r = round_victims(victim_policy::last_victim, p, self, rng, last);  // 5 has nothing now
  ASSERT_EQ(r.size(), p) << "the last victim, then a uniform round";
  EXPECT_EQ(r.front(), 5u);
  EXPECT_EQ(last, no_victim);
  r = round_victims(victim_policy::last_victim, p, self, rng, last);
  EXPECT_EQ(r.size(), p - 1) << "nothing remembered: a uniform round only";
}

// The default keeps the pool's earlier order: with the same generator, uniform's victims are
// the draws below(P-1) shifted past the thief's own index.
TEST(Victims, UniformIsTheGeneratorsDrawsPastTheThief) {
  victim_rng a(11), b(11);
  unsigned last = no_victim;
  const std::vector<unsigned> u = round_victims(victim_policy::uniform, 6, 3, a, last);
  for (unsigned v : u) {
    unsigned want = b.below(5);
    if (want >= 3) ++want;
    EXPECT_EQ(v, want);
  }
}

// The waits between failed attempts: pause yields every fourth failure and pauses 16 times
// otherwise; snooze doubles its pauses from 1 to 64 over seven failures, then yields; yield
// yields every time.
TEST(Idle, EachPolicyWaitsAsItsSourceDoes) {
  for (unsigned f = 1; f <= 12; ++f) {
    const idle_wait p = idle_wait_after(idle_policy::pause, f);
    EXPECT_EQ(p.yield, f % 4 == 0) << f;
    EXPECT_EQ(p.pauses, f % 4 == 0 ? 0u : 16u) << f;
    const idle_wait y = idle_wait_after(idle_policy::yield, f);
    EXPECT_TRUE(y.yield);
    EXPECT_EQ(y.pauses, 0u);
  }
  unsigned want = 1;
  for (unsigned f = 1; f <= 7; ++f, want *= 2) {
    const idle_wait s = idle_wait_after(idle_policy::snooze, f);
    EXPECT_EQ(s.pauses, want) << f;
    EXPECT_FALSE(s.yield) << f;
  }
  for (unsigned f = 8; f <= 40; ++f) {
    const idle_wait s = idle_wait_after(idle_policy::snooze, f);
    EXPECT_TRUE(s.yield) << f;
    EXPECT_EQ(s.pauses, 0u) << f;
  }
}

// half lets in at most half of the workers, rounded up, and at least one; force_enter goes past
// the limit; leave says which searcher was the last. any counts nothing and never refuses.
TEST(Search, HalfAdmitsHalfTheWorkersAndTheLastToLeaveIsTold) {
  for (unsigned p : {1u, 2u, 3u, 4u, 7u, 16u}) {
    search_slots s(search_limit::half, p);
    const unsigned max = p == 1 ? 1 : (p + 1) / 2;
    EXPECT_EQ(s.max_searchers(), max) << p;
    for (unsigned k = 0; k < max; ++k)
      EXPECT_TRUE(s.enter()) << p << " searcher " << k;
    EXPECT_FALSE(s.enter()) << p << ": one more than half";
    EXPECT_EQ(s.searching(), max);
    s.force_enter();
    EXPECT_EQ(s.searching(), max + 1);
    for (unsigned k = 0; k < max; ++k)
      EXPECT_FALSE(s.leave()) << p;
    EXPECT_TRUE(s.leave()) << p << ": the last searcher";
    EXPECT_EQ(s.searching(), 0u);
    EXPECT_TRUE(s.enter()) << p << ": a slot is free again";
  }
  search_slots any(search_limit::any, 4);
  for (int k = 0; k < 10; ++k)
    EXPECT_TRUE(any.enter());
  EXPECT_FALSE(any.leave());
  EXPECT_EQ(any.searching(), 0u);
}

}  // namespace
}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
