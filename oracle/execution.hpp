// oracle/execution.hpp: a candidate execution as the axiomatic models read it: events, the
// reads-from choice, the modification order per location, and program order.
//
// An event belongs to a thread (or is an initial write, thread -1, sb-before every thread
// event), accesses at most one location, and reads, writes, both (an RMW), or neither (a fence,
// or an event with no memory effect, such as a thread's creation). An RMW is one event that
// reads and writes; an execution may also give it as RC11 does, a read and its po-next write
// joined by a pair of `rmw`. `sync` adds synchronisation that is neither program order nor
// reads-from: a thread's creation before its first event, its last event before its join
// (C++ [thread.thread.constr], [thread.thread.member]); it is part of hb.
//
// Complexity: program_order O(n^2 / 64) for n events. No cap on n.
// Source: candidate executions of Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing Sequential
// Consistency in C/C++11", PLDI 2017, section 3.1.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "stealcheck/detail/oracle/relation.hpp"

namespace stealcheck::oracle {

using value_t = std::int64_t;

struct event {
  int thread = -1;  ///< -1: an initial write
  int loc = -1;     ///< -1: no location (a fence, or an event with no memory effect)
  bool r = false;
  bool w = false;
  bool fence = false;
  /// The access's order (an RMW's covers its read and its write: acq_rel is acquire and
  /// release); consume counts as acquire. A failed compare-exchange is a read with its
  /// failure order.
  std::memory_order ord = std::memory_order_relaxed;
  /// False for a non-atomic write (a location's initialisation by its constructor): it heads
  /// no release sequence, so a release fence before it synchronizes with no read of it (RC11's
  /// rs starts at an atomic write, Lahav et al. PLDI 2017, section 3.1).
  bool atomic = true;
  value_t rval = 0;  ///< a read: the value it returns
  value_t wval = 0;  ///< a write: the value it writes
};

struct execution {
  /// Every event; each thread's events appear in program order (not necessarily together).
  std::vector<event> ev;
  /// Per event, the write it reads from; -1 if it reads nothing.
  std::vector<int> rf;
  /// Per location, its writes in modification order (the initial write first).
  std::vector<std::vector<int>> mo;
  /// RMWs given as two events: (read, write) pairs. An event that reads and writes needs none.
  std::vector<std::pair<int, int>> rmw;
  /// Synchronisation outside sb and rf (thread creation and join): (before, after) pairs.
  std::vector<std::pair<int, int>> sync;
};

/// sb: each thread's events in the order of `ev`, and every initial write before every
/// thread event.
relation program_order(const std::vector<event>& ev);

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
