// scheduler/tests/pool_test.cpp: fork_join and pool::run on every deque variant, P = 1..4
// (oversubscribed on this 2-core machine). Properties: results of recursive kernels are right,
// no task is lost or run twice (exact counts), statistics are consistent, exceptions reach the
// waiter, non-worker threads can submit, an idle pool parks every worker, shutdown is clean.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "scheduler/tests/common.hpp"

namespace stealcheck::scheduler::test {
namespace {

template <class P>
class PoolTest : public ::testing::Test {};
TYPED_TEST_SUITE(PoolTest, pool_types, pool_names);

// fork_join calls of fib(n): one per call with n >= 2, i.e. fib(n+1) - 1.
std::uint64_t fib_forks(int n) {
  return fib_serial(n + 1) - 1;
}

// The workers' CPU clocks see the work they did, and nothing of the calling thread's: a job
// that keeps the workers busy adds to them; a spin of the caller alone (the workers asleep,
// as sleeping() shows) adds at most what the workers' own wake-ups cost, far below the spin.
TYPED_TEST(PoolTest, WorkersCpuSecondsCountTheWorkersAndNotTheCaller) {
  TypeParam p(2);
  const double before = p.workers_cpu_seconds();
  const std::uint64_t r = p.run([&] { return fib(p, full ? 27 : 22); });
  EXPECT_EQ(r, fib_serial(full ? 27 : 22));
  const double after_job = p.workers_cpu_seconds();
  EXPECT_GT(after_job, before) << "the job ran on the workers";
  static_cast<void>(quiescent_stats(p));  // every worker parked
  const double t0 = p.workers_cpu_seconds();
  const auto spin_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (std::chrono::steady_clock::now() < spin_until) {
  }
  const double caller_spin = p.workers_cpu_seconds() - t0;
  EXPECT_LT(caller_spin, 0.1) << "the caller's 200 ms spin was counted as the workers'";
}

TYPED_TEST(PoolTest, FibIsRightForEveryThreadCountAndCountsEveryTask) {
  const int n = full ? 24 : 17;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    const std::uint64_t r = p.run([&] { return fib(p, n); });
    EXPECT_EQ(r, fib_serial(n)) << "threads=" << threads;
    EXPECT_EQ(p.stats().tasks, fib_forks(n)) << "threads=" << threads;  // exact after run()
    // Steal counters are exact only once every worker parked (idle workers keep stealing until
    // their spin time is over); the deadline turns a hang into a failure, it times nothing.
    const scheduler_stats s = quiescent_stats(p);
    EXPECT_EQ(s.steals + s.steal_empty + s.steal_abort, s.steal_attempts);
    // A steal takes its own task; only a batch steal moves more into the thief's deque.
    if constexpr (batch_stealing_deque<typename TypeParam::deque_type>) {
      EXPECT_GE(s.stolen_tasks, s.steals) << "threads=" << threads;
    } else {
      EXPECT_EQ(s.stolen_tasks, s.steals) << "threads=" << threads;
    }
    if (threads == 1) {
      EXPECT_EQ(s.steal_attempts, 0u);
    }
  }
}

TYPED_TEST(PoolTest, EveryForkedLeafRunsExactlyOnce) {
  const std::uint64_t seed = announce_seed(mix(42 + scale), "EveryForkedLeafRunsExactlyOnce");
  const int leaves = full ? 20000 : 3000;
  std::vector<std::atomic<int>> ran(static_cast<std::size_t>(leaves));
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (auto& r : ran)
      r.store(0, std::memory_order_relaxed);
    TypeParam p(threads, pool_options{std::chrono::microseconds(50), seed});
    // Uneven random splits of [lo, hi): some branches are much deeper than others.
    auto split = [&](auto& self, int lo, int hi, std::uint64_t h) -> void {
      if (hi - lo == 1) {
        ran[static_cast<std::size_t>(lo)].fetch_add(1, std::memory_order_relaxed);
        return;
      }
      const int mid = lo + 1 + static_cast<int>(h % static_cast<std::uint64_t>(hi - lo - 1));
      fork_join(
          p, [&] { self(self, lo, mid, mix(h)); }, [&] { self(self, mid, hi, mix(h + 1)); });
    };
    p.run([&] { split(split, 0, leaves, seed); });
    for (int i = 0; i < leaves; ++i)
      ASSERT_EQ(ran[static_cast<std::size_t>(i)].load(), 1)
          << "leaf " << i << " threads=" << threads << " seed=" << seed;
    EXPECT_EQ(p.stats().tasks, static_cast<std::uint64_t>(leaves - 1));
  }
}

