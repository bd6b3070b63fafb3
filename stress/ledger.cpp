#include "stress/ledger.hpp"

#include <fmt/format.h>

namespace stealcheck::stress {

std::string describe(const take_record& r) {
  const char* how = "pop";
  switch (r.how) {
    case taker_kind::pop:
      how = "pop";
      break;
    case taker_kind::steal:
      how = "steal";
      break;
    case taker_kind::steal_into:
      how = "steal_into";
      break;
    case taker_kind::drain:
      how = "final drain";
      break;
  }
  if (r.thread == 0) return fmt::format("owner {}", how);
  return fmt::format("thief {} {}", r.thread, how);
}

std::optional<std::string> check_conservation(std::uint64_t pushed,
                                              const std::vector<const take_log*>& logs,
                                              bool duplicates_allowed) {
  std::vector<const take_record*> first(pushed, nullptr);
  for (const take_log* log : logs) {
    for (const take_record& r : log->records()) {
      if (r.id >= pushed) {
        return fmt::format("value {} invented (never pushed; {} values were): taken by {}", r.id,
                           pushed, describe(r));
      }
      if (first[r.id] != nullptr && !duplicates_allowed) {
        return fmt::format("value {} taken twice: {} and {}", r.id, describe(*first[r.id]),
                           describe(r));
      }
      if (first[r.id] == nullptr) first[r.id] = &r;
    }
  }
  for (std::uint64_t id = 0; id < pushed; ++id) {
    if (first[id] == nullptr) {
      return fmt::format("value {} lost: pushed, never taken, not in the final drain", id);
    }
  }
  return std::nullopt;
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
