// The case studies as tests (docs/case-studies/):
//   - each finding is found: the unit of stealcheck's checkers that reports it fails on the
//     transcription with only the *other* fixes applied, naming what is wrong (and, where the
//     finding rests on RC11, passes under SC);
//   - each control (the transcription with every fix) and each deque without a finding passes
//     the whole conformance suite, one test per unit.
#include "case_studies.hpp"

#include <gtest/gtest.h>

#include <stealcheck/testing.hpp>
#include <string>
#include <string_view>

namespace {

using namespace case_studies;
using stealcheck::variant_handle;
using stealcheck::testing::run_unit;
using stealcheck::testing::unit_outcome;

template <template <class, class> class D>
variant_handle variant_of(const stealcheck::variant_info& info) {
  return stealcheck::make_variant<D, value_support::scalar>(info);
}

// The unit fails, and its report says `says` (each string).
void expect_found(const variant_handle& v, std::string_view checker, std::string_view unit,
                  std::initializer_list<std::string_view> says) {
  const unit_outcome out = run_unit(v, checker, unit);
  ASSERT_TRUE(out.found) << v.name() << ": no unit " << checker << "/" << unit;
  ASSERT_FALSE(out.passed) << v.name() << ": " << checker << "/" << unit << " found nothing ("
                           << out.detail << ")";
  for (std::string_view s : says)
    EXPECT_NE(out.report.find(s), std::string::npos) << "report lacks '" << s << "':\n"
                                                     << out.report;
  std::printf("%s %s/%s: %s\n", std::string(v.name()).c_str(), std::string(checker).c_str(),
              std::string(unit).c_str(), out.report.substr(0, out.report.find('\n')).c_str());
}

void expect_passes(const variant_handle& v, std::string_view checker, std::string_view unit) {
  const unit_outcome out = run_unit(v, checker, unit);
  ASSERT_TRUE(out.found) << v.name() << ": no unit " << checker << "/" << unit;
  EXPECT_TRUE(out.passed) << v.name() << ": " << checker << "/" << unit << ":\n" << out.report;
}

// riften: a resized ring published with a relaxed store (an RC11 bug: SC cannot show it).
TEST(Riften, RelaxedBufferStoreIsFound) {
  const auto v = variant_of<riften_atomic_slots>(riften_atomic_slots_info);
  expect_found(v, "model", "push2_pop_steal2_rc11",
               {"value 0 was never pushed", "relaxed store of buffer"});
  expect_passes(v, "model", "push2_pop_steal2_sc");
}

// riften: steal's plain read of a slot races with the owner's reuse of it (under SC too).
TEST(Riften, PlainSlotRaceIsFound) {
  const auto v = variant_of<riften_release_buffer>(riften_release_buffer_info);
  expect_found(v, "model", "push_pop_push_pop_steal_rc11", {"data race on buff"});
  expect_found(v, "model", "push_pop_push_pop_steal_sc", {"data race on buff"});
}

TEST(Riften, AsShippedIsCaught) {
  expect_found(variant_of<riften>(riften_info), "model", "push2_pop_steal2_rc11",
               {"data race on buff", "relaxed store of buffer"});
}

// libfork: the same relaxed publication of a resized ring, with atomic slots.
TEST(Libfork, RelaxedBufferStoreIsFound) {
  const auto v = variant_of<libfork>(libfork_info);
  expect_found(v, "model", "push2_pop_steal2_rc11",
               {"value 0 was never pushed", "relaxed store of m_buf"});
  expect_passes(v, "model", "push2_pop_steal2_sc");
}

// Julia: steal loads the ring pointer relaxed (an RC11 bug), and its memcpy'd slots race.
TEST(Julia, RelaxedArrayLoadIsFound) {
  const auto v = variant_of<julia_atomic_slots>(julia_atomic_slots_info);
  expect_found(v, "model", "push2_pop_steal2_rc11",
               {"value 0 was never pushed", "relaxed read of array"});
  expect_passes(v, "model", "push2_pop_steal2_sc");
}

TEST(Julia, PlainSlotRaceIsFound) {
  const auto v = variant_of<julia_acquire_array>(julia_acquire_array_info);
  expect_found(v, "model", "push_pop_push_pop_steal_rc11", {"data race on buffer"});
  expect_found(v, "model", "push_pop_push_pop_steal_sc", {"data race on buffer"});
}

TEST(Julia, AsShippedIsCaught) {
  expect_found(variant_of<julia>(julia_info), "model", "push2_pop_steal2_rc11",
               {"data race on buffer", "relaxed read of array"});
}

// Boost.Fiber: a resized array published with a relaxed store (RC11), and size_t indices
// that wrap when pop runs on a queue that never held an item.
TEST(BoostFiber, RelaxedArrayStoreIsFound) {
  const auto v = variant_of<boost_fiber_signed_indices>(boost_fiber_signed_indices_info);
  expect_found(v, "model", "push2_pop_steal2_rc11",
               {"value 0 was never pushed", "relaxed store of array_"});
  expect_passes(v, "model", "push2_pop_steal2_sc");
}

TEST(BoostFiber, UnsignedIndexWrapIsFound) {
  const auto v = variant_of<boost_fiber_release_array>(boost_fiber_release_array_info);
  // pop on the fresh queue reads slot SIZE_MAX % capacity and returns it: reported there, as
  // it returns (it leaves bottom_ at SIZE_MAX, and the next push would resize forever)
  expect_found(v, "model", "pop_push_pop_steal2_sc",
               {"value 0 was never pushed", "T0:pop -> 0 returned it"});
}

TEST(BoostFiber, AsShippedIsCaught) {
  expect_found(variant_of<boost_fiber>(boost_fiber_info), "model", "push2_pop_steal2_rc11",
               {"value 0 was never pushed"});
}

}  // namespace

