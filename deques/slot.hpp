// deques/slot.hpp: how a value of type T is kept in a deque's atomic slot.
//
// The lock-free deques read a slot *before* they know whether they own it (a thief reads
// buffer[top] and only then tries its CAS; Lê et al. 2013, Fig. 1, steal lines 6-8), so slots
// must be atomics: a plain slot would be a C11 data race whenever the CAS then fails.
//
//   - T trivially copyable and lock-free as an atomic (integers, pointers, small PODs):
//     stored inline in Mem::atomic<T>.
//   - any other T (std::string, std::function, a type with a destructor...): *boxed*. push
//     moves the value into a Mem::create'd box (a Mem::nonatomic<T>: under the model checker
//     its contents are plain memory checked for data races) and stores the pointer; only the winner
//     of the race (the popping owner or the thief whose CAS succeeded) opens the box, moves the
//     value out and destroys the box. A loser only ever reads the pointer. Each value is therefore
//     constructed once and destroyed once (tested by the destructors stress scenario).
//
// Thread role: the functions are called by the deque on behalf of whoever owns the value.
// Complexity: O(1); boxing costs one allocation per push.
#pragma once

#include <atomic>
#include <type_traits>
#include <utility>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::detail {

template <class T, bool = std::is_trivially_copyable_v<T>>
inline constexpr bool inline_slot = std::atomic<T>::is_always_lock_free;
template <class T>
inline constexpr bool inline_slot<T, false> = false;  // std::atomic<T> needs trivial copies

/// `Boxed` forces the choice: a deque that marks an empty slot with null (deques/fjp.hpp) boxes
/// every T but a pointer.
template <class T, class Mem, bool Boxed = !inline_slot<T>>
struct slot_codec {
  static constexpr bool boxed = Boxed;
  using box = typename Mem::template nonatomic<T>;
  using stored = std::conditional_t<boxed, box*, T>;

  /// The value as it goes into a slot (allocates a box when boxed).
  static stored encode(T&& v) {
    if constexpr (boxed) {
      return Mem::template create<box>(named{"box"}, std::move(v));
    } else {
      return v;
    }
  }
  /// Takes the value out of a slot the caller now owns (frees the box when boxed).
  static T decode(stored s) {
    if constexpr (boxed) {
      T v = std::move(s->write());  // moving out writes the box
      Mem::destroy(s);
      return v;
    } else {
      return s;
    }
  }
  /// Destroys a value the caller owns without returning it (deque destruction).
  static void discard(stored s) noexcept {
    if constexpr (boxed) Mem::destroy(s);
  }
};

}  // namespace stealcheck::detail
// SPDX-License-Identifier: Apache-2.0
