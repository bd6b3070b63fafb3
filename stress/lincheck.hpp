// stress/lincheck.hpp: linearizability checking of deque histories.
//
// check(h, kind): is there a total order of h's operations that (1) respects real time: if a's
// response stamp < b's invocation stamp then a comes first, and (2) is a legal run of the
// sequential deque of kind `kind` (deques/spec.hpp, the variant's variant_info::spec: for
// lifo_owner, steal -> abort legal in any state and changes nothing; empty legal only when the
// deque is empty at that point; steal_batch takes 1..ceil(n/2) top values in order)? The
// owner's operations are totally ordered by (1), since one thread's operations never overlap.
//
// Algorithm: first the direct decision of stress/lincheck_fast.hpp (lifo_owner histories with
// one owner: near-linear, no search); where it does not decide, the linearizability core
// (deques/linearize.hpp) under real_time_order: Wing and Gong's search (J. Parallel Distrib.
// Comput. 1993) with Lowe's memoization ("Testing for linearizability", CCPE 2017): depth-first
// over the operations that may come next (those invoked before the earliest response among the
// remaining ones), applying each to the spec with its observed result, backtracking with the spec's
// undo, and never revisiting a set of linearized operations already seen. The set alone determines
// the spec state here (values are unique, so the deque holds exactly the pushed-and-not-taken
// values in push order, and at_least_once's taken values with their counts are those of the set's
// takes), so the memo key is the set: a 128-bit Zobrist hash of it (two independent 64-bit keys; a
// false "seen" needs a 128-bit collision). minimize() is the core's greedy minimizer; the timelines
// are harness/timeline.hpp's, with the recorder's stamps as the clock.
//
// Thread role: any thread, on a history it owns.
// Requires: values are unique (each pushed at most once); every operation completed.
// Complexity: O(n log n) where the direct decision decides; otherwise worst case exponential
// in the number of overlapping operations (inherent: the problem is NP-complete in general).
// Iterative: no recursion depth limit. minimize(): one check per unit, at most 5,000 operations (a
// longer history is returned whole). Source: linearizability, Herlihy & Wing, TOPLAS 1990.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/stress/history.hpp"

namespace stealcheck::stress::lincheck {

struct check_result {
  bool linearizable = false;
  std::vector<std::size_t> order;   ///< a witness linearization (indices into h) if linearizable
  std::size_t states_explored = 0;  ///< the general search's (0 when decided directly)
  bool direct = false;              ///< decided by stress/lincheck_fast.hpp, without a search
  std::string proof;                ///< decided directly, not linearizable: why, in one line
  std::vector<std::size_t> core;    ///< ... and the operations the proof names (indices into h)
};

/// Decides h: directly (stress/lincheck_fast.hpp) where that decides, else by the search.
check_result check(const history& h, spec::spec_kind kind);

/// The search alone, without the direct decision (to compare the two).
check_result search(const history& h, spec::spec_kind kind);

/// A smallest-found non-linearizable sub-history of a non-linearizable `h` (greedy removal of
/// whole units: a push with the operations that took its value, or a lone empty/abort op,
/// keeping only removals after which the rest is still not linearizable). A history longer
/// than 5,000 operations is minimized from the operations of the direct decision's proof when
/// they are not linearizable on their own, else returned whole.
/// Requires: !check(h, kind).linearizable.
history minimize(const history& h, spec::spec_kind kind);

/// The spec step where every real-time order of a non-linearizable h gets stuck: "after
/// push(1), push(2) (a legal order), nothing can come next: steal -> 2 (the spec's steal
/// returns 1)"; empty when h is linearizable. One search.
std::string spec_step(const history& h, spec::spec_kind kind);

/// `h` with the steps of `aside` (steal@N, operation::from_thief) whose value an operation of
/// `h` took or holds in its batch: what a report shows beside a minimized history, so that a
/// value stolen from a thief's deque appears where it was stolen, not only inside that thief's
/// batch. Never checked: the steps of `aside` are no operations of the owner's deque.
history with_steals_from_thieves(const history& h, const history& aside);

/// Per-thread timeline as text: one line per thread, operations at their stamps (a steal@N
/// step as "steal@N -> v").
std::string timeline_text(const history& h);

/// The same timeline as a standalone SVG document (one lane per thread, a bar per operation
/// from invocation to response, labelled with the operation and its result).
std::string timeline_svg(const history& h, const std::string& title);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
