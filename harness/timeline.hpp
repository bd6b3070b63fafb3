// harness/timeline.hpp: per-thread timelines of deque histories for people, as text and SVG,
// whatever the history's clock: native histories give each operation its recorder stamps
// (stress/history.hpp), model-checked ones the positions of its first and last event in a
// linear extension of happens-before (models/front/history.hpp).
//
// An item is one operation: its thread (one lane per thread, in thread order), its interval
// [start, end] and a label (label() below for a deques/spec.hpp operation: "push(3)",
// "pop -> 5", "steal -> abort", "steal_batch -> [1,2]"). text(): one line per lane, the items
// in start order with their intervals; svg(): a standalone SVG document, one lane per thread, a
// bar per item from start to end, labelled.
//
// Thread role: any (pure functions). Complexity: O(n log n) for n items.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/linearize.hpp"
#include "stealcheck/detail/deques/spec.hpp"

namespace stealcheck::timeline {

struct item {
  std::uint32_t thread = 0;  ///< its lane
  std::uint64_t start = 0;   ///< where its bar begins
  std::uint64_t end = 0;     ///< where it ends (>= start)
  std::string label;         ///< what it did
};

/// How a lane is named: "owner" for thread 0, "thief N" for the others (native histories).
std::string owner_or_thief(std::uint32_t thread);
/// "T0", "T1", ...: the model checker's thread names.
std::string thread_number(std::uint32_t thread);
using lane_namer = std::string (*)(std::uint32_t thread);

/// One line per lane: "  <name, 8 wide>:  [start..end] label  [start..end] label ...".
std::string text(std::span<const item> items, lane_namer name = owner_or_thief);

/// The same as a standalone SVG document with `title` on top.
std::string svg(std::span<const item> items, std::string_view title,
                lane_namer name = owner_or_thief);

/// "push(3)", "pop -> 5", "pop -> empty", "steal -> abort", "steal_batch -> [1,2]" (a batch
/// steal still running, whose other values are not known yet: "steal_batch -> 1, ...").
std::string label(const spec::operation<std::uint64_t>& op);
std::string label(const spec::operation<std::int64_t>& op);
/// A steal's label as a steal from thief N's own deque (steal@N, stress/scenario.hpp):
/// "steal -> 2" becomes "steal@1 -> 2".
std::string steal_from_thief_label(const std::string& steal_label, std::uint32_t thief);

/// What the sequential deque `s` answers to op's kind: "the spec's pop returns 2", "the
/// spec's steal returns empty" (push: "push always succeeds"), by s's spec kind.
template <class V>
std::string spec_answer(const spec::sequential_deque<V>& s, spec::op_kind k) {
  const bool any = !spec::ordered(s.kind());
  const char* which =
      s.kind() == spec::spec_kind::unordered ? "pushed and not yet taken" : "pushed before it";
  const auto takes = [&](const char* what, const V& v) {
    return any ? std::string("the spec's ") + what + " returns a value " + which
               : std::string("the spec's ") + what + " returns " + std::to_string(v);
  };
  switch (k) {
    case spec::op_kind::push:
      return "push always succeeds";
    case spec::op_kind::pop:
      if (s.empty()) return "the spec's pop returns empty";
      return takes("pop",
                   s.kind() == spec::spec_kind::fifo_owner ? s.items().front() : s.items().back());
    case spec::op_kind::steal:
      return s.empty() ? "the spec's steal returns empty" : takes("steal", s.items().front());
    case spec::op_kind::steal_batch:
      if (s.empty()) return "the spec's steal_batch returns empty";
      if (any) return std::string("the spec's steal_batch returns values ") + which;
      return "the spec's steal_batch takes at most " +
             std::to_string(spec::sequential_deque<V>::max_batch(s.size())) + " from the top, " +
             std::to_string(s.items().front()) + " first";
  }
  return "?";
}

/// The failing spec step of a history with no linearization under `order` (fresh), against
/// the sequential deque of kind `kind` (linearize::dead_end), as one line: "after push(1),
/// push(2) (a legal order), nothing can come next: steal -> 2 (the spec's steal returns 1);
/// ...". Empty when the history is linearizable.
template <class V, class Op, class Order>
std::string dead_end_text(std::span<const Op> ops, Order& order, spec::spec_kind kind) {
  spec::sequential_deque<V> s(kind);
  std::string rejected;
  const std::vector<std::size_t> prefix =
      linearize::dead_end(s, ops, order, [&](const spec::sequential_deque<V>& at, std::size_t i) {
        rejected += (rejected.empty() ? "" : "; ") + label(ops[i]) + " (" +
                    spec_answer(at, ops[i].kind) + ")";
      });
  if (rejected.empty()) return {};
  std::string legal;
  for (const std::size_t i : prefix)
    legal += (legal.empty() ? "" : ", ") + label(ops[i]);
  return (prefix.empty() ? std::string("from the start") : "after " + legal + " (a legal order)") +
         ", nothing can come next: " + rejected;
}

}  // namespace stealcheck::timeline
// SPDX-License-Identifier: Apache-2.0
