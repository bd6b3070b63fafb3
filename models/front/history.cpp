// models/front/history.cpp: conservation and hb-linearizability checks (see history.hpp); the
// search is the core's (deques/linearize.hpp) under the hb order between operations.
#include "stealcheck/detail/models/front/history.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/linearize.hpp"
#include "stealcheck/detail/harness/timeline.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"

namespace stealcheck::model {

namespace {

using order = linearize::precedence_order<hb_clocks::width>;
using mask = order::mask;

// Adds hb to o (built on ops' threads): a before b when a's last event happens-before b's
// first (po between a thread's operations is o's own). Per thread the operations are recorded
// in po order, and those of thread u hb-before b form a prefix of u's list that only grows
// along b's thread: one pointer per pair of lanes.
void require_hb(order& o, std::span<const deque_op> ops, const hb_clocks& hb) {
  constexpr std::size_t W = hb_clocks::width;
  const std::size_t lanes = o.lanes();
  for (std::size_t a = 0; a < lanes; ++a) {
    std::array<std::size_t, W> seen{};  // per lane: its operations hb-before so far
    std::array<mask, W> before{};       // and their set
    const std::size_t size = o.lane_size(a);
    for (std::size_t k = 0; k < size; ++k) {
      const std::size_t b = o.lane_op(a, k);
      const hb_clocks::clock* clk = hb.of(ops[b].first);
      mask m = 0;
      for (std::size_t u = 0; u < lanes; ++u) {
        if (u == a) continue;
        const hb_clocks::clock seen_of_u = clk[o.lane_thread(u)];
        const std::size_t size_u = o.lane_size(u);
        std::size_t j = seen[u];
        for (; j < size_u && ops[o.lane_op(u, j)].last.index < seen_of_u; ++j)
          before[u] |= mask{1} << o.lane_op(u, j);
        seen[u] = j;
        m |= before[u];
      }
      o.require(b, m);
    }
  }
}

// Whether ops have a linearization respecting hb that is a legal run of the spec `kind`. One
// search and one spec per OS thread, emptied per call (made anew when the kind changes): no
// allocation per execution once warm.
bool linearizable(std::span<const deque_op> ops, const hb_clocks& hb, spec::spec_kind kind) {
  if (ops.size() > order::max_ops) return false;  // check_all reports this case by name
  order o(ops.size(), [&](std::size_t i) { return ops[i].first.thread; });
  require_hb(o, ops, hb);
  static thread_local linearize::search<order> search;
  static thread_local spec::sequential_deque<std::int64_t> s(kind);
  if (s.kind() != kind) s = spec::sequential_deque<std::int64_t>(kind);  // another variant
  s.clear();
  return search.run(s, ops, o);
}

// The position of event e in a linear extension of hb: the size of its hb-prefix (strictly
// growing along hb), events outside the clocks last.
std::int64_t hb_rank(const hb_clocks& hb, event_id e) {
  const auto t = static_cast<std::size_t>(e.thread);
  if (t >= hb.ev.size() || static_cast<std::size_t>(e.index) >= hb.valid[t])
    return std::numeric_limits<std::int64_t>::max();
  std::int64_t sum = 0;
  const hb_clocks::clock* clk = hb.of(e);
  for (std::size_t u = 0; u < hb_clocks::width; ++u)
    sum += clk[u];
  return sum;
}

// ops as timeline items, each from its first to its last event, positions numbered along one
// linear extension of hb.
std::string hb_timeline(std::span<const deque_op> ops, const hb_clocks& hb) {
  struct point {
    std::int64_t rank;
    std::int32_t thread, index;
    auto operator<=>(const point&) const = default;
  };
  const auto at = [&](event_id e) { return point{hb_rank(hb, e), e.thread, e.index}; };
  std::vector<point> points;
  for (const deque_op& op : ops) {
    points.push_back(at(op.first));
    points.push_back(at(op.last));
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  const auto position = [&](event_id e) {
    return static_cast<std::uint64_t>(std::lower_bound(points.begin(), points.end(), at(e)) -
                                      points.begin());
  };
  std::vector<timeline::item> items;
  for (const deque_op& op : ops)
    items.push_back({static_cast<std::uint32_t>(op.first.thread), position(op.first),
                     position(op.last), timeline::label(op)});
  return timeline::text(items, timeline::thread_number);
}

}  // namespace

namespace {
// Whether op pushed or took value v.
bool touches(const deque_op& op, std::int64_t v) {
  if (op.kind == spec::op_kind::push) return op.value == v;
  if (op.taken() == v) return true;
  return std::find(op.batch.begin(), op.batch.end(), v) != op.batch.end();
}
}  // namespace

// Hands the bug report every operation, marking those `about` selects.
template <class About>
void history::describe(client& c, About&& about) const {
  std::vector<operation_span> spans;
  spans.reserve(ops_.size() + aside_.size());
  for (const deque_op& op : ops_)
    spans.push_back({op.first, op.last, timeline::label(op), about(op)});
  if (aside_.empty()) return c.describe_operations(std::move(spans));
  for (const auto& [op, thief] : aside_)  // "steal -> 2" as "steal@1 -> 2"
    spans.push_back({op.first, op.last,
                     timeline::steal_from_thief_label(timeline::label(op), thief), about(op)});
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.thread, a.first.index) < std::pair(b.first.thread, b.first.index);
  });
  c.describe_operations(std::move(spans));
}

