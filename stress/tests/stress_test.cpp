// Native stress of every correct variant in every scenario (the known-bad one beside them:
// stress_known_bad_test.cpp).
//
// What the sanitizer presets prove here. Under ThreadSanitizer (preset tsan) every scenario
// runs with the TSan substitution of deques/memory.hpp (push's "release fence; relaxed store
// of bottom" becomes a release store): a clean run shows that no plain memory -- the boxed
// payloads of spsc, the boxes of stampede and destructors, the retired chase_lev arrays --
// is accessed without happens-before, *given* that substitution. It does not prove the
// seq_cst fences are needed or sufficient (TSan has no model of them); the model checker
// (models/) and the known-bad test cover those. Under ASan+UBSan a duplicate of a boxed
// value is a double free, and a read of a retired buffer after it is freed is a
// use-after-free, so a clean run also shows the reclamation scheme is safe on these runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/stress/run.hpp"

#ifndef STEALCHECK_TEST_SCALE
#define STEALCHECK_TEST_SCALE 100
#endif

namespace stealcheck::stress {
namespace {

constexpr std::uint64_t scaled(std::uint64_t n) {
  const std::uint64_t s = n * STEALCHECK_TEST_SCALE / 100;
  return s < 1000 ? 1000 : s;
}

template <class Tag>
class StressTest : public ::testing::Test {};
using Correct = ::testing::Types<chase_lev_tag, locked_tag, steal_half_tag, split_tag, the_tag,
                                 abp_tag, fjp_tag, dotnet_tag, idempotent_tag, tokio_tag, go_tag,
                                 crossbeam_lifo_tag, crossbeam_fifo_tag>;
TYPED_TEST_SUITE(StressTest, Correct);

// A config with the built-in variant's description, as the stress checker sets it.
template <class Tag>
config config_of() {
  config c;
  c.describe(builtin_info<Tag>());
  return c;
}

// The variant's scenarios, with the values it can hold (scalar-only variants skip some).
template <class Tag>
result run_variant(scenario_kind s, const config& c) {
  return run<Tag, builtin_info<Tag>().values>(s, c);
}

void expect_conserved(scenario_kind s, const result& r, std::uint64_t seed) {
  EXPECT_TRUE(r.ok) << scenario_name(s) << ": " << r.failure << "\n  seed " << seed
                    << "; replay the same mix: stealcheck stress <variant> --scenario "
                    << scenario_name(s) << " --seed " << seed;
  EXPECT_GT(r.pushed, 0u) << scenario_name(s);
}

// Whether a run really contended (or a pass proves nothing): thieves took values where the
// scenario has them steal, the owner popped where it pops.
bool contended(scenario_kind s, const result& r) {
  if (s == scenario_kind::spsc || s == scenario_kind::no_starvation) return r.stolen > 0;
  if (s == scenario_kind::mixed || s == scenario_kind::resize) return r.popped > 0;
  return true;
}

TYPED_TEST(StressTest, EveryScenarioConserves) {
  for (scenario_kind s : all_scenarios) {
    config c = config_of<TypeParam>();
    c.ops = scaled(100000);
    // On a loaded machine a run's thieves may start after its owner is done; such a run still
    // must conserve, and the next seed is tried (at most 5) until one contends.
    for (std::uint64_t attempt = 0; attempt < 5; ++attempt) {
      c.seed = 42 + attempt;
      std::printf("[ seed     ] %s seed=%llu\n", std::string(scenario_name(s)).c_str(),
                  static_cast<unsigned long long>(c.seed));
      const result r = run_variant<TypeParam>(s, c);
      if (builtin_info<TypeParam>().values == value_support::scalar && needs_any_values(s)) {
        EXPECT_TRUE(r.skipped) << scenario_name(s);  // boxed values: not for a scalar variant
        break;
      }
      expect_conserved(s, r, c.seed);
      if (!r.ok || contended(s, r)) break;
      EXPECT_LT(attempt, 4u) << scenario_name(s) << ": no run of 5 contended";
    }
  }
}

TYPED_TEST(StressTest, SpscStealsEverythingInOrder) {
  if (builtin_info<TypeParam>().values == value_support::scalar)
    GTEST_SKIP() << "spsc pushes boxed values: not for a scalar-only variant";
  config c = config_of<TypeParam>();
  c.ops = scaled(50000);
  const result r = run_variant<TypeParam>(scenario_kind::spsc, c);
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(r.stolen + r.drained, r.pushed);
}

}  // namespace
}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