TYPED_TEST(PoolTest, ExceptionFromStolenOrInlineBranchReachesTheWaiter) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    std::atomic<int> leaves{0};
    auto tree = [&](auto& self, int depth, int id) -> void {
      if (depth == 0) {
        leaves.fetch_add(1, std::memory_order_relaxed);
        if (id == 37) throw std::runtime_error("leaf 37");
        return;
      }
      fork_join(
          p, [&] { self(self, depth - 1, 2 * id); }, [&] { self(self, depth - 1, 2 * id + 1); });
    };
    try {
      p.run([&] { tree(tree, 8, 0); });
      ADD_FAILURE() << "no exception, threads=" << threads;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "leaf 37");
    }
    // fork_join runs both branches even when one throws: no leaf is skipped.
    EXPECT_EQ(leaves.load(), 256);
    EXPECT_EQ(p.run([&] { return fib(p, 10); }), 55u) << "pool unusable after an exception";
  }
}

TYPED_TEST(PoolTest, WhenBothBranchesThrowTheFirstBranchsExceptionWins) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    for (int round = 0; round < 20; ++round) {
      std::atomic<int> ran{0};
      try {
        p.run([&] {
          fork_join(
              p,
              [&] {
                ran.fetch_add(1, std::memory_order_relaxed);
                static_cast<void>(fib(p, 12));  // time for a thief to take b (threads > 1)
                throw std::runtime_error("a");
              },
              [&] {
                ran.fetch_add(1, std::memory_order_relaxed);
                throw std::logic_error("b");
              });
        });
        ADD_FAILURE() << "no exception, threads=" << threads;
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "a");
      } catch (const std::logic_error&) {
        ADD_FAILURE() << "b's exception reached the caller, threads=" << threads;
      }
      EXPECT_EQ(ran.load(), 2) << "both branches run even when a throws, threads=" << threads;
    }
  }
}

// Forks that run both branches inline: with throttle 0, a chain of fork_joins deeper than a
// bounded deque (256 slots) finds it full at the deepest forks; with throttle 1, every fork
// after the first is throttled. The deepest first branch throws, and so does every second
// branch at an odd depth: fork_join still runs every second branch, and the first branch's
// exception is the one that reaches the caller.
TYPED_TEST(PoolTest, ForksThatRunInlineRunBothBranchesWhenTheFirstThrows) {
  constexpr int depth = 400;
  for (std::uint32_t throttle : {0u, 1u}) {
    for (unsigned threads = 1; threads <= 2; ++threads) {
      pool_options opts;
      opts.throttle = throttle;
      TypeParam p(threads, opts);
      std::vector<std::atomic<int>> b_ran(depth + 1);
      auto chain = [&](auto& self, int d) -> void {
        if (d == 0) throw std::runtime_error("deepest a");
        fork_join(
            p, [&] { self(self, d - 1); },
            [&] {
              b_ran[static_cast<std::size_t>(d)].fetch_add(1, std::memory_order_relaxed);
              if (d % 2 == 1) throw std::logic_error("b");
            });
      };
      const std::string where =
          "throttle=" + std::to_string(throttle) + " threads=" + std::to_string(threads);
      try {
        p.run([&] { chain(chain, depth); });
        ADD_FAILURE() << "no exception, " << where;
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "deepest a");
      } catch (const std::logic_error&) {
        ADD_FAILURE() << "a second branch's exception won, " << where;
      }
      for (int d = 1; d <= depth; ++d)
        ASSERT_EQ(b_ran[static_cast<std::size_t>(d)].load(), 1)
            << "second branch at depth " << d << ", " << where;
    }
  }
}

// The forks of fib(n) that a pool with throttle k pushes on one worker, entered with c tasks
// in the deque: a fork is pushed iff fewer than k wait; its first branch runs with one more.
std::uint64_t throttled_pushes(int n, int c, int k) {
  if (n < 2) return 0;
  if (c >= k) return throttled_pushes(n - 1, c, k) + throttled_pushes(n - 2, c, k);
  return 1 + throttled_pushes(n - 1, c + 1, k) + throttled_pushes(n - 2, c, k);
}

// With a throttle, fib's result is right for every thread count; on one worker (no thief) the
// pool pushes exactly the forks made while fewer than k tasks waited in its deque, so the
// throttle is what decides, and no fork is pushed twice or lost.
TYPED_TEST(PoolTest, ThrottledForksArePushedOnlyBelowTheThrottle) {
  const int n = full ? 24 : 18;
  for (int k : {1, 2, 4, 8}) {
    for (unsigned threads = 1; threads <= 3; ++threads) {
      pool_options opts;
      opts.throttle = static_cast<std::uint32_t>(k);
      TypeParam p(threads, opts);
      EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n))
          << "throttle=" << k << " threads=" << threads;
      const std::uint64_t pushed = p.stats().tasks;
      if (threads == 1) {
        EXPECT_EQ(pushed, throttled_pushes(n, 0, k)) << "throttle=" << k;
      } else {
        EXPECT_LE(pushed, fib_forks(n)) << "throttle=" << k << " threads=" << threads;
      }
    }
  }
  EXPECT_LT(throttled_pushes(n, 0, 4), fib_forks(n) / 2) << "the test would not throttle";
}

