// models/graph/hb.hpp: happens-before of an execution graph, as vector clocks.
//
// hb = (po U sw U tc)+ where tc are the thread edges (spawn -> child's first event, child's
// last event -> join) and sw follows RC11 (Lahav et al., PLDI 2017, section 3.1):
//   sw = [E_rel]; ([F]; po)?; rs; rf; [R]; (po; [F])?; [E_acq]
// with C++20 release sequences rs = [W]; (rf; rmw)* (no same-thread plain writes; this is
// what the oracle, docs/rc11-oracle.md, and GenMC use). consume counts as acquire.
// Only atomic reads take part in sw; non-atomic accesses appear in po only. A location's init
// write is its constructor's, non-atomic: it heads no release sequence (a release fence before
// it synchronizes with no read of it), as RC11's rs = [W ⊒ rlx]; (rf; rmw)* has it.
//
// Thread role: explorer thread only. Requires: a graph whose reads have rf set.
// Returns: nullptr from hb_of if po U rf U tc is cyclic (such a graph is inconsistent in
// every model: RC11's no-thin-air axiom).
// Complexity: O(T) per event added since the last call; O(E * T) after a change to an
// existing event. Requires: at most hb_clocks::width threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stealcheck/detail/models/graph/graph.hpp"

namespace stealcheck::model {

/// Happens-before clocks of one graph, kept by the consistency checker that checks it
/// (models/graph/consistency.hpp), which fills and reads them through the functions below.
/// Per event, `width` 16-bit counts (hb_clocks::clock) each of: the hb clock (events of each
/// thread hb-before-or-equal), the release clock an acquire reading the event synchronizes
/// with, the accumulated acquire / last-release-fence clocks after the event, and the porf
/// clock (events of each thread in its po ∪ rf ∪ thread-edge prefix). The clocks of an event
/// are stored together (one allocation per thread, so copying one stays cheap).
/// `valid[t]` counts the events of thread t whose entries are current. The entries survive
/// appends to the graph; whoever truncates the graph clamps them (clamp), and whoever changes
/// an existing event's reads-from drops them (drop): consistency_checker does both.
///
/// Each entry also holds a psc rank (models/graph/psc.hpp, psc_certify): while `ranks_valid`, every
/// psc edge a -> b of the graph has rank(a) < rank(b), a witness that psc is acyclic that
/// later checks extend instead of recomputing psc. A new event's rank is its stamp, above
/// every rank before it (a new event has psc edges into it only, until it is checked);
/// psc_certify ranks all sc events below 0 in a topological order of psc, spaced apart, and
/// the SC axiom's incremental check may lower one event's rank to between its possible
/// psc-predecessors (rc11.cpp, max_pred_rank) and the events it must rank below: both bump
/// `rank_epoch`. Lowering a rank that
/// way keeps the order topological (every successor already ranks higher). Removing events
/// keeps ranks valid (a restriction of a topological order); drop() (an existing event
/// changed) makes them invalid.
struct hb_clocks {
  static constexpr std::size_t width = max_threads;  ///< maximum number of model threads
  /// A clock component: a count of one thread's events, so at most max_events + 2 (a thread
  /// is cut at max_events, then gets its block and end events). 16 bits: a clock is one SSE2
  /// register, and joining two is one pmaxsw.
  using clock = std::int16_t;
  static constexpr std::uint32_t max_events = max_events_cap;  ///< cap on max_events_per_thread
  // Every field is written when the entry's event is added (the clocks are its hb/porf
  // prefix): zeroing them first would add a memset to the explorer's hottest path.
  struct entry {  // NOLINT(cppcoreguidelines-pro-type-member-init)
    clock clk[width], rel[width], acc[width], frel[width];
    clock porf[width];  ///< events of each thread in the porf-prefix (inclusive)
    std::int32_t rank;  ///< psc rank (sc events; see above)
    /// The index of this thread's po-last sc fence up to this event (inclusive), or -1: the
    /// sc fences of a thread are a chain from its last event (walked by the SC axiom, rc11.cpp).
    std::int32_t scf = -1;
  };
  std::vector<std::vector<entry>> ev;         ///< per thread, per event
  std::array<std::size_t, width> valid{};     ///< per thread: current entries
  std::array<std::size_t, width + 1> base{};  ///< flat numbering of events (by hb_of)
  bool ranks_valid = false;                   ///< see above
  std::uint64_t rank_epoch = 0;               ///< rank changes (see above)

  hb_clocks() = default;
  /// Copies the current entries only, with room for a few more.
  hb_clocks(const hb_clocks& o)
      : valid(o.valid), base(o.base), ranks_valid(o.ranks_valid), rank_epoch(o.rank_epoch) {
    ev.resize(o.ev.size());
    for (std::size_t t = 0; t < o.ev.size(); ++t) {
      const std::size_t n = std::min(o.ev[t].size(), o.valid[t]);
      ev[t].reserve(n + 8);  // the copy is extended next: no reallocation for a while
      ev[t].assign(o.ev[t].begin(), o.ev[t].begin() + static_cast<std::ptrdiff_t>(n));
    }
  }
  hb_clocks& operator=(const hb_clocks& o) {
    if (this != &o) {
      hb_clocks tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  hb_clocks(hb_clocks&&) noexcept = default;
  hb_clocks& operator=(hb_clocks&&) noexcept = default;

  const clock* of(event_id e) const {
    return ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].clk;
  }
  /// The index of event e in the flat numbering of the events (base, set by hb_of).
  std::size_t flat(event_id e) const {
    return base[static_cast<std::size_t>(e.thread)] + static_cast<std::size_t>(e.index);
  }
  /// a hb b (strict).
  bool hb(event_id a, event_id b) const { return !(a == b) && of(b)[a.thread] > a.index; }
  /// a hb b or a == b.
  bool hb_eq(event_id a, event_id b) const { return of(b)[a.thread] > a.index; }
  void clamp(std::size_t t, std::size_t n) {
    if (t < valid.size() && valid[t] > n) valid[t] = n;
  }
  void drop() {
    valid.fill(0);
    ranks_valid = false;
  }
  /// The psc rank of event e (current entry required).
  std::int32_t rank(event_id e) const {
    return ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].rank;
  }
};

/// g's clocks in c, brought up to date (only events added since the last call are computed,
/// in O(T) each). c holds g's clocks, or another graph's of which g keeps the first
/// c.valid[t] events of each thread unchanged. nullptr if po U rf U tc is cyclic.
const hb_clocks* hb_of(const graph& g, hb_clocks& c);

/// The porf-prefix of e (inclusive) as per-thread prefix lengths, from the cached porf
/// clocks (O(T) after hb_of). Requires: po U rf U tc acyclic (every graph the explorer
/// extends is).
view porf_prefix(const graph& g, hb_clocks& c, event_id e);

/// The porf-prefix of the next event of thread t (without that event), as per-thread prefix
/// lengths: its po-predecessor's, or the spawn's for a first event (all zero if g has a
/// po U rf cycle). Valid until g changes. O(T) after hb_of.
const hb_clocks::clock* porf_before_next(const graph& g, hb_clocks& c, std::size_t t);

/// Whether g has a read of `loc` outside the porf-prefix `pre` (per thread, the prefix
/// length), counting only reads that may still be backward-revisited if `revisitable_only`.
/// A write whose porf-prefix is `pre` can be read by exactly such reads (TruSt's backward
/// revisits). O(events outside pre).
bool read_outside(const graph& g, std::uint32_t loc, const hb_clocks::clock* pre,
                  bool revisitable_only);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
