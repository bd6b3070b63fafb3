// verify's model column and loops cut at the per-thread event bound: an execution cut there
// fails the column unless the variant declares that its operations spin (variant_info::spins),
// and then it passes. The same spinning client under both declarations.
#include <gtest/gtest.h>

#include <string>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck::model {
namespace {

// A thief that waits in a loop until the owner has published: every execution in which its
// loads keep reading the initial 0 runs into the event bound; the others complete.
void waits_for_the_owner(client& c) {
  memory::atomic<int> ready{0, "ready"};
  c.spawn([&] {
    while (ready.load(std::memory_order_acquire) == 0) {
    }
  });
  ready.store(1, std::memory_order_release);
  c.join_all();
}

harness::check_cell model_column(bool spins) {
  variant_info info;
  info.name = spins ? "spins_declared" : "spins_undeclared";
  info.spins = spins;
  harness::variant v(info);
  v.bind(binding{[] {
    return std::vector<clients::client_entry>{{"waits_for_the_owner", &waits_for_the_owner}};
  }});
  harness::verify_options o;
  return harness::run_checker(checker(), v, o);
}

TEST(Spins, BoundCutsFailTheModelColumnUnlessTheVariantSpins) {
  const harness::check_cell undeclared = model_column(false);
  EXPECT_EQ(undeclared.verdict, harness::cell_verdict::fail);
  EXPECT_NE(undeclared.failure.find("executions cut at the event bound"), std::string::npos)
      << undeclared.failure;
  EXPECT_NE(undeclared.failure.find("declares .spins = true"), std::string::npos)
      << undeclared.failure;
  // the report names the loop: the thread and the source line it repeats
  EXPECT_NE(undeclared.failure.find("spins_test.cpp:"), std::string::npos) << undeclared.failure;
  const harness::check_cell declared = model_column(true);
  EXPECT_EQ(declared.verdict, harness::cell_verdict::pass) << declared.failure;
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
