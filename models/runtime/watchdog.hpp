// models/runtime/watchdog.hpp: the stall watchdog's view of an exploration (implemented in
// watchdog.cpp): one slot per exploring OS thread, written by the explorer at each switch
// into a fiber, read once a second by the watchdog's own thread.
//
// Thread role: a slot has one writer (its exploration's OS thread) and one reader (the
// watchdog). Complexity: O(1) per switch.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "stealcheck/detail/models/graph/event.hpp"

namespace stealcheck::model::detail {

/// What the stall watchdog (models/runtime/watchdog.cpp) sees of one exploring OS thread: written
/// by the explorer at each switch into a fiber, read once a second by the watchdog's thread.
/// One cache line each: the explorers of a parallel run write their slots at every switch, and
/// two slots in one line made them contend for it.
struct alignas(64) progress_slot {
  std::atomic<bool> used{false};                 ///< held by an exploration (acquire_progress_slot)
  std::atomic<bool> active{false};               ///< watched now (not during a token replay)
  std::atomic<std::uint32_t> stall_seconds{60};  ///< options::stall_seconds; 0: not judged
  /// Switches into and out of fibers so far: odd while a fiber runs, even while the explorer
  /// does.
  std::atomic<std::uint64_t> switches{0};
  /// The fiber last resumed, its last event then and that event's source line, packed:
  /// thread << 56 | (index + 1) << 32 | line (index -1: no event yet). See `where_*`.
  std::atomic<std::uint64_t> where{0};
  std::atomic<const char*> file{nullptr};  ///< that event's source file (nullptr: none)
  /// Called by the explorer right before it resumes fiber t whose last event is `last`, the
  /// event (t, index) (nullptr, -1: none yet). Only the explorer's OS thread writes a slot.
  void resumed(std::size_t t, std::int32_t index, const event* last) {
    where.store(std::uint64_t{t} << 56 |
                    std::uint64_t(static_cast<std::uint32_t>(index + 1)) << 32 |
                    (last != nullptr ? last->src.line : 0U),
                std::memory_order_relaxed);  // published by bump()'s release store
    file.store(last != nullptr ? last->src.file : nullptr,
               std::memory_order_relaxed);  // published by bump()'s release store
    bump();
  }
  /// Called by the explorer when the fiber it resumed switched back.
  void returned() { bump(); }
  static std::uint32_t where_thread(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 56); }
  static std::int32_t where_index(std::uint64_t w) {
    return static_cast<std::int32_t>((w >> 32) & 0xffffff) - 1;
  }
  static std::uint32_t where_line(std::uint64_t w) { return static_cast<std::uint32_t>(w); }

 private:
  void bump() {
    // release: the watchdog's acquire load of the count sees `where` and `file` with it;
    // relaxed could show it a new count with the fields of an older resume. One writer: a
    // load and a store, not a locked read-modify-write
    switches.store(switches.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
};

/// A slot for the calling exploration, watched with the given limit (0: never judged), or
/// nullptr when every slot is taken (that exploration is not watched). Starts the watchdog's
/// thread if no other exploration holds a slot. Release it with release_progress_slot, which
/// joins the thread when no slot is held any more: between explorations the process has no
/// thread of the model checker's (it may fork()).
progress_slot* acquire_progress_slot(std::uint32_t stall_seconds);
void release_progress_slot(progress_slot* s);

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
