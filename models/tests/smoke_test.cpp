#include <gtest/gtest.h>

#include "models/explore/explore.hpp"

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
}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
