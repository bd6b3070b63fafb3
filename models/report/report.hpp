// models/report/report.hpp: human-readable renderings of an execution graph.
//
//   trace(g)  per-thread listing, one event per line:
//             (thread, index) kind location value order [reads-from (t,i) | init] file:line
//   trace(g, ops, full)  the same led by the client's operations per thread (* marks those
//             the failed check is about), each event under its operation's label; unless
//             `full`, only the slice: the implicated operations' events and the writes they
//             read, with a line saying how many events were left out
//   dot(g)    Graphviz DOT with po (black), rf (green), mo (orange, dashed) edges;
//   dot(g, ops, full)  the same for the slice, events grouped by operation.
//   with a cause (models/report/cause.hpp): the report's "cause:" lines after the operations, its
//             events kept in the slice, its missing synchronization drawn dashed red.
// Thread role: any (pure functions of the graph). Complexity: O(E + mo).
// Source: the trace format follows GenMC's error traces (MPI-SWS/genmc tests/wrong/*/*.trace).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/report/cause.hpp"
#include "stealcheck/detail/models/report/verdict.hpp"

namespace stealcheck::model {

/// The location as deques/memory.hpp ("Location names") documents: its name ("top"), or
/// "file.hpp:123" of its constructor when unnamed; "#k" when several scalar locations of g
/// print alike (k-th in creation order); "ring#k[i]" for element i of the k-th array of that
/// name (or line) in the execution. O(locations); only when printing.
std::string location_name(const graph& g, std::uint32_t loc);
/// A value as traces print it: signed decimal, or hex when it looks like a pointer.
std::string value_text(std::uint64_t v);
/// "(t, i)".
std::string event_name(const graph& g, event_id id);
/// One line for event id (without a newline).
std::string event_line(const graph& g, event_id id);
std::string trace(const graph& g);
/// With a cause (models/report/cause.hpp): its lines follow the operations, and the slice keeps
/// every event it names.
std::string trace(const graph& g, const std::vector<operation_span>& ops, bool full,
                  const cause& why = {});
/// trace(g, ops, false, why) fits in this many lines (one screen, with the two lines of the
/// verdict above it and the replay line below).
inline constexpr std::size_t report_lines = 36;
/// The slice trace(g, ops, false) lists: per thread, per event, whether it is kept. Always
/// the events `why` names; then, while the listing fits in report_lines, the implicated
/// operations' accesses and fences, their other events, and (no operation implicated) the
/// events around the cause's; each read with the write it reads (closed under rf).
std::vector<std::vector<char>> slice(const graph& g, const std::vector<operation_span>& ops,
                                     const cause& why = {});
std::string dot(const graph& g);
/// Thread t cut by the event bound: the source lines of its last half of events, most
/// frequent first (the loop it is in, "chase_lev.hpp:254 x120"), then its last 12 events.
std::string loop_trace(const graph& g, std::size_t t);
/// Whether the last half of thread t's events (the part loop_trace reads) holds a write.
bool loop_writes(const graph& g, std::size_t t);
/// The slice as DOT: a cluster per thread, inside it one per operation (red when the check
/// is about it), the slice's events, po between them (dashed where events were left out),
/// and the rf and mo edges among them; `full` or no implicated operation: every event. The
/// cause's missing synchronization is drawn as dashed red edges.
std::string dot(const graph& g, const std::vector<operation_span>& ops, bool full,
                const cause& why = {});

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