// Every victim policy runs fib to the right result on 1-4 workers, and its counters agree
// (each steal was an attempt; attempts = steals + empty + abort once the pool is idle).
TYPED_TEST(PoolTest, EveryVictimPolicyComputesTheRightResult) {
  const int n = full ? 24 : 18;
  for (victim_policy v :
       {victim_policy::uniform, victim_policy::sweep, victim_policy::last_victim}) {
    for (unsigned threads = 1; threads <= 4; ++threads) {
      pool_options opts;
      opts.victims = v;
      TypeParam p(threads, opts);
      const std::string where =
          std::string(victim_policy_name(v)) + " threads=" + std::to_string(threads);
      EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n)) << where;
      while (p.sleeping() < p.size())
        std::this_thread::yield();  // the counters agree once every worker is parked
      const scheduler_stats st = p.stats();
      EXPECT_LE(st.steals, st.steal_attempts) << where;
      EXPECT_EQ(st.steal_attempts, st.steals + st.steal_empty + st.steal_abort) << where;
      if (threads == 1) {
        EXPECT_EQ(st.steal_attempts, 0u) << where;
      }
    }
  }
}

// Every idle policy runs fib to the right result on 1-4 workers, spinning (50 us) or parking at
// once (spin 0).
TYPED_TEST(PoolTest, EveryIdlePolicyComputesTheRightResult) {
  const int n = full ? 22 : 18;
  for (idle_policy idle : {idle_policy::pause, idle_policy::snooze, idle_policy::yield}) {
    for (unsigned threads = 1; threads <= 4; ++threads) {
      for (int spin_us : {0, 50}) {
        pool_options opts;
        opts.idle = idle;
        opts.spin = std::chrono::microseconds(spin_us);
        TypeParam p(threads, opts);
        EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n))
            << idle_policy_name(idle) << " threads=" << threads << " spin=" << spin_us;
      }
    }
  }
}

// With at most half of the workers searching, fib is right on 1-4 workers, spinning or parking at
// once; when the pool is idle again every worker parks and none is left counted as searching.
TYPED_TEST(PoolTest, SearchLimitHalfComputesTheRightResultAndLeavesNoSearcher) {
  const int n = full ? 22 : 18;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (int spin_us : {0, 50}) {
      pool_options opts;
      opts.search = search_limit::half;
      opts.spin = std::chrono::microseconds(spin_us);
      TypeParam p(threads, opts);
      const std::string where =
          "threads=" + std::to_string(threads) + " spin=" + std::to_string(spin_us);
      EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n)) << where;
      while (p.sleeping() < p.size())
        std::this_thread::yield();  // every worker parks: none stays searching
      EXPECT_EQ(p.searching(), 0u) << where;
    }
  }
}

// A batch-stealing deque's pool takes one task per steal with steal_amount::one (the tasks
// moved equal the steals) and may take more with half; the result is right either way.
TYPED_TEST(PoolTest, StealAmountOneMovesOneTaskPerSteal) {
  const int n = full ? 24 : 20;
  for (steal_amount amount : {steal_amount::half, steal_amount::one}) {
    pool_options opts;
    opts.steal = amount;
    TypeParam p(2, opts);
    EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n));
    const scheduler_stats st = p.stats();
    EXPECT_GE(st.stolen_tasks, st.steals);
    if (amount == steal_amount::one || !batch_stealing_deque<typename TypeParam::deque_type>) {
      EXPECT_EQ(st.stolen_tasks, st.steals)
          << (amount == steal_amount::one ? "one" : "half, a deque without steal_into");
    }
  }
}

TYPED_TEST(PoolTest, ManyNonWorkerThreadsSubmitConcurrently) {
  TypeParam p(2);
  const int n = full ? 18 : 14;
  std::vector<std::thread> callers;
  callers.reserve(4);
  std::atomic<int> right{0};
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&, c] {
      for (int k = 0; k < (full ? 20 : 4); ++k) {
        // fork_join called directly from a non-worker thread submits itself via run().
        std::uint64_t x = 0, y = 0;
        fork_join(
            p, [&] { x = fib(p, n - 1 - c % 2); }, [&] { y = fib(p, n - 2 - c % 2); });
        if (x + y == fib_serial(n - c % 2)) right.fetch_add(1);
      }
    });
  }
  for (auto& t : callers)
    t.join();
  EXPECT_EQ(right.load(), 4 * (full ? 20 : 4));
}

TYPED_TEST(PoolTest, IdlePoolParksEveryWorker) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    TypeParam p(threads);
    EXPECT_EQ(p.run([&] { return fib(p, 15); }), 610u);
    // Liveness, not timing: with a 50 us spin every worker must reach the event count.
    wait_until_all_parked(p);
    EXPECT_EQ(p.sleeping(), threads);
    // ...and wakes up again for the next job (no lost wake-up: run() would hang).
    EXPECT_EQ(p.run([&] { return fib(p, 12); }), 144u);
  }
}

TYPED_TEST(PoolTest, CreateAndDestroyRepeatedly) {
  for (int i = 0; i < (full ? 200 : 30); ++i) {
    TypeParam p(1 + static_cast<unsigned>(i % 4));
    if (i % 2 == 0) {
      EXPECT_EQ(p.run([&] { return fib(p, 8); }), 21u);
    }
  }
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
