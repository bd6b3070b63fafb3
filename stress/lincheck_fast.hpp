// stress/lincheck_fast.hpp: a direct decision of linearizability for lifo_owner deque
// histories, in near-linear time, that the general search (stress/lincheck.hpp) falls back
// from only when it cannot decide.
//
// The general search explores orders; a deque history with unique values and one owner needs
// little of that, because most of a linearization is forced:
//   - each value has one push and at most one taker (a second taker, a taker of a value never
//     pushed, or one that returns before the push is invoked: not linearizable);
//   - the owner's operations are totally ordered, so its own view of the deque, the stack S
//     of values it pushed and did not pop (an owner pop that returns empty clears it: what it
//     held was stolen), decides every owner pop: pop -> v is legal only if v is S's top (a
//     value above v was stolen while v, older, was present, or popped after it: either way the
//     steal or the pop broke order), and pop -> empty only if every value in S is one a
//     thief steals (and then after the last of them is stolen);
//   - steals take the oldest value present, so value-returning steals take effect in push
//     order, each after its value's push and after the owner's pop of every older value; a
//     value never taken makes every steal of a younger value illegal.
// These give precedence edges between operations (push -> its steal; the pop of the newest
// older popped value -> a steal; steal -> the next-older-first steal; the last steal of S ->
// an owner pop that returns empty) with no cycle. Every legal order places each operation at a
// point of its [invoke, response] interval after its predecessors, so the earliest such point
// est(x) = max(invoke, est(predecessors)) is a lower bound: est(x) > response(x) proves the
// history not linearizable, and otherwise the points est() are a schedule of every operation
// that changes the deque. What is left is where the steals that returned empty can go: in a
// gap of the owner's order whose S holds only stolen values, after the last of them is stolen.
// Each is placed at the first such gap the schedule leaves room for; no gap where even the
// latest schedule leaves room (lst(), backward) proves the history not linearizable. The
// witness (operations ordered by their points) is replayed on deques/spec.hpp's sequential
// deque and checked against real time before it is reported; a history whose empty steals do
// not fit this schedule, or that the direct decision does not cover (another spec; batch
// steals that took values; pushes or pops outside one owner thread; repeated values; owner
// operations that overlap), is `undecided` and goes to the general search.
//
// Thread role: any thread, on a history it owns; each thread keeps its own buffers (about
// 200 bytes per operation of the longest history it decided). Complexity: O(n log n) time and
// O(n) memory for n operations in the common case (sorts by invocation, by value and by
// point); each empty steal scans the owner gaps its interval spans, and moving an owner
// operation later re-propagates its successors, so O(n^2) in the worst case.
// Sources: linearizability, Herlihy & Wing, TOPLAS 1990; the same reduction of a collection's
// linearizability to per-value order constraints is behind the polynomial checks for queues
// with unique values (Henzinger, Sezgin, Vafeiadis, CONCUR 2013) and the violation patterns
// of stacks and queues (Bouajjani, Emmi, Enea, Hamza, ICALP 2015).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/stress/history.hpp"

namespace stealcheck::stress::lincheck {

enum class fast_verdict : std::uint8_t { linearizable, not_linearizable, undecided };

struct fast_result {
  fast_verdict verdict = fast_verdict::undecided;
  std::vector<std::size_t> order;  ///< linearizable: a witness (indices into h), replay-checked
  /// not_linearizable: the operations the proof names (indices into h, increasing); a small
  /// sub-history that is usually not linearizable on its own (empty when the proof is global)
  std::vector<std::size_t> core;
  std::string reason;  ///< not_linearizable: the proof in one line; undecided: why not decided
};

/// Decides h under `kind` directly, or says undecided (see the file comment).
fast_result fast_check(const history& h, spec::spec_kind kind);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