// stdexec's BWoS, both versions: the claim is a relaxed CAS, so a thief reads the slot it
// claimed without synchronizing with the grant that published it (an RC11 bug: SC cannot show
// it). In the second version the model checker finds it in push3_pop2_2thieves.
TEST(StdexecBwos, RelaxedClaimRaceIsFound) {
  const auto v = variant_of<stdexec_bwos>(stdexec_bwos_info);
  expect_found(v, "model", "push3_pop2_2thieves_rc11",
               {"data race on ring_buffer", "relaxed CAS of steal_tail"});
  expect_passes(v, "model", "push3_pop2_2thieves_sc");
}

// The first version, with the claim fixed: a value granted to the thieves is lost (neither
// stolen nor found by the owner's final drain), under RC11 in push3_pop2_2thieves.
TEST(StdexecBwosV1, LostValueIsFound) {
  const auto v = variant_of<stdexec_bwos_v1_acquire_claim>(stdexec_bwos_v1_acquire_claim_info);
  expect_found(v, "model", "push3_pop2_2thieves_rc11", {"value 1 was lost"});
  expect_found(variant_of<stdexec_bwos_v1>(stdexec_bwos_v1_info), "model",
               "push3_pop2_2thieves_rc11", {"value 1 was lost"});
}

// The controls: every fix, the whole conformance suite.
STEALCHECK_CONFORMANCE_SUITE(RiftenFixed, riften_fixed, riften_fixed_info)
STEALCHECK_CONFORMANCE_SUITE(LibforkFixed, libfork_fixed, libfork_fixed_info)
STEALCHECK_CONFORMANCE_SUITE(JuliaFixed, julia_fixed, julia_fixed_info)
STEALCHECK_CONFORMANCE_SUITE(BoostFiberFixed, boost_fiber_fixed, boost_fiber_fixed_info)
STEALCHECK_CONFORMANCE_SUITE(StdexecBwosFixed, stdexec_bwos_fixed, stdexec_bwos_fixed_info)
// The deques without a finding, as shipped.
STEALCHECK_CONFORMANCE_SUITE(TaskflowUnbounded, taskflow_unbounded, taskflow_unbounded_info)
STEALCHECK_CONFORMANCE_SUITE(TaskflowBounded, taskflow_bounded, taskflow_bounded_info)
STEALCHECK_CONFORMANCE_SUITE(OpenCilk, opencilk, opencilk_info)
// SPDX-License-Identifier: Apache-2.0
