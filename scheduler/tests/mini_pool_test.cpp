// scheduler/tests/mini_pool_test.cpp: the model-checked mini pool (scheduler/mini_pool.hpp) on
// native_memory and real threads: the same source the model clients run, here with std::atomic
// and a real futex. Properties: fork_join and spawn_and_wait complete with every result
// written, exceptions reach the joiner, shutdown wakes a parked worker.
#include "scheduler/mini_pool.hpp"

#include <stdexcept>
#include <thread>

#include "scheduler/tests/common.hpp"
#include "stealcheck/detail/deques/registry.hpp"

namespace stealcheck::scheduler::test {
namespace {

template <template <class, class> class D>
void fork_join_spawn_and_exceptions_then_shutdown() {
  const int rounds = full ? 2000 : 200;
  mini_pool<D> p(4);
  std::thread w1([&] { p.worker_loop(1); });
  int a = 0, b = 0, c = 0, d = 0, thrown = 0;
  for (int r = 0; r < rounds; ++r) {
    p.fork_join(
        0, [&] { ++a; }, [&] { ++b; });
    auto t1 = [&] { ++c; };
    auto t2 = [&] { ++d; };
    p.spawn_and_wait(0, t1, t2);
    try {
      p.fork_join(
          0, [] {}, [] { throw std::runtime_error("b"); });
    } catch (const std::runtime_error&) {
      ++thrown;
    }
  }
  p.shutdown();
  w1.join();  // hangs (test timeout) if the parked worker missed the shutdown
  EXPECT_EQ(a, rounds);
  EXPECT_EQ(b, rounds);
  EXPECT_EQ(c, rounds);
  EXPECT_EQ(d, rounds);
  EXPECT_EQ(thrown, rounds);
}

TEST(MiniPoolNative, ForkJoinSpawnAndExceptionsThenShutdown) {
  fork_join_spawn_and_exceptions_then_shutdown<stealcheck::detail::chase_lev_default>();
}

// A deque whose thieves take only shared items: its idle worker parks instead of retrying.
TEST(MiniPoolNative, ForkJoinSpawnAndExceptionsThenShutdownOnSplit) {
  fork_join_spawn_and_exceptions_then_shutdown<stealcheck::detail::split_default>();
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
