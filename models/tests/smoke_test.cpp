#include <gtest/gtest.h>

#include "stealcheck/detail/models/explore/explore.hpp"

namespace stealcheck::model {
namespace {
using mem = memory;
constexpr auto rlx = std::memory_order_relaxed;

TEST(Smoke, StoreBuffering) {
  options o;
  result r = explore(o, [](client& c) {
    mem::atomic<int> x{0}, y{0};
    c.spawn([&] {
      x.store(1, rlx);
      (void)y.load(rlx);
    });
    c.spawn([&] {
      y.store(1, rlx);
      (void)x.load(rlx);
    });
    c.join_all();
  });
  ASSERT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
  EXPECT_EQ(r.complete, 4u);
}

// A thread's k-th allocation has the same address in every run: a thread re-executed up to a
// recorded CAS compares the same pointers it compared when the CAS was recorded. (With storage
// handed out from a pool in another order each run, the owner's two boxes swap addresses
// between runs and the thief's replayed CAS diverges: a false nondeterminism report.)
TEST(Smoke, PointersStoredInAtomicsReplayAcrossRuns) {
  options o;
  result r = explore(o, [](client& c) {
    mem::atomic<int*> slot{nullptr};
    int* first = mem::create<int>(1);
    int* second = mem::create<int>(2);  // the same size as `first`
    slot.store(first, rlx);
    int* taken = nullptr;
    const auto thief = c.spawn([&] {
      int* seen = slot.load(rlx);
      if (seen != nullptr && slot.compare_exchange_strong(seen, nullptr, rlx, rlx)) taken = seen;
    });
    slot.store(second, rlx);
    c.join(thief);
    c.check(taken == nullptr || *taken == 1 || *taken == 2, "a box that was never stored");
    mem::destroy(first);
    mem::destroy(second);
  });
  ASSERT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
  EXPECT_GT(r.complete, 2u);
}
}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
