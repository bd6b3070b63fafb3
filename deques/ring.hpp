// deques/ring.hpp: the bounded ring of atomic slots that steal_half and split keep their items
// in: a power-of-two array that never grows, indexed by 32-bit indices that wrap modulo 2^32.
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

#include "deques/slot.hpp"

namespace stealcheck::detail {

template <class T, class Mem>
class wrapping_ring {
 public:
  using codec = slot_codec<T, Mem>;
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

}  // namespace stealcheck::detail
