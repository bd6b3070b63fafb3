// scheduler/tests/event_count_test.cpp: the event count with real threads. Property: no lost
// wake-up. Sleepers follow the pool's protocol (prepare_wait, check the condition, wait) for a
// round number; the notifier publishes each new round and calls notify_all (strict) or, in the
// hint variant, notify_one until every sleeper acknowledged. A lost wake-up leaves a sleeper
// blocked: the round then never completes and the test fails at its deadline (a liveness
// deadline, not a timing measurement).
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "scheduler/tests/common.hpp"

namespace stealcheck::scheduler::test {
namespace {

void run_rounds(bool all, int rounds, int sleepers) {
  event_count ec;
  std::atomic<int> round{0}, acked{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(sleepers) + 1);
  for (int s = 0; s < sleepers; ++s) {
    threads.emplace_back([&] {
      int seen = 0;
      while (!stop.load(std::memory_order_acquire)) {
        const std::uint32_t key = ec.prepare_wait();
        if (round.load(std::memory_order_acquire) != seen || stop.load(std::memory_order_acquire)) {
          ec.cancel_wait();
        } else {
          ec.wait(key);
        }
        const int r = round.load(std::memory_order_acquire);
        if (r != seen) {
          seen = r;
          acked.fetch_add(1, std::memory_order_acq_rel);
        }
      }
    });
  }
  for (int r = 1; r <= rounds; ++r) {
    acked.store(0, std::memory_order_relaxed);
    round.store(r, std::memory_order_release);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    if (all) ec.notify_all();
    while (acked.load(std::memory_order_acquire) != sleepers &&
           std::chrono::steady_clock::now() < deadline) {
      if (!all) ec.notify_one();  // one per loop: every sleeper needs its own wake-up
      std::this_thread::yield();
    }
    ASSERT_EQ(acked.load(), sleepers)
        << "lost wake-up in round " << r << (all ? " (notify_all)" : " (notify_one)");
  }
  stop.store(true, std::memory_order_release);
  ec.notify_all();
  for (auto& t : threads)
    t.join();
}

TEST(EventCountThreads, NotifyAllWakesEverySleeperEveryRound) {
  run_rounds(true, full ? 2000 : 200, 3);
}

TEST(EventCountThreads, RepeatedNotifyOneWakesEverySleeper) {
  run_rounds(false, full ? 2000 : 200, 3);
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
