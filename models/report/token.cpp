// models/report/token.cpp: replay token encoding (see token.hpp).
#include "stealcheck/detail/models/report/token.hpp"

#include <charconv>

namespace stealcheck::model {

std::string encode_token(const graph& g) {
  std::string s = "v1";
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    s += ';';
    bool first = true;
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (e.kind != event_kind::read && e.kind != event_kind::write) continue;
      if (!first) s += ',';
      first = false;
      if (is_read(e)) {
        s += std::to_string(e.rf.thread) + "." + std::to_string(e.rf.index);
        if (e.spurious) s += 's';
      } else {
        s += "m" +
             std::to_string(g.mo_pos({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)}));
      }
    }
  }
  return s;
}

namespace {
bool number(std::string_view& s, std::uint32_t& out) {
  const auto* b = s.data();
  const auto r = std::from_chars(b, b + s.size(), out);
  if (r.ec != std::errc{} || r.ptr == b) return false;
  s.remove_prefix(static_cast<std::size_t>(r.ptr - b));
  return true;
}
std::optional<replay_choice> item(std::string_view s) {
  replay_choice c;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  if (!s.empty() && s[0] == 'm') {
    s.remove_prefix(1);
    if (!number(s, a) || !s.empty()) return std::nullopt;
    c.rank = a;
    return c;
  }
  if (!number(s, a) || s.empty() || s[0] != '.') return std::nullopt;
  s.remove_prefix(1);
  if (!number(s, b)) return std::nullopt;
  c.read = true;
  c.rf = {static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)};
  if (s == "s") {
    c.spurious = true;
    s.remove_prefix(1);
  }
  if (!s.empty()) return std::nullopt;
  return c;
}
}  // namespace

std::optional<replay_plan> decode_token(std::string_view token) {
  if (token.substr(0, 2) != "v1") return std::nullopt;
  token.remove_prefix(2);
  replay_plan plan;
  while (!token.empty()) {
    if (token[0] != ';') return std::nullopt;
    token.remove_prefix(1);
    const std::size_t end = token.find(';');
    std::string_view seg = token.substr(0, end);
    token = end == std::string_view::npos ? std::string_view{} : token.substr(end);
    plan.emplace_back();
    while (!seg.empty()) {
      const std::size_t comma = seg.find(',');
      const auto c = item(seg.substr(0, comma));
      if (!c) return std::nullopt;
      plan.back().push_back(*c);
      seg = comma == std::string_view::npos ? std::string_view{} : seg.substr(comma + 1);
    }
  }
  if (plan.empty()) return std::nullopt;
  return plan;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
