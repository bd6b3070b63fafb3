// models/graph/graph.hpp: an execution graph: events per thread (po), reads-from (in each read
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

#include "stealcheck/detail/models/graph/event.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"

namespace stealcheck::model {

/// A location: created by an atomic/non-atomic/mutex constructor. `key` identifies it across
/// re-executions: (creating thread << 32) | (that thread's creation counter). How it prints
/// (report.hpp location_name): `name`, or `src` when unnamed; an array element after its
/// array's alloc event (event.hpp), which has the array's name and line.
struct location {
  std::uint64_t key = 0;
  source_loc src;
  const char* name = nullptr;  ///< the name given at construction (a string literal), or null
  std::uint32_t element = 0;   ///< index inside a create_array, else 0
  std::uint32_t alloc = 0;     ///< in_array: the array's allocation number (its alloc's aux)
  bool atomic = true;
  std::uint8_t width = 8;  ///< value width in bytes (RMW results wrap at this width)
  bool in_array = false;
};

/// No location index to try first (graph::location_for).
inline constexpr std::uint32_t location_hint_none = ~std::uint32_t{0};

/// Per thread: which spawn event created it (thread 0, the client's main, has none).
struct thread_info {
  event_id created_by;
};

class graph {
 public:
  std::vector<std::vector<event>> threads;
  std::vector<thread_info> info;
  std::vector<location> locs;
  std::vector<std::vector<event_id>> mo;  ///< per location, writes in mo order
  std::uint32_t next_stamp = 1;

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
  /// Kept events are porf-closed, so their hb clocks stay valid (the graph's consistency
  /// checker is told with truncate_to). O(removed + writes).
  void rewind(std::uint32_t s);
  /// A copy keeping only the events with keep[t] > index (a per-thread prefix length) and
  /// dropping deleted writes from mo; reads whose rf is dropped keep a dangling rf (the caller
  /// repairs them). Built without copying the dropped events. Its consistency checker is the
  /// old graph's restricted to it (consistency_checker::restricted).
  graph prefix(const std::vector<std::int32_t>& keep) const;
};

/// A per-thread "view": events (t, i) with i < len[t]. Used for porf-prefixes and stamps.
using view = std::vector<std::int32_t>;

/// Sets read `r` to read from `w`: value, added_max=false; a CAS read part gets cas_ok and
/// its order from the value. Does not touch the write part. When r is not new, its graph's
/// consistency checker is told first (reads_from_changed, or truncate when r is po-last).
void set_reads_from(graph& g, event_id r, event_id w);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
