// scheduler/frame_arena.hpp: the per-worker allocator of coroutine frames for continuation
// stealing (scheduler/coro_task.hpp, scheduler/coro_pool.hpp), and its count of live frames.
//
// A frame is allocated by the worker that calls the coroutine and freed by the worker that
// finishes it, which differs from the first when the frame's continuation was stolen. Blocks
// therefore go back to the free list of the *freeing* worker: a frame migrates at most once per
// steal of its continuation, and every arena of a pool lives until the pool is destroyed.
// Layout: 64 KiB chunks carved by a bump pointer into blocks of 64-byte size classes (up to 2 KiB),
// one LIFO free list per class, so the allocation of a fork's frame is a free-list pop or a bump
// and no malloc call once the arena is warm. A 16-byte header in front of each block holds its
// class and, while allocated, the arena that allocated it (while free: the free-list link); a
// larger frame (or one allocated off the pool's threads) comes from ::operator new and says so in
// its header.
//
// Counting: `live` is the frames this arena allocated that are not yet freed, `peak` its maximum
// since reset(). A frame freed by its allocating worker decrements with a plain store; one freed
// on another worker (its continuation was stolen: at most one per steal) bumps the allocating
// arena's `remote_frees` with a relaxed RMW, which the owner folds into `live` at its next
// allocation, before it updates `peak`. The fast path has no RMW. The sum of the workers' peaks
// is an upper bound of the pool's peak of live frames (their maxima may fall at different times).
//
// Thread role: allocate/deallocate by the arena's worker only (an arena pointer of null means
// "the calling thread is no worker": heap); peak()/live() by any thread (relaxed snapshots,
// exact once the pool is quiescent); reset() only while no job runs.
// Complexity: O(1) per call; a new chunk every 64 KiB of frames that are live at once.
// Source: the per-thread size-class free lists of Hoard/tcmalloc, shrunk to one use; libfork
// (C. Williams) keeps coroutine frames on per-worker stacks for the same reason: no malloc per
// fork.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace stealcheck::scheduler {

