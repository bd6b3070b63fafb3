#include "stealcheck/detail/stress/stress.hpp"

#include <thread>

namespace stealcheck::stress {

std::string_view scenario_name(scenario_kind s) noexcept {
  switch (s) {
    case scenario_kind::mixed:
      return "mixed";
    case scenario_kind::spsc:
      return "spsc";
    case scenario_kind::stampede:
      return "stampede";
    case scenario_kind::last_item:
      return "last_item";
    case scenario_kind::resize:
      return "resize";
    case scenario_kind::no_starvation:
      return "no_starvation";
    case scenario_kind::destructors:
      return "destructors";
  }
  return "?";
}

std::optional<scenario_kind> parse_scenario(std::string_view name) noexcept {
  for (scenario_kind s : all_scenarios) {
    if (scenario_name(s) == name) return s;
  }
  return std::nullopt;
}

void jitter::operator()() noexcept {
  if (!on_) return;
  const std::uint64_t r = next();
  if ((r & 63) == 0) {
    std::this_thread::yield();
  } else if ((r & 7) == 0) {
    for (std::uint64_t i = (r >> 8) & 63; i > 0; --i)
      __builtin_ia32_pause();
  }
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
