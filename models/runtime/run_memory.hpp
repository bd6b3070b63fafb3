// models/runtime/run_memory.hpp: what one run of the client knows of its memory beyond the
// execution graph: per location its address (to find the locations inside a freed allocation), the
// free that ended it, and the value last written to it in this run (what an operation of a
// torn-down run returns); the model allocations (Mem::create / destroy) with their storage.
// A location is an allocation's when it was placed inside the allocation's storage after the
// allocation was made: an address alone does not say so (see free_locations).
//
// Storage is kept from run to run, keyed by the allocating thread and the allocation's number
// within that thread's run: the k-th allocation of thread t gets the same address in every run.
// A thread re-executed up to a recorded event therefore writes the same pointer values it
// wrote when the event was recorded (a deque that stores boxed values or node pointers in its
// atomics compares them in CASes), whatever the other threads allocated meanwhile, and no
// storage serves two allocations of one run.
//
// Thread role: the explorer's OS thread (the run's fibers run on it). Complexity: O(1) per
// location access; O(allocations) to find a freed pointer; O(locations) per free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/graph/event.hpp"

namespace stealcheck::model::detail {

/// One model allocation of the current run.
struct alloc_record {
  void* storage = nullptr;
  std::size_t bytes = 0;
  std::size_t count = 0;  ///< elements (0: one object)
  void (*destroy)(void*, std::size_t) = nullptr;
  bool live = true;
  event_id alloc_event;
  event_id free_event;
};

class run_memory {
 public:
  run_memory() = default;
  run_memory(const run_memory&) = delete;
  run_memory& operator=(const run_memory&) = delete;
  ~run_memory();

  /// A new run whose graph already has `locations` locations (replayed ones keep their
  /// numbers): every location unplaced, unfreed, zero; no allocation.
  void reset(std::size_t locations);

  // ---- locations ----
  /// Makes room for location `loc`. O(1) unless it is new.
  void ensure(std::uint32_t loc) {
    if (loc >= addr_.size()) grow(loc);
  }
  /// Location `loc` was (re)created at `addr` with value `init`.
  void placed(std::uint32_t loc, std::uintptr_t addr, std::uint64_t init) {
    ensure(loc);
    addr_[loc] = addr;
    since_[loc] = static_cast<std::uint32_t>(allocs_.size());
    freed_[loc] = event_id::none();
    last_[loc] = init;
  }
  /// The free that ended location `loc` in this run, or none. Requires: ensure(loc) called.
  event_id freed_by(std::uint32_t loc) const { return freed_[loc]; }
  /// The same for any location index (none when it was never placed in this run).
  event_id freed_by_any(std::size_t loc) const {
    return loc < freed_.size() ? freed_[loc] : event_id::none();
  }
  /// The value last written to `loc` in this run (ensured).
  std::uint64_t& last_written(std::uint32_t loc) {
    ensure(loc);
    return last_[loc];
  }
  /// Records v as the value last written to `loc`, a location placed in this run (the
  /// replay's fast path: no growth check). O(1).
  void written(std::uint32_t loc, std::uint64_t v) { last_[loc] = v; }
  /// The next location created is element i of an array (create_array) made at src.
  void next_is_element(std::uint32_t i, source_loc src) {
    element_ = i;
    element_src_ = src;
  }
  /// Where the array whose element was last announced was made (create_array's caller).
  source_loc element_src() const noexcept { return element_src_; }
  /// Allocation k, being made, is the array whose elements are created next (create_array).
  void allocating_array(std::uint32_t k) { array_ = k; }
  /// The allocation number of the array whose elements are being created.
  std::uint32_t array() const noexcept { return array_; }
  /// The element index announced for the location being created, once.
  std::optional<std::uint32_t> take_element() {
    if (!element_) return std::nullopt;
    const std::uint32_t i = *element_;
    element_.reset();
    return i;
  }

  // ---- allocations ----
  /// Storage for thread t's next allocation of `bytes` bytes (the storage that allocation had
  /// in earlier runs, when of that size), recorded; returns its index. Contents indeterminate.
  std::size_t allocate(std::size_t t, std::size_t bytes, std::size_t count,
                       void (*destroy)(void*, std::size_t));
  alloc_record& allocation(std::size_t k) { return allocs_[k]; }
  const std::vector<alloc_record>& allocations() const noexcept { return allocs_; }
  /// Marks every location placed inside allocation k, while k existed, freed by `f`. Returns
  /// whether any was. A location placed before k was made is not k's even when its address lies
  /// in k's range: it lived in memory (a plain `new` of the client's, freed since) that the heap
  /// later handed to k's storage.
  bool free_locations(std::size_t k, event_id f);
  /// The end of a run: the records are forgotten (the storage stays with its key).
  void give_back();

 private:
  void grow(std::uint32_t loc);

  std::vector<std::uintptr_t> addr_;
  std::vector<std::uint32_t> since_;  // allocations made in this run when the location was placed
  std::vector<event_id> freed_;
  std::vector<std::uint64_t> last_;
  std::optional<std::uint32_t> element_;
  source_loc element_src_;
  std::uint32_t array_ = 0;
  std::vector<alloc_record> allocs_;
  // [thread][k]: the storage of thread's k-th allocation, with its size, kept across runs
  std::vector<std::vector<std::pair<std::size_t, void*>>> keyed_;
  std::vector<std::size_t> made_;  // [thread]: allocations made in this run
};

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
