// harness/timeline.cpp: text and SVG timelines (see timeline.hpp).
#include "stealcheck/detail/harness/timeline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

namespace stealcheck::timeline {
namespace {

// The items of each thread, in start order.
std::map<std::uint32_t, std::vector<const item*>> by_thread(std::span<const item> items) {
  std::map<std::uint32_t, std::vector<const item*>> lanes;
  for (const item& it : items)
    lanes[it.thread].push_back(&it);
  for (auto& [t, lane] : lanes) {
    std::stable_sort(lane.begin(), lane.end(),
                     [](const item* a, const item* b) { return a->start < b->start; });
  }
  return lanes;
}

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

template <class V>
std::string label_of(const spec::operation<V>& op) {
  switch (op.kind) {
    case spec::op_kind::push:
      return fmt::format("push({})", op.value);
    case spec::op_kind::pop:
      return op.has_value ? fmt::format("pop -> {}", op.value) : "pop -> empty";
    case spec::op_kind::steal:
      return op.has_value ? fmt::format("steal -> {}", op.value)
                          : fmt::format("steal -> {}", status_name(op.status));
    case spec::op_kind::steal_batch:
      if (op.status != steal_status::item)
        return fmt::format("steal_batch -> {}", status_name(op.status));
      if (op.batch.empty() && op.has_value)  // still running: only its result is known
        return fmt::format("steal_batch -> {}, ...", op.value);
      return fmt::format("steal_batch -> [{}]", fmt::join(op.batch, ","));
  }
  return "?";
}

}  // namespace

std::string label(const spec::operation<std::uint64_t>& op) {
  return label_of(op);
}

std::string label(const spec::operation<std::int64_t>& op) {
  return label_of(op);
}

std::string steal_from_thief_label(const std::string& steal_label, std::uint32_t thief) {
  return "steal@" + std::to_string(thief) + steal_label.substr(std::string_view("steal").size());
}

std::string owner_or_thief(std::uint32_t thread) {
  return thread == 0 ? std::string("owner") : fmt::format("thief {}", thread);
}

std::string thread_number(std::uint32_t thread) {
  return fmt::format("T{}", thread);
}

std::string text(std::span<const item> items, lane_namer name) {
  std::string out;
  for (const auto& [t, lane] : by_thread(items)) {
    out += fmt::format("  {:<8}:", name(t));
    for (const item* it : lane)
      out += fmt::format("  [{}..{}] {}", it->start, it->end, it->label);
    out += '\n';
  }
  return out;
}

std::string svg(std::span<const item> items, std::string_view title, lane_namer name) {
  const auto lanes = by_thread(items);
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  for (const item& it : items) {
    lo = std::min(lo, it.start);
    hi = std::max(hi, it.end);
  }
  if (items.empty()) lo = 0;
  const double width = 1000, lane_h = 44, left = 90;
  const double scale = (width - left - 20) / static_cast<double>(hi > lo ? hi - lo : 1);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"monospace\" font-size=\"11\">\n<text x=\"8\" y=\"16\">{}</text>\n",
      width, 30 + lane_h * static_cast<double>(lanes.size()), escape(title));
  double y = 30;
  for (const auto& [t, lane] : lanes) {
    out += fmt::format("<text x=\"8\" y=\"{}\">{}</text>\n", y + 22, escape(name(t)));
    for (const item* it : lane) {
      const double x0 = left + static_cast<double>(it->start - lo) * scale;
      const double x1 = left + static_cast<double>(it->end - lo) * scale;
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"14\" fill=\"#9cc3e6\" "
          "stroke=\"#245\"/><text x=\"{:.1f}\" y=\"{}\">{}</text>\n",
          x0, y + 8, std::max(2.0, x1 - x0), x0, y + 36, escape(it->label));
    }
    y += lane_h;
  }
  return out + "</svg>\n";
}

}  // namespace stealcheck::timeline
// SPDX-License-Identifier: Apache-2.0
