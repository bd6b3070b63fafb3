// models/report/token.hpp: replay tokens: a compact string of the choices of one execution.
//
// Format "v1;<thread 0>;<thread 1>;...": per thread, its choice events in po order,
// comma-separated: a read is "T.I" (the (thread, index) it reads from; suffix "s" for a
// spurious weak-CAS failure), a write is "mK" (its final position K in the location's mo).
// Re-running the client with these choices reproduces exactly that execution.
// Thread role: any. Complexity: O(E). Errors: decode returns nullopt on a malformed token.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"

namespace stealcheck::model {

struct replay_choice {
  bool read = false;
  event_id rf;
  bool spurious = false;
  std::uint32_t rank = 0;
};
using replay_plan = std::vector<std::vector<replay_choice>>;

std::string encode_token(const graph& g);
std::optional<replay_plan> decode_token(std::string_view token);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
