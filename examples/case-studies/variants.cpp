// The case studies' own stealcheck command (stealcheck_add_cli): every shipped deque as
// transcribed (known-bad when a checker finds a bug in it: `verify` must catch it), the same
// code with one fix at a time (each still caught by the other finding), and the controls (every
// fix: must pass every checker). docs/case-studies/ explains each.
#include <stealcheck/register.hpp>

#include "case_studies.hpp"

using namespace case_studies;

STEALCHECK_REGISTER_VARIANT(riften, riften_info)
STEALCHECK_REGISTER_VARIANT(riften_release_buffer, riften_release_buffer_info)
STEALCHECK_REGISTER_VARIANT(riften_atomic_slots, riften_atomic_slots_info)
STEALCHECK_REGISTER_VARIANT(riften_fixed, riften_fixed_info)
STEALCHECK_REGISTER_VARIANT(libfork, libfork_info)
STEALCHECK_REGISTER_VARIANT(libfork_fixed, libfork_fixed_info)
STEALCHECK_REGISTER_VARIANT(julia, julia_info)
STEALCHECK_REGISTER_VARIANT(julia_acquire_array, julia_acquire_array_info)
STEALCHECK_REGISTER_VARIANT(julia_atomic_slots, julia_atomic_slots_info)
STEALCHECK_REGISTER_VARIANT(julia_fixed, julia_fixed_info)
STEALCHECK_REGISTER_VARIANT(boost_fiber, boost_fiber_info)
STEALCHECK_REGISTER_VARIANT(boost_fiber_release_array, boost_fiber_release_array_info)
STEALCHECK_REGISTER_VARIANT(boost_fiber_signed_indices, boost_fiber_signed_indices_info)
STEALCHECK_REGISTER_VARIANT(boost_fiber_fixed, boost_fiber_fixed_info)
STEALCHECK_REGISTER_VARIANT(taskflow_unbounded, taskflow_unbounded_info)
STEALCHECK_REGISTER_VARIANT(taskflow_bounded, taskflow_bounded_info)
STEALCHECK_REGISTER_VARIANT(opencilk, opencilk_info)
STEALCHECK_REGISTER_VARIANT(stdexec_bwos_v1, stdexec_bwos_v1_info)
STEALCHECK_REGISTER_VARIANT(stdexec_bwos_v1_acquire_claim, stdexec_bwos_v1_acquire_claim_info)
STEALCHECK_REGISTER_VARIANT(stdexec_bwos, stdexec_bwos_info)
STEALCHECK_REGISTER_VARIANT(stdexec_bwos_fixed, stdexec_bwos_fixed_info)
// SPDX-License-Identifier: Apache-2.0
