// Model tests of this project's own: a client of ws_deque written here (not one of stealcheck's
// built-in clients) and a protocol that is not a deque (event_count.hpp), each explored under
// RC11 and SC, with the known-bad twin of each caught beside it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stealcheck/model.hpp>
#include <stealcheck/testing.hpp>
#include <string>

#include "deques/ws_deque.hpp"
#include "event_count.hpp"

namespace model = stealcheck::model;

namespace {

// ws_deque from capacity 2: the owner pushes 1, 2, 3 (the third push grows the array) and pops
// twice while two thieves steal once each; after the join the owner drains. Every value pushed
// is taken exactly once, and none that was not pushed.
template <class Deque>
void grow_under_two_thieves() {
  Deque d(2);
  std::array<std::optional<std::int64_t>, 2> stolen;  // each thief writes its own, read after join
  auto thief = [&](std::size_t k) {
    return model::thread([&d, &stolen, k] {
      if (auto r = d.steal(); r.has_value()) stolen[k] = *r;
    });
  };
  model::thread t1 = thief(0), t2 = thief(1);
  std::array<int, 4> taken{};  // taken[v]: how many times value v came out
  auto take = [&](std::int64_t v) {
    STEALCHECK_ASSERT(v >= 1 && v <= 3, "a value taken was pushed (1, 2 or 3)");
    if (v >= 1 && v <= 3) ++taken[static_cast<std::size_t>(v)];
  };
  for (std::int64_t v = 1; v <= 3; ++v)
    d.push(v);
  for (int i = 0; i < 2; ++i)
    if (auto v = d.pop()) take(*v);
  t1.join();
  t2.join();
  for (const auto& s : stolen)
    if (s) take(*s);
  while (auto v = d.pop())
    take(*v);
  for (std::size_t v = 1; v <= 3; ++v)
    STEALCHECK_ASSERT(taken[v] == 1, "each value pushed is taken exactly once");
}

// One waiter, one notifier: the waiter sleeps only if it saw the condition false after
// announcing itself, and must be woken.
template <class EventCount>
void waiter_and_notifier() {
  EventCount ec;
  model::atomic<int> ready{0};
  model::thread notifier([&] {
    ready.store(1, std::memory_order_release);  // pairs with the waiter's acquire load of ready
    ec.notify();
  });
  const auto key = ec.prepare_wait();
  if (ready.load(std::memory_order_acquire) == 1)
    ec.cancel_wait();
  else
    ec.wait(key);  // a lost wake-up: this never returns (reported as a deadlock)
  notifier.join();
  STEALCHECK_ASSERT(ready.load(std::memory_order_relaxed) == 1, "woken only once ready is set");
}

}  // namespace

STEALCHECK_MODEL_TEST(WsDequeClient, GrowUnderTwoThieves, {.sc = true}) {
  grow_under_two_thieves<example::ws_deque<std::int64_t, model::memory>>();
}

STEALCHECK_MODEL_TEST(EventCount, WaiterAndNotifier, {.sc = true}) {
  waiter_and_notifier<example::event_count<model::memory>>();
}

// The known-bad twins: the same tests must fail, each the way its bug fails.
TEST(KnownBad, WsDequeRelaxedArrayTakesAValueNeverPushed) {
  const model::result r = model::check({}, [] {
    grow_under_two_thieves<example::ws_deque_relaxed_array<std::int64_t, model::memory>>();
  });
  ASSERT_FALSE(r.ok()) << model::summary(r);
  EXPECT_EQ(r.bug->kind, model::error_kind::assertion);
  EXPECT_NE(r.bug->message.find("a value taken was pushed"), std::string::npos)
      << model::summary(r);
}

TEST(KnownBad, EventCountWithoutTheFenceLosesAWakeUp) {
  const model::result r =
      model::check({}, [] { waiter_and_notifier<example::event_count_no_fence<model::memory>>(); });
  ASSERT_FALSE(r.ok()) << model::summary(r);
  EXPECT_EQ(r.bug->kind, model::error_kind::deadlock) << model::summary(r);
  // under SC the missing fence cannot show
  model::options sc;
  sc.model = model::memory_model::sc;
  EXPECT_TRUE(model::check(sc, [] {
                waiter_and_notifier<example::event_count_no_fence<model::memory>>();
              }).ok());
}
// SPDX-License-Identifier: Apache-2.0
