// models/report/cause.hpp: why a failing execution fails, in the deque's terms: the read (or the
// pair of accesses) at the heart of the bug, the write it read from and the one it missed,
// each named by its operation, and the synchronization that would have ordered them and is
// absent.
//
// Two shapes are recognised, the two every weak-memory bug of a work-stealing deque reduces
// to (Lê, Pop, Cohen, Zappa Nardelli, PPoPP 2013, section 4, name the fences of Chase–Lev by
// them):
//   message passing  a read r misses a write w (w is mo-later than the write r reads, so w is
//                    not happens-before r), while a later write w0 of w's thread is read by an
//                    earlier-or-equal read r0 of r's thread. That rf edge would carry hb from w
//                    to r if it synchronized; the report says which half is missing: w0 is not
//                    a release store and no release fence lies between w and w0, and/or r0 is
//                    not an acquire read and no acquire fence lies between r0 and r. The same
//                    for a data race or an access racing with a free (the two accesses).
//   store buffering  thread A writes w1 then reads r1; thread B saw a value (read or wrote it)
//                    then reads r2; r1 misses what B saw and r2 misses w1. Only a seq_cst
//                    fence in each thread between the two accesses forbids this (RC11's psc
//                    orders the two fences, and one read then has to see the other's write);
//                    the report names the thread without one.
// When neither shape fits (a wrong result with sequentially consistent memory, a deque whose
// logic is wrong), `lines` is empty and the report is the operations and the slice alone.
//
// Thread role: any (a pure function of the graph). Complexity: O(R * E) for R candidate
// reads and E events; reports only.
#pragma once

#include <string>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/report/verdict.hpp"

namespace stealcheck::model {

/// An edge a picture of the cause draws dashed and red: synchronization that is missing.
struct missing_edge {
  event_id from;
  event_id to;
  std::string label;
};

struct cause {
  std::vector<std::string> lines;   ///< the explanation, one sentence per line
  std::vector<event_id> events;     ///< every event the explanation names
  std::vector<missing_edge> edges;  ///< the missing synchronization
  bool empty() const noexcept { return lines.empty(); }
};

/// The cause of a bug of `kind` in the (consistent) execution g. `focus`: the events the bug
/// is about when the checker knows them (a race's two accesses, the access and the free, a
/// stuck wait's read), else empty; then the reads of the implicated operations are examined
/// (all reads when no operation is implicated).
cause explain(const graph& g, const std::vector<operation_span>& ops, error_kind kind,
              const std::vector<event_id>& focus);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
