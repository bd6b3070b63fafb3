// harness/timeline.hpp: per-thread timelines of deque histories for people, as text and SVG,
// whatever the history's clock: native histories give each operation its recorder stamps
// (stress/history.hpp), model-checked ones the positions of its first and last event in a
// linear extension of happens-before (models/history.hpp).
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

#include "deques/spec.hpp"

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

/// "push(3)", "pop -> 5", "pop -> empty", "steal -> abort", "steal_batch -> [1,2]".
std::string label(const spec::operation<std::uint64_t>& op);
std::string label(const spec::operation<std::int64_t>& op);

}  // namespace stealcheck::timeline
