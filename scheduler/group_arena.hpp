// scheduler/group_arena.hpp: the bump allocator a task_group keeps its spawned closures in.
//
// An inline block inside the group (so small groups never touch the heap), then 4 KiB heap
// blocks; reset() rewinds to the inline block and keeps the heap blocks for reuse, so a group
// that spawns and waits in a loop allocates only on its first rounds. Objects are destroyed by
// their tasks (task_group), never by the arena.
//
// Thread role: the group's owner thread only (spawn and wait). Complexity: allocate O(1)
// amortised; reset O(1). Not a general allocator: memory is reused only after reset().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace stealcheck::scheduler {

class group_arena {  // NOLINT(cppcoreguidelines-pro-type-member-init): inline_ is raw storage
 public:
  static constexpr std::size_t inline_bytes = 768;
  static constexpr std::size_t block_bytes = 4096;
  /// The allocation unit (and the largest alignment served): operator new[]'s guarantee.
  static constexpr std::size_t grain = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

  group_arena() = default;  // NOLINT(cppcoreguidelines-pro-type-member-init): as above
  group_arena(const group_arena&) = delete;
  group_arena& operator=(const group_arena&) = delete;

  /// Storage for one T, valid until reset() or destruction. Every object takes a multiple of
  /// `grain` bytes, so the cursor stays grain-aligned and the hot path is a compare and an add.
  /// Requires: alignof(T) <= grain.
  template <class T>
  void* allocate() {
    static_assert(alignof(T) <= grain, "group_arena: over-aligned closure");
    constexpr std::size_t size = (sizeof(T) + grain - 1) / grain * grain;
    if (size > static_cast<std::size_t>(end_ - cursor_)) [[unlikely]]
      next_block(size);
    std::byte* p = cursor_;
    cursor_ += size;
    return p;
  }

  /// Requires: every object allocated since the last reset() has been destroyed.
  void reset() noexcept {
    current_ = 0;
    cursor_ = inline_;
    end_ = inline_ + inline_bytes;
  }

 private:
  // Moves to the next heap block that holds `need` bytes, allocating one if needed.
  void next_block(std::size_t need) {
    while (current_ < blocks_.size() && blocks_[current_].size < need)
      ++current_;
    if (current_ == blocks_.size()) {
      const std::size_t bytes = need > block_bytes ? need : block_bytes;
      blocks_.push_back({std::make_unique_for_overwrite<std::byte[]>(bytes), bytes});
    }
    cursor_ = blocks_[current_].data.get();
    end_ = cursor_ + blocks_[current_].size;
    ++current_;
  }

  struct block {
    std::unique_ptr<std::byte[]> data;
    std::size_t size;
  };
  // raw storage for allocate(), left uninitialized: zeroing it would cost every group a memset
  alignas(std::max_align_t) std::byte inline_[inline_bytes];
  std::byte* cursor_ = inline_;
  std::byte* end_ = inline_ + inline_bytes;
  std::vector<block> blocks_;
  std::size_t current_ = 0;  // index of the next heap block to use
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