/// A count of live objects and its peak since reset(). Thread role: add() by one thread at a
/// time (its owner: a load and a store, no read-modify-write); live()/peak() by any thread
/// (relaxed snapshots); reset() while the owner is idle (ordered by whatever restarts it).
class live_peak {
 public:
  void add(std::int64_t d) noexcept {
    // relaxed: a statistic with one writer; readers want a snapshot, nothing is published.
    const std::int64_t v = live_.load(std::memory_order_relaxed) + d;
    live_.store(v, std::memory_order_relaxed);
    if (v > peak_.load(std::memory_order_relaxed)) peak_.store(v, std::memory_order_relaxed);
  }
  std::int64_t live() const noexcept { return live_.load(std::memory_order_relaxed); }
  std::int64_t peak() const noexcept { return peak_.load(std::memory_order_relaxed); }
  void reset() noexcept {
    live_.store(0, std::memory_order_relaxed);  // relaxed: the owner is idle (see above)
    peak_.store(0, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::int64_t> live_{0}, peak_{0};
};

class frame_arena {
 public:
  static constexpr std::size_t header = 16;  // keeps the frame 16-byte aligned
  static constexpr std::size_t granule = 64;
  static constexpr std::size_t classes = 32;  // blocks of 64 .. 2048 bytes, header included
  static constexpr std::size_t chunk_bytes = std::size_t{64} << 10;
  static constexpr std::uint32_t heap_class = 0xffffffffu;

  frame_arena() = default;
  frame_arena(const frame_arena&) = delete;
  frame_arena& operator=(const frame_arena&) = delete;
  ~frame_arena() {
    for (std::byte* c : chunks_)
      ::operator delete(c);
  }

  /// Thread role: the worker owning `a`, or any thread with a = nullptr (heap, not counted).
  /// Returns n bytes aligned to 16. Throws std::bad_alloc when the heap does.
  [[gnu::always_inline]] static void* allocate(frame_arena* a, std::size_t n) {
    const std::size_t total = n + header;
    const std::size_t cls = (total + granule - 1) / granule - 1;
    if (a == nullptr || cls >= classes) {
      auto* b = static_cast<std::byte*>(::operator new(total));
      set_class(b, heap_class);
      set_owner(b, a);
      if (a != nullptr) a->count_allocation();
      return b + header;
    }
    std::byte* b = a->free_[cls];
    if (b != nullptr) {
      a->free_[cls] = next_of(b);
    } else {
      b = a->bump((cls + 1) * granule);
    }
    set_class(b, static_cast<std::uint32_t>(cls));
    set_owner(b, a);
    a->count_allocation();
    return b + header;
  }

  /// Thread role: the worker owning `a` (the freeing worker, not necessarily the allocating
  /// one). `reuse` false keeps the block out of the free lists until the arena dies (a quarantine
  /// for the known-bad policy of scheduler/known_bad.hpp, whose late writes must hit dead memory).
  /// Requires: p came from allocate(); an arena block is freed on some worker of its pool.
  [[gnu::always_inline]] static void deallocate(frame_arena* a, void* p,
                                                bool reuse = true) noexcept {
    std::byte* b = static_cast<std::byte*>(p) - header;
    const std::uint32_t cls = class_of(b);
    if (frame_arena* owner = owner_of(b); owner == a) {
      if (a != nullptr) a->count_.add(-1);
    } else if (owner != nullptr) {
      // relaxed: a statistic; the owner folds it in later, nothing is published by it.
      owner->remote_frees_.fetch_add(1, std::memory_order_relaxed);
    }
    if (cls == heap_class) {
      ::operator delete(b);
      return;
    }
    assert(a != nullptr && "frame_arena: an arena frame freed off the pool's workers");
    if (a == nullptr || !reuse) return;  // the owning arena frees its chunk later
    set_next(b, a->free_[cls]);
    a->free_[cls] = b;
  }

  /// Thread role: any (a snapshot; exact when the pool is quiescent).
  std::int64_t peak() const noexcept { return count_.peak(); }
  std::int64_t live() const noexcept {
    // relaxed: snapshots (see above)
    return count_.live() - (remote_frees_.load(std::memory_order_relaxed) -
                            folded_.load(std::memory_order_relaxed));
  }
  /// Thread role: any, while no job runs (the next job's injection orders it before the
  /// worker's next access). Sets live and peak to 0: a finished job leaves no frame alive, so
  /// the workers' live counts sum to 0 and may be dropped together.
  void reset() noexcept {
    count_.reset();
    folded_.store(remote_frees_.load(std::memory_order_relaxed),
                  std::memory_order_relaxed);  // relaxed: quiescent
  }

 private:
  void count_allocation() noexcept {
    // relaxed: a statistic; frees by other workers are folded in late, never lost.
    const std::int64_t r = remote_frees_.load(std::memory_order_relaxed);
    count_.add(1 - (r - folded_.load(std::memory_order_relaxed)));
    folded_.store(r, std::memory_order_relaxed);
  }
  std::byte* bump(std::size_t bytes) {
    if (static_cast<std::size_t>(end_ - cur_) < bytes) new_chunk();
    std::byte* b = cur_;
    cur_ += bytes;
    return b;
  }
  [[gnu::noinline]] void new_chunk() {
    cur_ = static_cast<std::byte*>(::operator new(chunk_bytes));
    chunks_.push_back(cur_);  // the remainder of the old chunk is left unused
    end_ = cur_ + chunk_bytes;
  }
  // The header: bytes 0-3 the class; 8-15 the owner while allocated, the free-list link while
  // free.
  static void set_class(std::byte* b, std::uint32_t c) noexcept {
    *reinterpret_cast<std::uint32_t*>(b) = c;
  }
  static std::uint32_t class_of(const std::byte* b) noexcept {
    return *reinterpret_cast<const std::uint32_t*>(b);
  }
  static void set_next(std::byte* b, std::byte* n) noexcept {
    *reinterpret_cast<std::byte**>(b + 8) = n;
  }
  static std::byte* next_of(std::byte* b) noexcept { return *reinterpret_cast<std::byte**>(b + 8); }
  static void set_owner(std::byte* b, frame_arena* a) noexcept {
    *reinterpret_cast<frame_arena**>(b + 8) = a;
  }
  static frame_arena* owner_of(std::byte* b) noexcept {
    return *reinterpret_cast<frame_arena**>(b + 8);
  }

  std::array<std::byte*, classes> free_{};
  std::byte* cur_ = nullptr;
  std::byte* end_ = nullptr;
  std::vector<std::byte*> chunks_;
  live_peak count_;
  std::atomic<std::int64_t> folded_{0};  // remote_frees_ already counted in count_ (owner-written)
  alignas(64) std::atomic<std::int64_t> remote_frees_{0};
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
