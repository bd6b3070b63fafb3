// scheduler/tests/lifo_slot_test.cpp: chase_lev with a LIFO slot in front
// (scheduler/lifo_slot.hpp), as a deque and inside the pool.
//   - Model checker, RC11: the stealable slot passes every deque client of stealcheck's suite
//     (values never lost, invented or taken twice; spec unordered); with push's release or the
//     thief's acquire weakened to relaxed, the thief's read of the value races with the owner's
//     write (the known-bad orders, each caught as a data race). The pool's protocols on the
//     pool under the model checker (fork_join with and without a steal, a group spawning while
//     a worker parks)
//     pass with the slot under every policy, the quiet one included.
//   - Natively, P = 1..4: fib's result and its exact task count under every policy; one task
//     spawned and awaited at a time (the bench's relay) gives the right sum; and with a
//     stealable slot a task waiting in the slot of an owner that never returns to it is run by
//     another worker (the case tokio#4941 made the slot stealable for).
#include "scheduler/lifo_slot.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scheduler/model_clients.hpp"
#include "scheduler/tests/common.hpp"
#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace stealcheck::scheduler::test {
namespace {

template <class T, class Mem>
using slot_steal = lifo_slot<chase_lev<T, Mem>, lifo_slot_policy::stealable>;
template <class T, class Mem>
using slot_quiet = lifo_slot<chase_lev<T, Mem>, lifo_slot_policy::stealable_quiet>;
template <class T, class Mem>
using slot_private = lifo_slot<chase_lev<T, Mem>, lifo_slot_policy::private_slot>;

struct relaxed_push : lifo_slot_orders {
  static constexpr std::memory_order push = std::memory_order_relaxed;
};
struct relaxed_steal : lifo_slot_orders {
  static constexpr std::memory_order steal = std::memory_order_relaxed;
};
template <class T, class Mem>
using slot_relaxed_push = lifo_slot<chase_lev<T, Mem>, lifo_slot_policy::stealable, relaxed_push>;
template <class T, class Mem>
using slot_relaxed_steal = lifo_slot<chase_lev<T, Mem>, lifo_slot_policy::stealable, relaxed_steal>;

constexpr variant_info unordered_info{.thieves_report_empty = false,
                                      .spec = spec::spec_kind::unordered};

TEST(LifoSlotModel, StealableSlotPassesEveryDequeClient) {
  std::uint64_t complete = 0, blocked = 0;
  for (const model::clients::client_entry& c :
       model::clients::clients_for<slot_steal>(unordered_info)) {
    if (c.large) continue;
    SCOPED_TRACE(std::string(c.name));
    const model::result r = model::explore(model::options{}, c.run);
    ASSERT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
    EXPECT_EQ(r.bound_hits, 0u);
    complete += r.complete;
    blocked += r.blocked;
  }
  std::printf("lifo_slot (stealable) on chase_lev: %llu complete, %llu blocked executions\n",
              static_cast<unsigned long long>(complete), static_cast<unsigned long long>(blocked));
}

// The first client (push2_pop_steal2) where the known-bad order fails, and how.
template <template <class, class> class D>
void expect_race(std::string_view what) {
  for (const model::clients::client_entry& c : model::clients::clients_for<D>(unordered_info)) {
    if (c.large) continue;
    const model::result r = model::explore(model::options{}, c.run);
    if (r.ok()) continue;
    EXPECT_EQ(r.bug->kind, model::error_kind::data_race) << r.bug->message;
    EXPECT_NE(r.bug->message.find("box"), std::string::npos) << r.bug->message;
    std::printf("%s: caught by %s: %s\n", std::string(what).c_str(), std::string(c.name).c_str(),
                r.bug->message.c_str());
    return;
  }
  ADD_FAILURE() << what << ": no client caught it";
}

TEST(LifoSlotModel, RelaxedPushRacesOnTheValue) {
  expect_race<slot_relaxed_push>("relaxed push");
}
TEST(LifoSlotModel, RelaxedStealRacesOnTheValue) {
  expect_race<slot_relaxed_steal>("relaxed steal");
}

// The pool's protocols under the model checker with the slot: every task runs once, every result
// reaches its joiner, nobody sleeps forever.
TEST(LifoSlotModel, PoolProtocolsHoldWithTheSlot) {
  std::vector<model::clients::client_entry> clients;
  model_clients::add_clients<slot_private>(clients, "lifo");
  model_clients::add_clients<slot_steal>(clients, "lifo_steal");
  model_clients::add_clients<slot_quiet>(clients, "lifo_steal_quiet");
  for (const model::clients::client_entry& c : clients) {
    const std::string_view name = c.name;
    if (!name.starts_with("fork2_join") && !name.starts_with("steal_while_join") &&
        !name.starts_with("park_while_push"))
      continue;
    if (!full && name.starts_with("park_while_push")) continue;  // minutes under sanitizers
    SCOPED_TRACE(std::string(name));
    const model::result r = model::explore(model::options{}, c.run);
    ASSERT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
    EXPECT_EQ(r.bound_hits, 0u);
    std::printf("%s: %llu complete, %llu blocked\n", std::string(name).c_str(),
                static_cast<unsigned long long>(r.complete),
                static_cast<unsigned long long>(r.blocked));
  }
}

template <class P>
class LifoSlotPool : public ::testing::Test {};
using lifo_pool_types = ::testing::Types<chase_lev_lifo_pool, chase_lev_lifo_steal_pool,
                                         chase_lev_lifo_steal_quiet_pool>;
struct lifo_pool_names {
  template <class P>
  static std::string GetName(int i) {
    static constexpr const char* names[] = {"lifo", "lifo_steal", "lifo_steal_quiet"};
    return names[i];
  }
};
TYPED_TEST_SUITE(LifoSlotPool, lifo_pool_types, lifo_pool_names);

TYPED_TEST(LifoSlotPool, FibIsRightAndEveryForkIsOneTask) {
  const int n = full ? 22 : 16;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    SCOPED_TRACE(threads);
    TypeParam p(threads);
    p.reset_stats();
    EXPECT_EQ(p.run([&] { return fib(p, n); }), fib_serial(n));
    // one pushed task per fork_join: fib(n + 1) - 1
    EXPECT_EQ(p.stats().tasks, fib_serial(n + 1) - 1);
  }
}

