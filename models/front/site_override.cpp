#include "stealcheck/detail/models/front/site_override.hpp"

#include <optional>

namespace stealcheck::model {

std::optional<std::memory_order> parse_order(std::string_view s) {
  if (s == "relaxed") return std::memory_order_relaxed;
  if (s == "consume") return std::memory_order_consume;
  if (s == "acquire") return std::memory_order_acquire;
  if (s == "release") return std::memory_order_release;
  if (s == "acq_rel") return std::memory_order_acq_rel;
  if (s == "seq_cst") return std::memory_order_seq_cst;
  return std::nullopt;
}

bool order_fits(site_kind k, std::memory_order o) {
  switch (k) {
    case site_kind::load:
    case site_kind::cas_failure:
      return o != std::memory_order_release && o != std::memory_order_acq_rel;
    case site_kind::store:
      return o == std::memory_order_relaxed || o == std::memory_order_release ||
             o == std::memory_order_seq_cst;
    case site_kind::rmw:
    case site_kind::fence:
      return true;
  }
  return false;
}

namespace {
// The text as it may appear inside an error line: control characters (a newline would split
// the line) shown as '?'.
std::string printable(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}
}  // namespace

std::variant<site_override, std::string> parse_site_override(std::string_view text,
                                                             std::span<const site* const> sites,
                                                             std::string_view variant) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos)
    return "--site expects NAME=ORDER, got '" + printable(text) + "'";
  const std::string_view name = text.substr(0, eq);
  const std::string_view order = text.substr(eq + 1);
  const auto ord = parse_order(order);
  if (!ord) return "unknown memory order '" + printable(order) + "' in --site " + printable(text);
  const site* found = nullptr;
  for (const site* st : sites)
    if (st->name == name) found = st;
  if (found == nullptr)
    return "unknown site '" + printable(name) + "' for variant " + std::string(variant) +
           " (stealcheck list --sites " + std::string(variant) + " lists them)";
  if (!order_fits(found->kind, *ord))
    return "order " + std::string(order) + " is not valid for site " + std::string(name);
  return site_override{std::string(name), *ord};
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
