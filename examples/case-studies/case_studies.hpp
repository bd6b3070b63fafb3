// case_studies.hpp: every case study as stealcheck sees it: each shipped deque as transcribed,
// the same code with one fix at a time, and each control (every fix), as deque templates
// D<T, Mem> with their stealcheck::variant_info. variants.cpp registers them all in the case
// studies' CLI; tests/case_studies_test.cpp checks them. docs/case-studies/ explains each.
#pragma once

#include <stealcheck/deque.hpp>

#include "boost_fiber.hpp"
#include "julia.hpp"
#include "libfork.hpp"
#include "opencilk.hpp"
#include "riften.hpp"
#include "stdexec_bwos.hpp"
#include "taskflow.hpp"

namespace case_studies {

using stealcheck::value_support;

// What every transcription here is: 8-byte values, a ring that starts with one slot (so the
// model clients grow it; the bounded one has two), no memory-order sites of stealcheck's own.
inline constexpr stealcheck::variant_info shipped(std::string_view name, std::string_view summary,
                                                  std::string_view bug = {}) {
  stealcheck::variant_info i;
  i.name = name;
  i.summary = summary;
  i.known_bad = !bug.empty();
  i.known_bad_reason = bug;
  i.values = value_support::scalar;
  i.capacity = 1;
  return i;
}

// riften (ConorWilliams/ConcurrentDeque): docs/case-studies/riften.md
template <class T, class Mem>
using riften = riften_deque<T, Mem>;
template <class T, class Mem>
using riften_release_buffer = riften_deque<T, Mem, riften_fix::release_buffer>;
template <class T, class Mem>
using riften_atomic_slots = riften_deque<T, Mem, riften_fix::atomic_slots>;
template <class T, class Mem>
using riften_fixed = riften_deque<T, Mem, riften_fix::release_buffer | riften_fix::atomic_slots>;

inline constexpr auto riften_bug_buffer =
    "emplace publishes a resized ring with a relaxed store: a thief reads its slots unsynchronized";
inline constexpr auto riften_bug_slots =
    "plain slots: steal's read races with the owner's reuse of the slot";
inline constexpr auto riften_info =
    shipped("riften", "riften::Deque as shipped (ConcurrentDeque 1552c89)", riften_bug_buffer);
inline constexpr auto riften_release_buffer_info = shipped(
    "riften_release_buffer", "riften with a release store of the resized ring", riften_bug_slots);
inline constexpr auto riften_atomic_slots_info =
    shipped("riften_atomic_slots", "riften with relaxed atomic slots", riften_bug_buffer);
inline constexpr auto riften_fixed_info =
    shipped("riften_fixed", "control: riften with both fixes");

// libfork (ConorWilliams/libfork): docs/case-studies/libfork.md
template <class T, class Mem>
using libfork = libfork_deque<T, Mem>;
template <class T, class Mem>
using libfork_fixed = libfork_deque<T, Mem, true>;

inline constexpr auto libfork_info =
    shipped("libfork", "lf::ext::deque as shipped (libfork 2f359cd)",
            "push publishes a resized ring with a relaxed store: a thief reads 0 from it");
inline constexpr auto libfork_fixed_info =
    shipped("libfork_fixed", "control: libfork with a release store of the resized ring");

// Julia (JuliaLang/julia): docs/case-studies/julia.md
template <class T, class Mem>
using julia = julia_ws_queue<T, Mem>;
template <class T, class Mem>
using julia_acquire_array = julia_ws_queue<T, Mem, julia_fix::acquire_array>;
template <class T, class Mem>
using julia_atomic_slots = julia_ws_queue<T, Mem, julia_fix::atomic_slots>;
template <class T, class Mem>
using julia_fixed = julia_ws_queue<T, Mem, julia_fix::acquire_array | julia_fix::atomic_slots>;

inline constexpr auto julia_bug_array =
    "steal loads the ring pointer relaxed: it reads a resized ring's slots unsynchronized";
inline constexpr auto julia_bug_slots =
    "memcpy'd plain slots: steal's read races with the owner's reuse of the slot";
inline constexpr auto julia_info =
    shipped("julia", "Julia's GC mark queue as shipped (julia 034e070)", julia_bug_array);
inline constexpr auto julia_acquire_array_info = shipped(
    "julia_acquire_array", "julia with an acquire load of the ring in steal", julia_bug_slots);
inline constexpr auto julia_atomic_slots_info =
    shipped("julia_atomic_slots", "julia with relaxed atomic slots", julia_bug_array);
inline constexpr auto julia_fixed_info = shipped("julia_fixed", "control: julia with both fixes");

// Boost.Fiber (boostorg/fiber): docs/case-studies/boost-fiber.md
template <class T, class Mem>
using boost_fiber = boost_fiber_spmc_queue<T, Mem>;
template <class T, class Mem>
using boost_fiber_release_array = boost_fiber_spmc_queue<T, Mem, boost_fiber_fix::release_array>;
template <class T, class Mem>
using boost_fiber_signed_indices = boost_fiber_spmc_queue<T, Mem, boost_fiber_fix::signed_indices>;
template <class T, class Mem>
using boost_fiber_fixed =
    boost_fiber_spmc_queue<T, Mem,
                           boost_fiber_fix::release_array | boost_fiber_fix::signed_indices>;

inline constexpr auto boost_fiber_bug_array =
    "push publishes a resized array with a relaxed store: a thief reads nullptr from it";
inline constexpr auto boost_fiber_bug_indices =
    "size_t indices: pop on a queue that never held an item leaves bottom at SIZE_MAX";
inline constexpr auto boost_fiber_info =
    shipped("boost_fiber", "Boost.Fiber's context_spmc_queue as shipped (fiber 238487b)",
            boost_fiber_bug_indices);
inline constexpr auto boost_fiber_release_array_info =
    shipped("boost_fiber_release_array", "boost_fiber with a release store of the resized array",
            boost_fiber_bug_indices);
inline constexpr auto boost_fiber_signed_indices_info =
    shipped("boost_fiber_signed_indices", "boost_fiber with signed indices", boost_fiber_bug_array);
inline constexpr auto boost_fiber_fixed_info =
    shipped("boost_fiber_fixed", "control: boost_fiber with both fixes");

// Taskflow (taskflow/taskflow): docs/case-studies/taskflow.md
template <class T, class Mem>
using taskflow_unbounded = taskflow_unbounded_wsq<T, Mem>;
template <class T, class Mem>
using taskflow_bounded = taskflow_bounded_wsq<T, Mem, 1>;

inline constexpr auto taskflow_unbounded_info =
    shipped("taskflow_unbounded", "tf::UnboundedWSQ as shipped (taskflow 83f90a2)");
inline constexpr stealcheck::variant_info taskflow_bounded_info = [] {
  auto i = shipped("taskflow_bounded", "tf::BoundedWSQ as shipped, 2 slots (taskflow 83f90a2)");
  i.bounded = true;
  i.capacity = 0;
  return i;
}();

// OpenCilk (OpenCilk/cheetah): docs/case-studies/opencilk.md
template <class T, class Mem>
using opencilk = opencilk_the<T, Mem>;

inline constexpr stealcheck::variant_info opencilk_info = [] {
  auto i = shipped("opencilk", "OpenCilk's THE deque as shipped, 8 frames (cheetah bcbe827)");
  i.bounded = true;
  i.capacity = 8;
  return i;
}();

// stdexec's BWoS queue (NVIDIA/stdexec): docs/case-studies/stdexec-bwos.md. Thieves see only
// the blocks the owner granted and report abort, never empty; any order (the unordered spec).
// The model clients run it as 4 blocks of 1 slot, so that a few pushes grant and reuse blocks.
inline constexpr stealcheck::variant_info bwos_shipped(std::string_view name,
                                                       std::string_view summary,
                                                       std::string_view bug = {}) {
  auto i = shipped(name, summary, bug);
  i.bounded = true;
  i.owner_shares = true;
  i.thieves_report_empty = false;
  i.spec = stealcheck::spec_kind::unordered;
  i.capacity = 4;
  return i;
}
inline constexpr auto stdexec_bwos_v1_info = bwos_shipped(
    "stdexec_bwos_v1", "exec::bwos::lifo_queue before round detection (stdexec 0cccd586)",
    "a thief takes a granted block for done and walks past it; pop stops before it: lost");
template <class T, class Mem>
using stdexec_bwos_v1_acquire_claim = stdexec_bwos_v1<T, Mem, true>;
inline constexpr auto stdexec_bwos_v1_acquire_claim_info =
    bwos_shipped("stdexec_bwos_v1_acquire_claim", "stdexec_bwos_v1 with an acquire claim CAS",
                 "a thief takes a granted block for done and walks past it; pop stops before it");
template <class T, class Mem>
using stdexec_bwos_fixed = stdexec_bwos<T, Mem, true>;
inline constexpr auto stdexec_bwos_info = bwos_shipped(
    "stdexec_bwos", "exec::bwos::lifo_queue with round detection (stdexec e92245d5)",
    "steal claims with a relaxed CAS: it reads a granted slot unsynchronized (a data race)");
inline constexpr auto stdexec_bwos_fixed_info =
    bwos_shipped("stdexec_bwos_fixed", "control: stdexec_bwos with an acquire claim CAS");

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
