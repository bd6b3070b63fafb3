// deques/spec.hpp: the sequential specification of a work-stealing deque, in one place.
//
// Both checkers use it: the linearizability checker (stress/, real-time order) and the model
// checker's client checks (models/, happens-before order). Each operation is applied to the
// abstract state together with the result an implementation *observed*; the call returns
// whether that result is legal in the current state, and if so moves to the next state.
//
// Legal results (docs/design.md, "The deque contract"):
//   push(v)             always legal; v goes to the bottom. (Bounded variants that report
//                       "full" record no push at all.)
//   pop() -> v          legal iff the deque is non-empty and v is the bottom value.
//   pop() -> nullopt    legal iff the deque is empty.
//   steal() -> item v   legal iff the deque is non-empty and v is the top value.
//   steal() -> empty    legal iff the deque is empty.
//   steal() -> abort    always legal, changes nothing (a lost race; Lê et al. 2013, Fig. 1).
//   steal_batch([v1..vk]) legal iff 1 <= k <= ceil(n/2) for the current size n and v1..vk are
//                       the k top values in order (steal_half.hpp documents the bound).
//
// Complexity: every operation is O(1) but steal_batch, O(k). Values are compared with ==.
// Undo (undo_push, undo_pop, ...) reverses the last successful operation, for backtracking.
//
// operation<V> is the one record of a completed operation and its observed result that both
// checkers keep (stress/history.hpp adds real-time stamps, models/front/history.hpp the events);
// apply(spec, op) and undo(spec, op) are the one step and the one undo of their searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "deques/deque.hpp"

namespace stealcheck::spec {

/// The abstract state: the deque's contents from top (front) to bottom (back).
template <class V>
class sequential_deque {
 public:
  void push(V v) { items_.push_back(std::move(v)); }

  [[nodiscard]] bool pop(const std::optional<V>& observed) {
    return pop(observed ? &*observed : nullptr);
  }
  /// The same, with the observed value by pointer (nullptr: the pop returned nothing).
  [[nodiscard]] bool pop(const V* observed) {
    if (observed == nullptr) return items_.empty();
    if (items_.empty() || !(items_.back() == *observed)) return false;
    items_.pop_back();
    return true;
  }

  [[nodiscard]] bool steal(steal_status status, const std::optional<V>& observed) {
    return steal(status, observed ? &*observed : nullptr);
  }
  /// The same, with the observed value by pointer (nullptr: the steal returned nothing).
  [[nodiscard]] bool steal(steal_status status, const V* observed) {
    switch (status) {
      case steal_status::abort:
        return true;
      case steal_status::empty:
        return items_.empty();
      case steal_status::item:
        if (observed == nullptr || items_.empty() || !(items_.front() == *observed)) return false;
        items_.pop_front();
        return true;
    }
    return false;
  }

  [[nodiscard]] bool steal_batch(std::span<const V> taken) {
    const std::size_t k = taken.size();
    if (k == 0 || k > max_batch(items_.size())) return false;
    for (std::size_t i = 0; i < k; ++i) {
      if (!(items_[i] == taken[i])) return false;
    }
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(k));
    return true;
  }

  // Undo, for backtracking searches (the linearizability checker): each reverses the
  // matching successful operation above. Requires: it is the last operation applied.
  void undo_push() { items_.pop_back(); }
  void undo_pop(V v) { items_.push_back(std::move(v)); }
  void undo_steal(V v) { items_.push_front(std::move(v)); }
  void undo_steal_batch(std::span<const V> taken) {
    for (std::size_t i = taken.size(); i > 0; --i)
      items_.push_front(taken[i - 1]);
  }

  /// The most a batch steal may take from a deque of n items: ceil(n/2).
  static constexpr std::size_t max_batch(std::size_t n) noexcept { return n - n / 2; }

  /// Empties the deque (a search reusing one spec object keeps its storage). O(size).
  void clear() noexcept { items_.clear(); }

  const std::deque<V>& items() const noexcept { return items_; }
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  friend bool operator==(const sequential_deque&, const sequential_deque&) = default;

 private:
  std::deque<V> items_;
};

/// The operations of the contract (deques/deque.hpp).
enum class op_kind : std::uint8_t { push, pop, steal, steal_batch };

/// One completed operation with the result the implementation returned.
template <class V>
struct operation {
  op_kind kind = op_kind::push;
  bool has_value = false;  ///< pop/steal/steal_batch took a value (push: true)
  V value{};               ///< push: the value pushed; otherwise the value taken (has_value)
  steal_status status = steal_status::empty;  ///< steal and steal_batch
  std::vector<V> batch;                       ///< steal_batch: the values taken, top first

  /// The value a pop, steal or batch steal took (its first one), if any.
  std::optional<V> taken() const {
    return has_value && kind != op_kind::push ? std::optional<V>(value) : std::nullopt;
  }
  /// Records what a pop or steal returned.
  void set_taken(std::optional<V> v) {
    has_value = v.has_value();
    if (v) value = std::move(*v);
  }
};

/// Applies op with its observed result to s; false (s unchanged) when that result is not legal
/// in s's state.
template <class V>
[[nodiscard]] inline bool apply(sequential_deque<V>& s, const operation<V>& op) {
  const V* taken = op.has_value ? &op.value : nullptr;
  switch (op.kind) {
    case op_kind::push:
      s.push(op.value);
      return true;
    case op_kind::pop:
      return s.pop(taken);
    case op_kind::steal:
      return s.steal(op.status, taken);
    case op_kind::steal_batch:
      if (op.status != steal_status::item) return s.steal(op.status, nullptr);
      return s.steal_batch(op.batch);
  }
  return false;
}

/// Reverses apply(s, op), which must be the last operation applied and have succeeded.
template <class V>
inline void undo(sequential_deque<V>& s, const operation<V>& op) {
  switch (op.kind) {
    case op_kind::push:
      s.undo_push();
      return;
    case op_kind::pop:
      if (op.has_value) s.undo_pop(op.value);
      return;
    case op_kind::steal:
      if (op.status == steal_status::item) s.undo_steal(op.value);
      return;
    case op_kind::steal_batch:
      if (op.status == steal_status::item) s.undo_steal_batch(op.batch);
      return;
  }
}

}  // namespace stealcheck::spec
// SPDX-License-Identifier: Apache-2.0