std::optional<failure_kind> history::take_now(std::int64_t v) {
  const bool pushed = std::find(started_.begin(), started_.end(), v) != started_.end();
  const bool again = std::find(taken_.begin(), taken_.end(), v) != taken_.end();
  taken_.push_back(v);
  if (!pushed) return failure_kind::value_invented;
  if (again && !spec::allows_duplicates(spec_)) return failure_kind::value_taken_twice;
  return std::nullopt;
}

void history::judge_taken(client& c, std::int64_t v, const deque_op& by) {
  const std::optional<failure_kind> wrong = take_now(v);
  if (!wrong) return;
  describe(c, [v](const deque_op& op) { return touches(op, v); });
  c.check(
      false, *wrong,
      harness::value_fault_text(*wrong, v,
                                "T" + std::to_string(by.first.thread) + ":" + timeline::label(by) +
                                    " returned it (judged as it returned)"));
}

void history::judge_drained(client& c, std::int64_t v, std::size_t drained_so_far) {
  if (drained_so_far > started_.size()) {
    describe(c, [v](const deque_op& op) { return touches(op, v); });
    c.check(false, failure_kind::value_invented,
            "value " + std::to_string(v) + " was popped by the owner's final drain after " +
                std::to_string(started_.size()) +
                " values were ever pushed: pop never reports empty");
    return;
  }
  const std::optional<failure_kind> wrong = take_now(v);
  if (!wrong) return;
  describe(c, [v](const deque_op& op) { return touches(op, v); });
  c.check(false, *wrong,
          harness::value_fault_text(*wrong, v,
                                    "the owner's final drain popped it (judged as it returned)"));
}

void history::check_all(client& c, const std::vector<std::int64_t>& pushed,
                        const std::vector<std::int64_t>& drained) const {
  // per pushed value (sorted, distinct) how often it was taken; one buffer per OS thread,
  // emptied per call: no allocation per execution once warm
  static thread_local std::vector<std::pair<std::int64_t, int>> count;
  count.clear();
  for (const std::int64_t v : pushed)
    count.emplace_back(v, 0);
  std::sort(count.begin(), count.end());
  count.erase(std::unique(count.begin(), count.end()), count.end());
  // a failed check about value v: the report marks the operations that pushed or took it
  auto fail_about = [&](std::int64_t v, failure_kind f) {
    describe(c, [v](const deque_op& op) { return touches(op, v); });
    c.check(false, f, harness::value_fault_text(f, v));
  };
  auto take = [&](std::int64_t v) {
    const auto it =
        std::lower_bound(count.begin(), count.end(), std::pair<std::int64_t, int>{v, 0});
    if (it == count.end() || it->first != v) return fail_about(v, failure_kind::value_invented);
    if (++it->second > 1 && !spec::allows_duplicates(spec_))
      fail_about(v, failure_kind::value_taken_twice);
  };
  for (const deque_op& op : ops_) {
    if (const auto v = op.taken()) take(*v);
    if (op.kind == spec::op_kind::steal_batch)
      for (std::size_t k = 1; k < op.batch.size(); ++k)
        take(op.batch[k]);
  }
  for (const std::int64_t v : drained)
    take(v);
  for (const auto& [v, k] : count)
    if (k == 0) fail_about(v, failure_kind::value_lost);
  // past 64 operations (the search's bitmask sets) the values alone are judged: taken twice,
  // invented, lost (above), and each result as it returned (judge_taken)
  if (ops_.size() > max_linearized_ops) return;
  const hb_clocks& hb = c.happens_before_relation();
  if (!linearizable(ops_, hb, spec_)) {
    std::string what = "no linearization respecting happens-before explains the results (spec " +
                       std::string(spec::spec_name(spec_)) + "):";
    for (const deque_op& op : ops_) {
      what += " T" + std::to_string(op.first.thread) + ":" + spec::op_name(op.kind);
      if (op.kind == spec::op_kind::push) what += "(" + std::to_string(op.value) + ")";
      if (const auto v = op.taken()) what += "->" + std::to_string(*v);
      if (!op.taken() && op.kind != spec::op_kind::push)
        what += "->" + std::string(status_name(op.status));
    }
    std::vector<std::size_t> kept;
    if (ops_.size() <= order::max_ops) {
      const std::span<const deque_op> all(ops_);
      kept = linearize::minimize(all, [&](std::span<const std::size_t> k) {
        return !linearizable(linearize::subset(all, k), hb, spec_);
      });
      what += "\n  minimal non-linearizable history (" + std::to_string(kept.size()) + " of " +
              std::to_string(ops_.size()) +
              " operations; each from its first to its last event, numbered along "
              "happens-before):\n" +
              hb_timeline(linearize::subset(all, kept), hb);
      // the spec step that fails: where every order of the minimal history gets stuck
      const std::vector<deque_op> minimal = linearize::subset(all, kept);
      order o(minimal.size(), [&](std::size_t i) { return minimal[i].first.thread; });
      require_hb(o, minimal, hb);
      const std::string stuck =
          timeline::dead_end_text<std::int64_t>(std::span<const deque_op>(minimal), o, spec_);
      if (!stuck.empty()) what += "  spec: " + stuck + "\n";
    }
    // the report marks the minimal history's operations (all of them if none was found)
    describe(c, [&](const deque_op& op) {
      if (kept.empty()) return true;
      for (const std::size_t k : kept)
        if (&ops_[k] == &op) return true;
      return false;
    });
    c.check(false, failure_kind::not_linearizable, what);
  }
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
