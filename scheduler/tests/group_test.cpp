// scheduler/tests/group_test.cpp: task_group on every deque variant, P = 1..4. Properties:
// nqueens is right (array copy per child), nested groups and fork_join inside groups do not
// deadlock, a group wider than a bounded deque runs every task, the first exception reaches
// wait(), groups work from a non-worker thread and can be reused after wait().
#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "scheduler/tests/common.hpp"

namespace stealcheck::scheduler::test {
namespace {

template <class P>
class GroupTest : public ::testing::Test {};
TYPED_TEST_SUITE(GroupTest, pool_types, pool_names);

template <class P>
long nqueens(P& p, int n, int row, std::array<signed char, 16> cols) {
  if (row == n) return 1;
  std::array<long, 16> found{};
  task_group<typename P::deque_type> g(p);
  for (int c = 0; c < n; ++c) {
    bool ok = true;
    for (int r = 0; r < row && ok; ++r) {
      const int d = cols[static_cast<std::size_t>(r)] - c;
      ok = d != 0 && d != row - r && d != r - row;
    }
    if (!ok) continue;
    std::array<signed char, 16> next = cols;  // the child's own copy
    next[static_cast<std::size_t>(row)] = static_cast<signed char>(c);
    g.spawn([&p, &found, n, row, c, next] {
      found[static_cast<std::size_t>(c)] = nqueens(p, n, row + 1, next);
    });
  }
  g.wait();
  long total = 0;
  for (long f : found)
    total += f;
  return total;
}

TYPED_TEST(GroupTest, NQueensIsRightForEveryThreadCount) {
  const int n = full ? 9 : 7;
  const long expected = full ? 352 : 40;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    EXPECT_EQ(p.run([&] { return nqueens(p, n, 0, {}); }), expected) << "threads=" << threads;
  }
}

TYPED_TEST(GroupTest, NestedGroupsAndForkJoinOfRandomShapeLoseNothing) {
  const std::uint64_t seed = announce_seed(mix(std::uint64_t{7} * scale), "NestedGroups");
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads, pool_options{std::chrono::microseconds(50), seed});
    std::atomic<long> nodes{0};
    // Every node spawns 0..5 children through a group; odd nodes split them with fork_join.
    auto visit = [&](auto& self, std::uint64_t h, int depth) -> long {
      nodes.fetch_add(1, std::memory_order_relaxed);
      const int kids = depth == 0 ? 0 : static_cast<int>(h % 6);
      if (h % 2 == 1 && kids >= 2) {
        long a = 0, b = 0;
        fork_join(
            p, [&] { a = self(self, mix(h), depth - 1); },
            [&] { b = self(self, mix(h + 1), depth - 1); });
        return 1 + a + b;
      }
      std::vector<long> sub(static_cast<std::size_t>(kids));
      task_group<typename TypeParam::deque_type> g(p);
      for (int k = 0; k < kids; ++k)
        g.spawn([&, k] {
          sub[static_cast<std::size_t>(k)] =
              self(self, mix(h + static_cast<std::uint64_t>(k)), depth - 1);
        });
      g.wait();
      long total = 1;
      for (long s : sub)
        total += s;
      return total;
    };
    const int depth = full ? 9 : 6;
    const long counted = p.run([&] { return visit(visit, seed, depth); });
    // Serial reference of the same shape.
    auto serial = [&](auto& self, std::uint64_t h, int d) -> long {
      const int kids = d == 0 ? 0 : static_cast<int>(h % 6);
      if (h % 2 == 1 && kids >= 2)
        return 1 + self(self, mix(h), d - 1) + self(self, mix(h + 1), d - 1);
      long total = 1;
      for (int k = 0; k < kids; ++k)
        total += self(self, mix(h + static_cast<std::uint64_t>(k)), d - 1);
      return total;
    };
    const long expected = serial(serial, seed, depth);
    EXPECT_EQ(counted, expected) << "threads=" << threads << " seed=" << seed;
    EXPECT_EQ(nodes.load(), expected) << "threads=" << threads << " seed=" << seed;
  }
}

TYPED_TEST(GroupTest, GroupWiderThanABoundedDequeRunsEveryTask) {
  const int width = 3000;  // steal_half's ring holds 256: pushes fail and run inline
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    std::vector<std::atomic<int>> ran(width);
    p.run([&] {
      task_group<typename TypeParam::deque_type> g(p);
      for (int i = 0; i < width; ++i)
        g.spawn([&ran, i] { ran[static_cast<std::size_t>(i)].fetch_add(1); });
      g.wait();
    });
    for (int i = 0; i < width; ++i)
      ASSERT_EQ(ran[static_cast<std::size_t>(i)].load(), 1) << i;
    EXPECT_EQ(p.stats().tasks, static_cast<std::uint64_t>(width));
  }
}

TYPED_TEST(GroupTest, FirstExceptionReachesWaitAndGroupIsReusable) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    std::atomic<int> ran{0};
    p.run([&] {
      task_group<typename TypeParam::deque_type> g(p);
      for (int i = 0; i < 50; ++i) {
        g.spawn([&ran, i] {
          ran.fetch_add(1);
          if (i % 10 == 3) throw std::logic_error("task " + std::to_string(i));
        });
      }
      EXPECT_THROW(g.wait(), std::logic_error);
      EXPECT_EQ(ran.load(), 50);  // every task ran before wait() rethrew
      for (int i = 0; i < 20; ++i)
        g.spawn([&ran] { ran.fetch_add(1); });
      EXPECT_NO_THROW(g.wait());  // the old exception is gone
      EXPECT_EQ(ran.load(), 70);
    });
  }
}

TYPED_TEST(GroupTest, GroupUsedFromANonWorkerThread) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    std::vector<long> out(8);
    task_group<typename TypeParam::deque_type> g(p);  // owned by the test's main thread
    for (int i = 0; i < 8; ++i)
      g.spawn([&, i] { out[static_cast<std::size_t>(i)] = nqueens(p, 6, 0, {}); });
    g.wait();
    for (long v : out)
      EXPECT_EQ(v, 4);
  }
}

// Regression (CI hang of 2026-11-21): wait() on a non-worker thread used to submit a task that
// blocked a worker until the group's count reached 0. A worker joining a stolen fork_join could
// take that task while one of the group's own tasks sat lower on its stack, and then waited for
// itself forever. Here a is held until its b is stolen, and b until the main thread is in wait()
// (which it enters only once b runs), so the joining worker, and only it, is looking for work
// right when wait() starts. (The sleep only widens
// that window; the test passes or hangs, it never measures time. ctest's TIMEOUT turns a hang
// into a failure.)
TYPED_TEST(GroupTest, NonWorkerWaitNeverBlocksAWorkerUnderItsOwnTask) {
  STEALCHECK_SKIP_IF_OWNER_SHARES(TypeParam)
  for (int round = 0; round < (full ? 20 : 5); ++round) {
    TypeParam p(2);
    std::atomic<bool> b_started{false}, main_waits{false};
    task_group<typename TypeParam::deque_type> g(p);
    g.spawn([&] {
      fork_join(
          p,
          [&] {
            while (!b_started.load())  // until the other worker stole b
              std::this_thread::yield();
          },
          [&] {
            b_started.store(true);
            while (!main_waits.load())
              std::this_thread::yield();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          });
    });
    while (!b_started.load())  // the other worker is in b: the root can only go to the joiner
      std::this_thread::yield();
    main_waits.store(true);
    g.wait();
    EXPECT_TRUE(b_started.load());
  }
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
