// models/front/history.hpp: the deque operations of one model-checked execution, and the checks
// every client applies to them: no value taken twice (unless the variant's spec is
// at_least_once), none invented, nothing lost, and the results explained by the variant's
// sequential deque (deques/spec.hpp: lifo_owner, fifo_owner or at_least_once) in an order that
// respects happens-before between operations (docs/design.md, "The deque contract").
//
// The hb-linearizability check is the linearizability core (deques/linearize.hpp) under its
// precedence_order: a before b when a is earlier in the same thread or a's last event
// happens-before b's first. When no such linearization exists, the operations are minimized
// with the core's minimizer (re-checked with hb restricted to the operations kept) and the
// message adds their timeline (harness/timeline.hpp): each operation from the position of its
// first event to that of its last, in one linear extension of hb.
//
// Thread role: `record` from the model thread that ran the operation; `check_all` from the
// client's main thread after joining every thread.
// Complexity: check_all is a backtracking search over linearizations: O(n!) worst case for n
// operations (clients here have at most a dozen, and hb prunes hard); at most 64 operations
// (sets are bitmasks): a history of more (a sampled scenario, `stealcheck fuzz`) has its values
// judged (taken twice, invented, lost; each result as it returned), not its order. No spec copies:
// apply and undo; no allocation per execution once warm. Minimizing (failures only): one search per
// unit. Source: linearizability (Herlihy, Wing, TOPLAS 1990) with happens-before in place of real
// time, as in CDSChecker's specification checks (Norris, Demsky, OOPSLA 2013); the search is
// Wing and Gong's (1993).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/harness/verdict.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"

namespace stealcheck::model {

/// One operation of a model-checked client: the spec's record (deques/spec.hpp) with the
/// events that delimit it (happens-before between operations is between those events).
/// The most operations whose order check_all decides (hb-linearizability); more: values only.
inline constexpr std::size_t max_linearized_ops = 64;

struct deque_op : spec::operation<std::int64_t> {
  event_id first;  ///< the operation's first event
  event_id last;   ///< its last event
};

class history {
 public:
  /// A history checked against the specification `spec` (the variant's variant_info::spec).
  explicit history(spec::spec_kind spec) : spec_(spec) {
    ops_.reserve(32);  // clients record a dozen or so: no regrowth per execution
    started_.reserve(16);
    taken_.reserve(16);
  }
  spec::spec_kind spec() const noexcept { return spec_; }
  /// Runs f() as one operation of the calling model thread and records it. Returns its index
  /// (not a reference: other model threads append while this one runs, moving the vector).
  /// A push's value counts as pushed from its invocation; a value a pop or steal returns is
  /// judged when it returns (judge_taken), so a deque that goes on to loop is reported by its
  /// first wrong result.
  template <class F>
  std::size_t record(client& c, deque_op op, F&& f) {
    if (op.kind == spec::op_kind::push) started_.push_back(op.value);
    const char* name = spec::op_name(op.kind);
    ops_.push_back(run(c, name, std::move(op), std::forward<F>(f)));
    if (const auto v = ops_.back().taken()) judge_taken(c, *v, ops_.back());
    return ops_.size() - 1;
  }
  /// Runs f(op) as one steal of the calling model thread from thief `thief`'s own deque
  /// (steal@N, stress/scenario.hpp): not an operation of this history's deque, so never judged
  /// (its value belongs to that thief's batch, which is), but a bug report lists it in its
  /// thread's place ("steal@1 -> 2"), marked when the check is about its value.
  template <class F>
  void record_steal_from_thief(client& c, std::size_t thief, F&& f) {
    deque_op op;
    op.kind = spec::op_kind::steal;
    aside_.push_back(
        {run(c, "steal from a thief's deque", std::move(op), std::forward<F>(f)), thief});
  }
  /// Judges a value the owner's final drain popped, as it comes: never pushed, taken twice,
  /// or more values than were ever pushed (a pop that never reports empty) fail at once.
  void judge_drained(client& c, std::int64_t v, std::size_t drained_so_far);
  /// The recorded operation `i` (valid until the next record from any thread).
  deque_op& at(std::size_t i) { return ops_[i]; }
  /// Forgets the last recorded operation (a bounded push that found the deque full).
  void discard_last() { ops_.pop_back(); }
  /// Operation `at`, a batch steal taken in steps, becomes one steal per value
  /// (spec::split_batch; `after_it`: the steps right after it, not at the end).
  void split_batch(std::size_t at, bool after_it = false) { spec::split_batch(ops_, at, after_it); }

  /// All checks; on failure calls c.check(false, ...) naming the offending value.
  /// `pushed`: every value pushed successfully; `drained`: values left at the end.
  void check_all(client& c, const std::vector<std::int64_t>& pushed,
                 const std::vector<std::int64_t>& drained) const;

  const std::vector<deque_op>& ops() const noexcept { return ops_; }

 private:
  // op after f(op) ran as an operation named `name` of the calling thread, from its first to
  // its last event.
  template <class F>
  static deque_op run(client& c, const char* name, deque_op op, F&& f) {
    c.operation(name);
    const event_id before = c.position();
    f(op);
    const event_id after = c.position();
    c.operation(nullptr);
    op.first = before;
    op.last = {after.thread, after.index - 1};
    if (op.last.index < op.first.index) op.last = op.first;
    return op;
  }
  // Hands c's bug report every operation, steals from thieves' deques too, in each thread's
  // order, marking those `about(op)` selects.
  template <class About>
  void describe(client& c, About&& about) const;
  // Records v as taken: nullopt when that is legal, else the fault (harness/verdict.hpp).
  std::optional<failure_kind> take_now(std::int64_t v);
  // Fails at once when `v`, returned by `by`, was never pushed or was already taken.
  void judge_taken(client& c, std::int64_t v, const deque_op& by);
  spec::spec_kind spec_;
  std::vector<deque_op> ops_;
  std::vector<std::int64_t> started_;  // values whose push was invoked
  std::vector<std::int64_t> taken_;    // values returned so far (pop, steal, drain)
  struct aside_op {
    deque_op op;
    std::size_t thief = 0;  // whose deque it stole from (from 1)
  };
  std::vector<aside_op> aside_;  // steals from thieves' deques (record_steal_from_thief)
};

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
