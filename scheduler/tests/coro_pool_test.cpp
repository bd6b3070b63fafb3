// scheduler/tests/coro_pool_test.cpp: the continuation-stealing pool (scheduler/coro_pool.hpp)
// on every deque variant, P = 1..4 (oversubscribed on this 2-core machine). Properties: results
// equal the serial program's, every fork is counted, steal counters are consistent, one worker
// needs exactly the serial program's frames (S1), deep fork chains do not grow the native stack,
// an exception thrown in a stolen child reaches the joiner, and a join that does not wait for
// stolen children (the known-bad policy) is caught by its wrong result. Steals are forced where
// a property needs one: the child waits until its parent's continuation ran elsewhere. No timing
// is asserted; the deadlines only turn a hang into a failure.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "scheduler/coro_serial.hpp"
#include "scheduler/known_bad.hpp"
#include "scheduler/tests/common.hpp"

namespace stealcheck::scheduler::test {
namespace {

template <class P>
class CoroPoolTest : public ::testing::Test {};
TYPED_TEST_SUITE(CoroPoolTest, coro_pool_types, pool_names);

// Both branches forked (bench/coro_kernels.hpp's fib calls the second): two continuations
// per call can be stolen, and the join counts both.
template <class C>
coro_task<std::uint64_t, C> fib(int n) {
  if (n < 2) co_return static_cast<std::uint64_t>(n);
  std::uint64_t r[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    co_await fork(r[i], fib<C>(n - 1 - i));
  co_await join();
  co_return r[0] + r[1];
}

// Forks of fib(n): two per call with n >= 2, i.e. 2 * (fib(n+1) - 1).
std::uint64_t fib_forks(int n) {
  return 2 * (fib_serial(n + 1) - 1);
}

TYPED_TEST(CoroPoolTest, FibEqualsSerialForEveryThreadCountAndCountsEveryFork) {
  const int n = full ? 24 : 17;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    const std::uint64_t r = p.run([&] { return fib<TypeParam>(n); });
    EXPECT_EQ(r, fib_serial(n)) << "threads=" << threads;
    EXPECT_EQ(p.stats().tasks, fib_forks(n)) << "threads=" << threads;
    const scheduler_stats s = quiescent_stats(p);
    EXPECT_EQ(s.steals + s.steal_empty + s.steal_abort, s.steal_attempts);
    if (threads == 1) {
      EXPECT_EQ(s.steal_attempts, 0u);
      EXPECT_EQ(s.steals, 0u);
    }
  }
}

TYPED_TEST(CoroPoolTest, OneWorkerNeedsExactlyTheSerialFrames) {
  const int n = 18;
  std::int64_t s1 = 0;
  EXPECT_EQ(coro_serial::run([&] { return fib<coro_serial>(n); }, &s1), fib_serial(n));
  EXPECT_EQ(s1, n);  // fib(n), fib(n-1), ..., fib(1): the deepest chain of live frames
  TypeParam p(1);
  p.reset_stats();
  EXPECT_EQ(p.run([&] { return fib<TypeParam>(n); }), fib_serial(n));
  EXPECT_EQ(p.peak_frames(), s1);
}

template <class C>
coro_task<std::uint64_t, C> chain(int n) {
  if (n == 0) co_return 0;
  std::uint64_t x = 0;
  co_await fork(x, chain<C>(n - 1));
  co_await join();
  co_return x + 1;
}

// 100,000 nested forks: symmetric transfer keeps the native stack flat (a recursion this deep
// on the default 8 MiB stack would need ~10 MiB with frames of 100 bytes).
TYPED_TEST(CoroPoolTest, DeepForkChainsDoNotGrowTheNativeStack) {
  const int n = full ? 100000 : 20000;
  for (unsigned threads : {1u, 2u}) {
    TypeParam p(threads);
    EXPECT_EQ(p.run([&] { return chain<TypeParam>(n); }), static_cast<std::uint64_t>(n));
  }
}

// The child waits until its parent's continuation ran on a thief (stage >= 1), or 60 s.
bool wait_for_stage(const std::atomic<int>& stage, int at_least, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  // acquire: pairs with the parent's release store of the stage (nothing else is read).
  while (stage.load(std::memory_order_acquire) < at_least) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

template <class C>
coro_task<int, C> child_that_throws_after_steal(const std::atomic<int>& stage) {
  if (!wait_for_stage(stage, 1, std::chrono::seconds(60))) co_return -1;  // never stolen
  throw std::runtime_error("thrown in a stolen child");
}

template <class C>
coro_task<int, C> parent_catching_at_join(std::atomic<int>& stage) {
  int x = 0;
  co_await fork(x, child_that_throws_after_steal<C>(stage));
  // The child still waits, so this continuation runs on a thief.
  stage.store(1, std::memory_order_release);  // release: pairs with wait_for_stage's acquire
  try {
    co_await join();
  } catch (const std::runtime_error& e) {
    co_return std::string(e.what()) == "thrown in a stolen child" ? 42 : -2;
  }
  co_return x;  // -1: the continuation was never stolen
}

TYPED_TEST(CoroPoolTest, ExceptionInAStolenChildReachesTheJoiner) {
  STEALCHECK_SKIP_IF_OWNER_SHARES(TypeParam)
  std::atomic<int> stage{0};
  TypeParam p(2);
  EXPECT_EQ(p.run([&] { return parent_catching_at_join<TypeParam>(stage); }), 42);
  EXPECT_GE(p.stats().steals, 1u);
}

template <class C>
coro_task<int, C> parent_rethrowing(std::atomic<int>& stage) {
  int x = 0;
  co_await fork(x, child_that_throws_after_steal<C>(stage));
  stage.store(1, std::memory_order_release);  // release: pairs with wait_for_stage's acquire
  co_await join();
  co_return x;
}

TYPED_TEST(CoroPoolTest, ExceptionOfTheOutermostCoroutineReachesRun) {
  STEALCHECK_SKIP_IF_OWNER_SHARES(TypeParam)
  std::atomic<int> stage{0};
  TypeParam p(2);
  EXPECT_THROW(p.run([&] { return parent_rethrowing<TypeParam>(stage); }), std::runtime_error);
}

template <class C>
coro_task<int, C> thrower() {
  throw std::logic_error("unstolen");
  co_return 0;
}

template <class C>
coro_task<int, C> parent_of_unstolen_thrower() {
  int x = 0, y = 0;
  co_await fork(x, thrower<C>());
  co_await call(y, thrower<C>());
  try {
    co_await join();
  } catch (const std::logic_error&) {
    co_return 1;
  }
  co_return 0;
}

TYPED_TEST(CoroPoolTest, ExceptionInAnUnstolenChildReachesTheJoiner) {
  TypeParam p(1);
  EXPECT_EQ(p.run([] { return parent_of_unstolen_thrower<TypeParam>(); }), 1);
  EXPECT_EQ(coro_serial::run([] { return parent_of_unstolen_thrower<coro_serial>(); }), 1);
}

// The child returns 7 once the parent has read its result (stage 2), or after 200 ms. A join
// that waits reads 7; one that does not reads 0 before the child returns, every time.
template <class C>
coro_task<int, C> slow_child(const std::atomic<int>& stage) {
  if (!wait_for_stage(stage, 1, std::chrono::seconds(60))) co_return -1;  // never stolen
  wait_for_stage(stage, 2, std::chrono::milliseconds(200));
  co_return 7;
}

template <class C>
coro_task<int, C> parent_reading_after_join(std::atomic<int>& stage) {
  int x = 0;
  co_await fork(x, slow_child<C>(stage));
  stage.store(1, std::memory_order_release);  // on a thief: the child still waits
  co_await join();
  const int r = x;
  stage.store(2, std::memory_order_release);  // release: pairs with wait_for_stage's acquire
  co_return r;
}

TYPED_TEST(CoroPoolTest, JoinWaitsForAStolenChild) {
  STEALCHECK_SKIP_IF_OWNER_SHARES(TypeParam)
  std::atomic<int> stage{0};
  TypeParam p(2);
  EXPECT_EQ(p.run([&] { return parent_reading_after_join<TypeParam>(stage); }), 7);
}

// The known-bad policy must be caught by the same check: its join returns 0 (the child's result
// was not written yet). `stage` outlives the pool, whose destructor waits for the late child.
TEST(CoroPoolKnownBad, JoinThatSkipsStolenChildrenIsCaughtByTheResult) {
  using bad_pool = coro_pool<chase_lev<task*>, coro_policy_join_skips_stolen>;
  std::atomic<int> stage{0};
  bad_pool p(2);
  EXPECT_EQ(p.run([&] { return parent_reading_after_join<bad_pool>(stage); }), 0)
      << "the known-bad join waited for its stolen child: the check would not catch it";
}

TEST(CoroSerial, ForksRunAsCallsInSerialOrder) {
  std::int64_t s1 = 0;
  EXPECT_EQ(coro_serial::run([] { return fib<coro_serial>(20); }, &s1), fib_serial(20));
  EXPECT_EQ(s1, 20);
  EXPECT_EQ(coro_serial::run([] { return chain<coro_serial>(1000); }), 1000u);
}

TEST(FrameArena, ReusesFreedBlocksAndCountsLiveFrames) {
  frame_arena a;
  void* p1 = frame_arena::allocate(&a, 100);
  void* p2 = frame_arena::allocate(&a, 100);
  EXPECT_EQ(a.live(), 2);
  frame_arena::deallocate(&a, p2);
  void* p3 = frame_arena::allocate(&a, 90);  // same 128-byte class: the freed block again
  EXPECT_EQ(p3, p2);
  void* big = frame_arena::allocate(&a, 1 << 16);  // beyond the classes: the heap, counted
  EXPECT_EQ(a.live(), 3);
  EXPECT_EQ(a.peak(), 3);
  for (void* p : {p1, p3, big})
    frame_arena::deallocate(&a, p);
  EXPECT_EQ(a.live(), 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p1) % 16, 0u);
  void* off_pool = frame_arena::allocate(nullptr, 64);  // no arena: the heap, not counted
  frame_arena::deallocate(nullptr, off_pool);
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
