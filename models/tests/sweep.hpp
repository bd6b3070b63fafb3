// models/tests/sweep.hpp: which built-in variants the model checker's per-variant sweeps visit.
//
// At full scale (the release preset) every built-in variant. Under the sanitizer presets
// (STEALCHECK_TEST_SCALE < 100) these sweeps exercise the checker's own code, which depends on
// a deque only through the shape of its operations: there one variant of each shape runs,
// chase_lev (a growable ring, seq_cst fences), locked (a mutex), steal_half (bounded, batch
// steal), split (owner_shares), with every known-bad variant (the reports). Each variant's own
// code still runs under the sanitizers natively (stress/, the conformance suite), and every
// variant goes through these sweeps in release. A test of one variant's own claim (that a change
// to its source is or is not needed) runs at full scale only (full_scale).
//
// Thread role: the test's thread. Complexity: O(number of built-in variants).
#pragma once

#include <array>
#include <string_view>

#include "stealcheck/detail/deques/registry.hpp"

namespace stealcheck::model {

/// The release preset: every sweep and every variant's own model tests run.
inline constexpr bool full_scale = STEALCHECK_TEST_SCALE >= 100;

/// True if the sweeps of this build visit the variant (see the file comment).
inline bool swept(const variant_info& info) {
  if (full_scale || info.known_bad) return true;
  constexpr std::array<std::string_view, 4> shapes{"chase_lev", "locked", "steal_half", "split"};
  for (const std::string_view s : shapes)
    if (info.name == s) return true;
  return false;
}

/// for_each_variant (deques/registry.hpp) over the variants swept() keeps.
template <class F>
void for_each_swept_variant(F&& f) {
  for_each_variant([&](auto tag, const variant_info& info) {
    if (swept(info)) f(tag, info);
  });
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
