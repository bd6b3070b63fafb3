// deques/locked.hpp: a mutex-protected deque, the reference implementation.
//
// Thread role: push and pop by the owner, steal by any thread (the contract of deque.hpp;
// the lock would allow more, the checkers hold it to the contract).
// Semantics: every operation takes the one mutex, so the deque is trivially linearizable at
// its critical section; steal() never returns abort (it waits for the lock instead).
// Values: any movable T, stored in a std::deque under the lock (Mem::nonatomic, so the model
// checker checks that every access really is under the lock).
// Complexity: O(1) amortised per operation plus the lock; blocking, not lock-free.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck {

/// locked has no memory-order sites: all ordering comes from the mutex.
struct locked_sites {
  static constexpr std::string_view variant = "locked";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  template <class S>
  static constexpr std::array<const site*, 0> list() {
    return {};
  }
};

template <class T, class Mem = native_memory, class Sites = locked_sites>
class locked_deque {
 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;

  /// The capacity argument exists for interface symmetry with the ring deques; ignored.
  explicit locked_deque(std::int64_t /*initial_capacity*/ = 64) {}

  /// Thread role: owner. Always succeeds.
  void push(T v) {
    std::scoped_lock lock(mutex_);
    items_.write().push_back(std::move(v));
  }

  /// Thread role: owner. The bottom value, or nullopt if empty.
  std::optional<T> pop() {
    std::scoped_lock lock(mutex_);
    auto& items = items_.write();
    if (items.empty()) return std::nullopt;
    T v = std::move(items.back());
    items.pop_back();
    return v;
  }

  /// Thread role: any. The top value, or empty; never abort.
  steal_result<T> steal() {
    std::scoped_lock lock(mutex_);
    auto& items = items_.write();
    if (items.empty()) return steal_result<T>::empty();
    T v = std::move(items.front());
    items.pop_front();
    return steal_result<T>::item(std::move(v));
  }

  /// Thread role: any. Exact at the moment of the call.
  std::int64_t size_hint() const {
    std::scoped_lock lock(mutex_);
    return static_cast<std::int64_t>(items_.read().size());
  }

 private:
  mutable typename Mem::mutex mutex_{"mutex"};
  typename Mem::template nonatomic<std::deque<T>> items_{named{"items"}};
};

/// KNOWN-BAD: the locked deque with steal() taking from the *bottom* instead of the top.
/// Every value is still taken exactly once (the conservation stress passes, on purpose), but
/// thieves get the newest value instead of the oldest: not a deque. The linearizability
/// checker must catch it.
struct locked_sites_steal_bottom : locked_sites {
  static constexpr std::string_view variant = "locked_steal_bottom";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "steal takes from the bottom: conserves values, breaks deque order";
  static constexpr failure_set must_show{failure_kind::not_linearizable};
  using fixed_in = locked_sites;
  static constexpr std::string_view fixed_by =
      "steal takes the oldest item (locked_deque::steal), not the owner's end";
};

template <class T, class Mem = native_memory>
class locked_steal_bottom : public locked_deque<T, Mem, locked_sites_steal_bottom> {
 public:
  using locked_deque<T, Mem, locked_sites_steal_bottom>::locked_deque;
  steal_result<T> steal() {
    auto v = this->pop();  // the bug: the owner's end (locked pop is safe from any thread)
    return v ? steal_result<T>::item(std::move(*v)) : steal_result<T>::empty();
  }
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
