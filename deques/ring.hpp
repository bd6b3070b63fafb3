// deques/ring.hpp: the rings of atomic slots the deques keep their items in.
//   wrapping_ring  steal_half and split: a power-of-two array that never grows, indexed by
//                  32-bit indices that wrap modulo 2^32.
//   growing_ring   chase_lev, the, fjp and crossbeam: a power-of-two array indexed by signed
//                  64-bit indices modulo its capacity, which the owner replaces by a larger
//                  (or, in crossbeam, smaller) one.
//
// Thread role: at() and the index arithmetic from any thread (the deque says who may touch which
// slot); construction and destruction by one thread with no operation running.
// Values: see deques/slot.hpp (slots hold T inline, or a box). Complexity: O(1), destruction
// O(capacity + values left).
#pragma once

#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>

#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck::detail {

template <class T, class Mem, class Codec = slot_codec<T, Mem>>
class wrapping_ring {
 public:
  using codec = Codec;
  using stored = typename codec::stored;
  using slot = typename Mem::template atomic<stored>;

  /// Requires: 1 <= capacity <= 2^30 (rounded up to a power of two). The slots are allocated as
  /// the model checker's location "ring".
  explicit wrapping_ring(std::int64_t capacity)
      : mask_(round_up(capacity) - 1),
        slots_(Mem::template create_array<slot>(mask_ + 1, "ring")) {}
  ~wrapping_ring() { Mem::destroy_array(slots_, mask_ + 1); }
  wrapping_ring(const wrapping_ring&) = delete;
  wrapping_ring& operator=(const wrapping_ring&) = delete;

  slot& at(std::uint32_t i) const noexcept { return slots_[i & mask_]; }
  std::int64_t capacity() const noexcept { return static_cast<std::int64_t>(mask_) + 1; }
  /// b - t >= capacity: no room for one more item.
  bool full(std::uint32_t t, std::uint32_t b) const noexcept { return distance(t, b) > mask_; }

  /// Requires: no operation is running. Destroys the values in [t, b). `distance`, not i != b:
  /// under the model checker a run abandoned mid-operation unwinds through a deque's destructor
  /// with t and b from different moments (t may be past b), and an i != b loop would then count
  /// through 2^32 indices.
  void discard(std::uint32_t t, std::uint32_t b) const noexcept {
    for (std::uint32_t i = t; distance(i, b) > 0; ++i) {
      codec::discard(at(i).load(std::memory_order_relaxed));  // quiescent: the final values
    }
  }

  /// b - t as a signed count (indices wrap modulo 2^32; |b - t| < 2^31 always holds).
  static std::int64_t distance(std::uint32_t t, std::uint32_t b) noexcept {
    return static_cast<std::int32_t>(b - t);
  }

 private:
  static std::uint32_t round_up(std::int64_t n) {
    assert(n >= 1 && n <= (std::int64_t{1} << 30) && "ring capacity out of range (1..2^30)");
    const std::int64_t c = n < 1 ? 1 : (n > (std::int64_t{1} << 30) ? std::int64_t{1} << 30 : n);
    return std::bit_ceil(static_cast<std::uint32_t>(c));
  }

  std::uint32_t mask_;
  slot* slots_;
};

/// A ring that grows by replacement (chase_lev, the): `doubled` copies [t, b) into a new ring
/// twice the size; the deque decides how to publish it and when to free the old one. Indices
/// are signed 64-bit and never wrap; position i is i & (capacity - 1). `Codec` says how a slot
/// holds a value (deques/slot.hpp).
template <class T, class Mem, class Codec = slot_codec<T, Mem>>
struct growing_ring {
  using codec = Codec;
  using stored = typename codec::stored;
  using slot = typename Mem::template atomic<stored>;

  /// Requires: capacity is a power of two. The slots are the model checker's location "ring",
  /// allocated at `where` (the deque's line, so that traces point into the deque).
  growing_ring(std::int64_t cap, source_loc where)
      : capacity(cap),
        slots(Mem::template create_array<slot>(static_cast<std::size_t>(cap), "ring", where)) {}
  ~growing_ring() { Mem::destroy_array(slots, static_cast<std::size_t>(capacity)); }

  /// A deque's first ring: `requested` rounded up to a power of two, at least `least`,
  /// allocated at `where` (the deque's constructor). Requires: requested >= 1.
  static growing_ring* initial(std::int64_t requested, std::int64_t least, source_loc where) {
    assert(requested >= 1 && "initial capacity must be >= 1");
    const std::int64_t n = requested < least ? least : requested;
    return Mem::template create<growing_ring>(
        static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n))), where);
  }
  growing_ring(const growing_ring&) = delete;
  growing_ring& operator=(const growing_ring&) = delete;

  slot& at(std::int64_t i) const noexcept {
    return slots[static_cast<std::size_t>(i & (capacity - 1))];
  }

  /// Thread role: the owner. A new ring of twice the capacity holding [t, b), each slot read
  /// with `load` and written with `store` (the deque's sites for the copy); allocated at the
  /// caller's line.
  template <class LoadOrder, class StoreOrder>
  growing_ring* doubled(std::int64_t t, std::int64_t b, LoadOrder load, StoreOrder store,
                        source_loc where = source_loc::current()) const {
    return resized(capacity * 2, t, b, load, store, where);
  }

  /// Thread role: the owner. As doubled, with capacity `cap` (a power of two; grow or shrink).
  /// Requires: b - t <= cap.
  template <class LoadOrder, class StoreOrder>
  growing_ring* resized(std::int64_t cap, std::int64_t t, std::int64_t b, LoadOrder load,
                        StoreOrder store, source_loc where = source_loc::current()) const {
    assert(b - t <= cap && "resized: the items do not fit");
    auto* fresh = Mem::template create<growing_ring>(cap, where);
    for (std::int64_t i = t; i < b; ++i)
      fresh->at(i).store(at(i).load(load), store);
    return fresh;
  }

  /// Requires: no operation is running. Destroys the values in [t, b).
  void discard(std::int64_t t, std::int64_t b) const noexcept {
    for (std::int64_t i = t; i < b; ++i)
      codec::discard(at(i).load(std::memory_order_relaxed));  // quiescent: the final values
  }

  std::int64_t capacity;  // a power of two
  slot* slots;
};

}  // namespace stealcheck::detail
// SPDX-License-Identifier: Apache-2.0
