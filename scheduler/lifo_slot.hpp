// scheduler/lifo_slot.hpp: a LIFO slot in front of a work-stealing deque, as each worker of
// Tokio's multi-thread scheduler keeps one: the newest task waits in the slot and runs next on
// the same worker, and the task it displaces goes to the deque's bottom. Policies, each a
// version of Tokio's (docs/case-studies/tokio.md):
//   private_slot     only the owner takes the slot; thieves never see it, and a push into the
//                    empty slot wakes no one (Tokio before 1.51: worker.rs, Core::lifo_slot);
//   stealable        a thief whose steal found the deque empty takes the slot (1.51, #7431:
//                    queue.rs, Steal::steal_into; Go steals runnext the same way), and every push
//                    may wake a parked worker (1.51 notifies on every push into the slot: the
//                    wake-ups 1.51.2 reverted for their cost, tokio#8065);
//   stealable_quiet  stealable, but a push into the empty slot wakes no one: only a worker that
//                    is already searching takes it (#8120's default, UnparkingMode::Traditional).
// In every policy a push that displaces a task into the deque may wake a worker, as Tokio's
// schedule_local notifies then.
//
// Thread role: push, pop, push_wakes and owner_size_hint by the owner only; steal and size_hint
// by any thread. Values: those of D (T trivially copyable; pointers are stored as they are,
// other values boxed as deques/slot.hpp does). Returns: pop nullopt when slot and deque are
// empty; steal: the deque's result, or the slot's value when the deque reported empty (abort
// when the deque lost a race: the slot is left to the owner and the next attempt).
// Returns (steal, stealable policies): never empty, abort instead (steal() says why).
// Order: the owner takes the newest value first (the slot, then the deque's pop); a thief
// takes the deque's oldest, and the slot's value (the newest) only when the deque was empty:
// thieves may take out of order (spec unordered, as Tokio's queue with its slot), which the
// pool's join protocol allows (fork_join.hpp, join_stolen: a pop that returns an older task
// runs it and then waits for the stolen one).
// Requires: D unbounded (its push cannot fail: a displaced value always has a place).
// Complexity: one exchange per push and pop beyond D's operations; a steal that finds the deque
// empty adds one load, and one exchange when the slot holds a value.
// Memory ordering: the slot's value is published by push's release exchange and taken by a
// thief's acquire exchange (lifo_slot_orders below; scheduler/tests/lifo_slot_test.cpp checks
// each claim under RC11).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck::scheduler {

enum class lifo_slot_policy : std::uint8_t { private_slot, stealable, stealable_quiet };

/// The memory orders of the stealable slot.
struct lifo_slot_orders {
  /// push's exchange: its release pairs with a thief's acquire take, so the value (a task and
  /// everything written into it) reaches the thief; relaxed: the thief reads the task unordered
  /// (a data race on its contents). No acquire half: the value it reads back was written by
  /// this owner, or is the null a thief left.
  static constexpr std::memory_order push = std::memory_order_release;
  /// pop's exchange: relaxed, the RMW's atomicity alone decides a race with a thief's take, and
  /// the value it reads is this owner's own.
  static constexpr std::memory_order pop = std::memory_order_relaxed;
  /// a thief's exchange: its acquire pairs with push's release (above).
  static constexpr std::memory_order steal = std::memory_order_acquire;
};

/// D (a work_stealing_deque) with a LIFO slot in front, under policy P.
template <class D, lifo_slot_policy P, class Orders = lifo_slot_orders>
class lifo_slot {
  using T = typename D::value_type;
  using Mem = typename D::memory;
  using codec = stealcheck::detail::slot_codec<T, Mem, !std::is_pointer_v<T>>;
  using stored = typename codec::stored;
  static constexpr bool stealable = P != lifo_slot_policy::private_slot;
  static_assert(std::is_void_v<decltype(std::declval<D&>().push(std::declval<T>()))>,
                "lifo_slot needs an unbounded deque: a displaced value must always have a place");

 public:
  using value_type = T;
  using memory = Mem;
  static constexpr std::string_view variant_name = "lifo_slot";

