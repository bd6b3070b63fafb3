// Timelines of a history for people: text (one line per thread) and SVG (one lane per thread).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "stress/lincheck.hpp"

namespace stealcheck::stress::lincheck {
namespace {

std::map<std::uint32_t, std::vector<const operation*>> by_thread(const history& h) {
  std::map<std::uint32_t, std::vector<const operation*>> lanes;
  for (const operation& op : h)
    lanes[op.thread].push_back(&op);
  for (auto& [t, ops] : lanes) {
    std::sort(ops.begin(), ops.end(),
              [](const operation* a, const operation* b) { return a->invoke < b->invoke; });
  }
  return lanes;
}

std::string escape(const std::string& s) {
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

}  // namespace

std::string timeline_text(const history& h) {
  std::string out;
  for (const auto& [t, ops] : by_thread(h)) {
    out += t == 0 ? "  owner   :" : fmt::format("  thief {:<2}:", t);
    for (const operation* op : ops) {
      std::string d = describe(*op);
      d = d.substr(d.find(": ") + 2);
      out += fmt::format("  [{}..{}] {}", op->invoke, op->response, d);
    }
    out += '\n';
  }
  return out;
}

std::string timeline_svg(const history& h, const std::string& title) {
  const auto lanes = by_thread(h);
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  for (const operation& op : h) {
    lo = std::min(lo, op.invoke);
    hi = std::max(hi, op.response);
  }
  if (h.empty()) lo = 0;
  const double width = 1000, lane_h = 44, left = 90;
  const double scale = (width - left - 20) / static_cast<double>(hi > lo ? hi - lo : 1);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"monospace\" font-size=\"11\">\n<text x=\"8\" y=\"16\">{}</text>\n",
      width, 30 + lane_h * static_cast<double>(lanes.size()), escape(title));
  double y = 30;
  for (const auto& [t, ops] : lanes) {
    out += fmt::format("<text x=\"8\" y=\"{}\">{}</text>\n", y + 22,
                       t == 0 ? std::string("owner") : fmt::format("thief {}", t));
    for (const operation* op : ops) {
      const double x0 = left + static_cast<double>(op->invoke - lo) * scale;
      const double x1 = left + static_cast<double>(op->response - lo) * scale;
      std::string d = describe(*op);
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"14\" fill=\"#9cc3e6\" "
          "stroke=\"#245\"/><text x=\"{:.1f}\" y=\"{}\">{}</text>\n",
          x0, y + 8, std::max(2.0, x1 - x0), x0, y + 36, escape(d.substr(d.find(": ") + 2)));
    }
    y += lane_h;
  }
  return out + "</svg>\n";
}

}  // namespace stealcheck::stress::lincheck
