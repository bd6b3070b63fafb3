// stress/history.hpp: concurrent histories of deque operations, and their recorder.
//
// A history is the list of completed operations of one run: who (thread 0 = owner), what
// (push / pop / steal / steal_batch), the argument or the observed result, and an invocation
// and a response timestamp. The linearizability checker (stress/lincheck.hpp) decides whether
// some total order of the operations that respects real time (a response before an
// invocation) is a legal run of the sequential deque of deques/spec.hpp.
//
// Timestamps. Clocks are not enough on weak hardware (Porcupine's note): two cores' clocks do
// not order memory operations. The recorder's clock is one shared counter incremented by an
// acq_rel RMW immediately before each operation (invocation) and after it (response). If A's
// response stamp is smaller than B's invocation stamp, A's response RMW precedes B's
// invocation RMW in the counter's modification order; every write to the counter is an RMW,
// so B's RMW reads from A's release sequence and A's operation happens-before B's: the
// recorded real-time order is real. The cost is one contended RMW per stamp (it perturbs
// timing, never the ordering inside an operation).
//
// Thread role: recorder::stamp from any thread; each thread appends to its own log.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/spec.hpp"

namespace stealcheck::stress::lincheck {

using spec::op_kind;

/// One operation of a native run: the spec's record (deques/spec.hpp) with its thread and its
/// real-time interval.
struct operation : spec::operation<std::uint64_t> {
  std::uint32_t thread = 0;    ///< 0 = the owner, 1.. = thieves
  std::uint64_t invoke = 0;    ///< recorder stamp before the call
  std::uint64_t response = 0;  ///< recorder stamp after the return
  /// 0: an operation of the owner's deque; N: a steal from thief N's own deque (steal@N,
  /// stress/scenario.hpp), shown beside a history (with_steals_from_thieves), never judged:
  /// its value is judged inside N's batch.
  std::uint32_t from_thief = 0;
};

using history = std::vector<operation>;

/// The shared clock of one recorded run.
class recorder {
 public:
  /// Thread role: any. A stamp strictly greater than every stamp taken before it.
  std::uint64_t stamp() noexcept {
    return clock_.fetch_add(1, std::memory_order_acq_rel);  // see the file comment
  }

 private:
  std::atomic<std::uint64_t> clock_{0};
};

/// "push(3)", "pop -> 5", "steal -> abort", "steal_batch -> [1,2]"
std::string describe(const operation& op);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
