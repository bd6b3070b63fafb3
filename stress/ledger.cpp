#include "stress/ledger.hpp"

#include <fmt/format.h>

#include "stress/oplog.hpp"

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

void live_judge::judge(const take_record& r, std::uint64_t pushed_bound) {
  std::string found;
  if (r.id >= pushed_bound) {
    found = fmt::format(
        "value {} was never pushed (invented): {} took it when {} values were "
        "pushed",
        r.id, describe(r), pushed_bound);
  } else if (r.id < marks_.size()) {
    std::atomic<std::uint32_t>& mark = marks_[static_cast<std::size_t>(r.id)];
    // who took it first: (thread + 1) << 8 | how; relaxed: a mark seen is a take that happened
    const std::uint32_t first = mark.load(std::memory_order_relaxed);
    if (first == 0) {
      mark.store(((r.thread + 1) << 8) | static_cast<std::uint32_t>(r.how),
                 std::memory_order_relaxed);
    } else if (!duplicates_allowed_) {
      const take_record earlier{r.id, (first >> 8) - 1, static_cast<taker_kind>(first & 0xff)};
      found =
          fmt::format("value {} taken twice: {}, then {}", r.id, describe(earlier), describe(r));
    }
  }
  if (found.empty() || judged_.exchange(true)) return;  // the failure path only: keep the first
  verdict_ = found + " (judged as it returned)";
  oplog::set_verdict(verdict_);
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
