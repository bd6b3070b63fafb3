// scheduler/idle.hpp: what a worker does between two failed steal attempts while it spins idle
// or helps at a join (pool_options::idle), apart from the pool so that the schedule itself is
// tested. After pool_options::spin of spinning, an idle worker parks whatever the policy.
//
// Thread role: a worker, on its own count of failed attempts.
// Complexity: O(1) to compute; the wait itself is `pauses` cpu_relax() or one sched_yield.
#pragma once

#include <cstdint>
#include <string_view>

namespace stealcheck::scheduler {

/// The wait after a failed steal attempt.
enum class idle_policy : std::uint8_t {
  /// 16 pause instructions, and every fourth failure a yield of the processor: Arora, Blumofe
  /// and Plaxton's yield between steal attempts (SPAA 1998), which their bound for more workers
  /// than processors needs. The default.
  pause,
  /// Exponential backoff: 2^k pauses for the k-th failure in a row (1, 2, 4, ... 64), then a
  /// yield each time: crossbeam_utils::Backoff::snooze (crossbeam-utils/src/backoff.rs,
  /// SPIN_LIMIT 6).
  snooze,
  /// A yield of the processor after every failed attempt: rayon-core's idle rounds
  /// (rayon-core/src/sleep/mod.rs, Sleep::no_work_found: thread::yield_now until sleepy).
  yield,
};

/// "pause", "snooze", "yield".
constexpr std::string_view idle_policy_name(idle_policy p) noexcept {
  switch (p) {
    case idle_policy::pause:
      return "pause";
    case idle_policy::snooze:
      return "snooze";
    case idle_policy::yield:
      return "yield";
  }
  return "pause";
}

/// One wait: `pauses` cpu_relax() calls, then a yield of the processor if `yield`.
struct idle_wait {
  unsigned pauses = 0;
  bool yield = false;
};

/// The wait after the `fails`-th failed attempt in a row (fails >= 1).
constexpr idle_wait idle_wait_after(idle_policy p, unsigned fails) noexcept {
  constexpr unsigned spin_limit = 6;  // snooze: at most 2^6 pauses before it yields
  switch (p) {
    case idle_policy::pause:
      return fails % 4 == 0 ? idle_wait{0, true} : idle_wait{16, false};
    case idle_policy::snooze:
      return fails - 1 <= spin_limit ? idle_wait{1u << (fails - 1), false} : idle_wait{0, true};
    case idle_policy::yield:
      return idle_wait{0, true};
  }
  return idle_wait{16, false};
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