  lifo_slot() = default;
  /// D constructed with `capacity` (the model clients' small initial rings).
  explicit lifo_slot(std::int64_t capacity) requires std::is_constructible_v<D, std::int64_t>
      : deque_(capacity) {}
  lifo_slot(const lifo_slot&) = delete;
  lifo_slot& operator=(const lifo_slot&) = delete;
  ~lifo_slot() {
    if (const stored s = take(Orders::pop)) codec::discard(s);
  }

  /// Owner: v into the slot; the value it displaces, if any, to the deque's bottom.
  void push(T v) {
    const stored mine = codec::encode(std::move(v));
    stored prev{};
    if constexpr (stealable) {
      prev = slot_.exchange(mine, Orders::push);  // lifo_slot_orders::push says why release
    } else {
      prev = std::exchange(private_, mine);
    }
    displaced_ = prev != stored{};
    if (displaced_) deque_.push(codec::decode(prev));
  }

  /// Owner: the slot's value, else the deque's pop; nullopt when both are empty.
  std::optional<T> pop() {
    if (const stored s = take(Orders::pop)) return codec::decode(s);
    return deque_.pop();
  }

  /// Any thread but the owner: the deque's steal; when it reports empty, the slot's value
  /// (stealable policies), else abort: a thief of a stealable slot never reports empty (as
  /// Tokio's, deques/tokio.hpp): the deque's empty and the slot's are two reads, and between
  /// them the owner may move a value from the slot into the deque (a push that displaces it),
  /// so no moment need exist at which both were empty.
  steal_result<T> steal() {
    steal_result<T> r = deque_.steal();
    if constexpr (stealable) {
      if (r.status() != steal_status::empty) return r;
      // relaxed: a hint, so that thieves do not write an empty slot; the exchange decides.
      if (slot_.load(std::memory_order_relaxed) != stored{}) {
        if (const stored s = slot_.exchange(stored{}, Orders::steal))  // acquire: see Orders
          return steal_result<T>::item(codec::decode(s));
      }
      return steal_result<T>::abort();
    } else {
      return r;
    }
  }

  /// Owner: whether the last push should wake a parked worker: it displaced a value into the
  /// deque, or (stealable) the slot can be taken by one.
  bool push_wakes() const noexcept { return displaced_ || P == lifo_slot_policy::stealable; }

  /// Any thread: the values a thief could take (the private slot counts for no one else).
  std::int64_t size_hint() const {
    std::int64_t n = deque_.size_hint();
    if constexpr (stealable) {
      if (slot_.load(std::memory_order_relaxed) != stored{}) ++n;  // relaxed: a snapshot
    }
    return n;
  }
  /// Owner: the values waiting, the slot's included (the pool's fork throttle).
  std::int64_t owner_size_hint() const {
    if constexpr (stealable) {
      return size_hint();
    } else {
      return deque_.size_hint() + (private_ != stored{} ? 1 : 0);
    }
  }

 private:
  stored take(std::memory_order o) {
    if constexpr (stealable) {
      return slot_.exchange(stored{}, o);
    } else {
      static_cast<void>(o);
      return std::exchange(private_, stored{});
    }
  }

  struct no_slot {
    constexpr no_slot(std::nullptr_t, const char*) noexcept {}
  };
  struct no_private_slot {};
  D deque_;
  [[no_unique_address]] std::conditional_t<stealable, typename Mem::template atomic<stored>,
                                           no_slot>
      slot_{nullptr, "lifo_slot"};
  [[no_unique_address]] std::conditional_t<stealable, no_private_slot, stored>
      private_{};           // private_slot's slot (owner only)
  bool displaced_ = false;  // the last push displaced a value (owner only)
};

/// Thread role: d's owner, after a push. Whether that push should wake a parked worker: always,
/// except after a push into an empty LIFO slot that nobody else may take (lifo_slot::push_wakes).
template <class D>
inline bool push_wakes(const D& d) noexcept {
  if constexpr (requires { d.push_wakes(); }) {
    return d.push_wakes();
  } else {
    static_cast<void>(d);
    return true;
  }
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
