// models/graph.hpp: an execution graph: events per thread (po), reads-from (in each read
// event), and modification order (mo) per location.
//
// Thread role: explorer thread only (a value type; copies are independent).
// Invariants: each thread's events are a po-prefix; stamps grow along po; mo(loc) lists the
// location's writes in modification order, its init write first; a read's rf is a write to
// the same location present in the graph.
// Complexity: lookups O(1); mo position O(writes at the location).
// Source: RC11 execution graphs (Lahav et al., PLDI 2017, section 3); per-event stamps and
// restriction to a view as in TruSt (Kokologiannakis et al., POPL 2022, section 4).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/event.hpp"
#include "models/memory_model.hpp"

namespace stealcheck::model {

/// A location: created by an atomic/non-atomic/mutex constructor. `key` identifies it across
/// re-executions: (creating thread << 32) | (that thread's creation counter).
struct location {
  std::uint64_t key = 0;
  bool atomic = true;
  std::uint8_t width = 8;  ///< value width in bytes (RMW results wrap at this width)
  source_loc src;
  std::uint32_t element = 0;  ///< index inside a create_array, else 0
  bool in_array = false;
};

/// No location index to try first (graph::location_for).
inline constexpr std::uint32_t location_hint_none = ~std::uint32_t{0};

/// Per thread: which spawn event created it (thread 0, the client's main, has none).
struct thread_info {
  event_id created_by;
};

/// Happens-before clocks cached with a graph object (models/hb.hpp fills and reads them).
/// Per event, `width` 16-bit counts (hb_cache::clock) each of: the hb clock (events of each
/// thread hb-before-or-equal), the release clock an acquire reading the event synchronizes
/// with, the accumulated acquire / last-release-fence clocks after the event, and the porf
/// clock (events of each thread in its po ∪ rf ∪ thread-edge prefix). The clocks of an event
/// are stored together (one allocation per thread, so copying a graph stays cheap).
/// `valid[t]` counts the events of thread t whose entries are current. The cache is copied
/// with the graph; it survives appends, is clamped by truncation, and is dropped when an
/// existing event's reads-from changes.
///
/// Each entry also holds a psc rank (models/psc.hpp, psc_certify): while `ranks_valid`, every
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
struct hb_cache {
  static constexpr std::size_t width = max_threads;  ///< maximum number of model threads
  /// A clock component: a count of one thread's events, so at most max_events + 2 (a thread
  /// is cut at max_events, then gets its block and end events). 16 bits: a clock is one SSE2
  /// register, and joining two is one pmaxsw.
  using clock = std::int16_t;
  static constexpr std::uint32_t max_events = max_events_cap;  ///< cap on max_events_per_thread
  struct entry {
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

  hb_cache() = default;
  /// Copies the current entries only, with room for a few more.
  hb_cache(const hb_cache& o)
      : valid(o.valid), base(o.base), ranks_valid(o.ranks_valid), rank_epoch(o.rank_epoch) {
    ev.resize(o.ev.size());
    for (std::size_t t = 0; t < o.ev.size(); ++t) {
      const std::size_t n = std::min(o.ev[t].size(), o.valid[t]);
      ev[t].reserve(n + 8);  // the copy is extended next: no reallocation for a while
      ev[t].assign(o.ev[t].begin(), o.ev[t].begin() + static_cast<std::ptrdiff_t>(n));
    }
  }
  hb_cache& operator=(const hb_cache& o) {
    if (this != &o) {
      hb_cache tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  hb_cache(hb_cache&&) noexcept = default;
  hb_cache& operator=(hb_cache&&) noexcept = default;

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

class graph {
 public:
  std::vector<std::vector<event>> threads;
  std::vector<thread_info> info;
  std::vector<location> locs;
  std::vector<std::vector<event_id>> mo;  ///< per location, writes in mo order
  std::uint32_t next_stamp = 1;
  mutable hb_cache hbc;  ///< derived data (see hb_cache); not part of the graph's value

  graph() = default;
  /// Copies with room for a few more events per thread (the explorer appends to copies).
  graph(const graph& o);
  graph& operator=(const graph& o);
  graph(graph&&) noexcept = default;
  graph& operator=(graph&&) noexcept = default;

  const event& at(event_id id) const {
    return threads[static_cast<std::size_t>(id.thread)][static_cast<std::size_t>(id.index)];
  }
  event& at(event_id id) {
    return threads[static_cast<std::size_t>(id.thread)][static_cast<std::size_t>(id.index)];
  }
  bool contains(event_id id) const noexcept {
    return id.valid() && static_cast<std::size_t>(id.thread) < threads.size() && id.index >= 0 &&
           static_cast<std::size_t>(id.index) < threads[static_cast<std::size_t>(id.thread)].size();
  }
  std::size_t size(std::size_t t) const { return threads[t].size(); }
  std::size_t event_count() const {
    std::size_t n = 0;
    for (const auto& t : threads)
      n += t.size();
    return n;
  }

  /// Removes the last event of thread t (an undone tentative append).
  void pop_back(std::size_t t) {
    threads[t].pop_back();
    --next_stamp;
    hbc.clamp(t, threads[t].size());
  }
  /// Appends `e` to thread `t` (creating the thread if needed); sets its stamp.
  event_id append(std::size_t t, event e);
  /// Position of write `w` in mo of its location, or -1.
  int mo_pos(event_id w) const;
  /// Inserts write `w` into mo of its location at position `pos` (0 = first).
  void mo_insert(event_id w, std::size_t pos);
  /// The mo-maximal write of `loc`, or none.
  event_id mo_max(std::uint32_t loc) const;

  /// The location index for `l.key`, adding `l` when new (and refreshing it otherwise).
  /// `hint`: the index to try first (a replay knows it); O(1) when it is right, else
  /// O(locations).
  std::uint32_t location_for(const location& l, std::uint32_t hint = location_hint_none);

  /// Removes every event with stamp >= s: the graph as it was before the event stamped s was
  /// added, provided no kept event changed since (the explorer's forward choices only append).
  /// Kept events are porf-closed, so their hb entries stay valid. O(removed + writes).
  void rewind(std::uint32_t s);
  /// A copy keeping only the events with keep[t] > index (a per-thread prefix length) and
  /// dropping deleted writes from mo; reads whose rf is dropped keep a dangling rf (the caller
  /// repairs them). Built without copying the dropped events. It
  /// keeps the hb entries of the kept events: callers that change an event clamp its thread's
  /// entries first (hbc.clamp), or set_reads_from drops the whole cache. The psc ranks stay
  /// valid for the kept events as they were (ranks_valid is copied); a caller that changes
  /// an event must rank it anew (rc11_consistent_revisit).
  graph prefix(const std::vector<std::int32_t>& keep) const;
};

/// A per-thread "view": events (t, i) with i < len[t]. Used for porf-prefixes and stamps.
using view = std::vector<std::int32_t>;

/// Sets read `r` to read from `w`: value, added_max=false; a CAS read part gets cas_ok and
/// its order from the value. Does not touch the write part.
void set_reads_from(graph& g, event_id r, event_id w);

}  // namespace stealcheck::model