TYPED_TEST(LifoSlotPool, OneTaskAtATimeSumsRight) {
  const int rounds = full ? 20000 : 2000;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    SCOPED_TRACE(threads);
    TypeParam p(threads);
    const std::uint64_t sum = p.run([&] {
      std::uint64_t s = 0;
      for (int i = 0; i < rounds; ++i) {
        std::uint64_t out = 0;
        task_group<typename TypeParam::deque_type> g(p);
        g.spawn([&out, i] { out = mix(static_cast<std::uint64_t>(i)); });
        g.wait();
        s += out;
      }
      return s;
    });
    std::uint64_t expected = 0;
    for (int i = 0; i < rounds; ++i)
      expected += mix(static_cast<std::uint64_t>(i));
    EXPECT_EQ(sum, expected);
  }
}

// The owner spawns a task into its slot and then waits, without popping, until the task has
// run: only another worker can run it. The 60 s deadline turns a hang into a failure (after
// which the owner runs the task itself, at the group's wait).
TEST(LifoSlotPool, AnotherWorkerRunsTheTaskInTheSlotOfABusyOwner) {
  chase_lev_lifo_steal_pool p(2);
  const bool ran_elsewhere = p.run([&] {
    std::atomic<bool> ran{false};
    task_group<chase_lev_lifo_steal_pool::deque_type> g(p);
    g.spawn([&ran] { ran.store(true, std::memory_order_release); });  // pairs with the load
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!ran.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    const bool before_wait = ran.load(std::memory_order_acquire);
    g.wait();
    return before_wait;
  });
  EXPECT_TRUE(ran_elsewhere);
  EXPECT_GE(p.stats().steals, 1u);
}

}  // namespace
}  // namespace stealcheck::scheduler::test
// SPDX-License-Identifier: Apache-2.0
