// models/graph/memory_model.hpp: the memory models the checker explores under, and its limits.
// Part of the user-facing API (models/explore/explore.hpp); the consistency layer implements them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace stealcheck::model {

/// RC11 (Lahav et al., PLDI 2017) or sequential consistency (for comparison).
enum class memory_model : std::uint8_t { rc11, sc };

constexpr std::string_view model_name(memory_model m) noexcept {
  return m == memory_model::rc11 ? "rc11" : "sc";
}

/// Model threads per execution, the main one included.
inline constexpr std::size_t max_threads = 8;
/// The largest options::max_events_per_thread (the hb clocks count events in 16 bits).
inline constexpr std::uint32_t max_events_cap = 32000;

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
