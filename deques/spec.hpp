// deques/spec.hpp: the sequential specifications of a work-stealing deque, in one place.
//
// Both checkers use them: the linearizability checker (stress/, real-time order) and the model
// checker's client checks (models/, happens-before order). Each operation is applied to the
// abstract state together with the result an implementation *observed*; the call returns
// whether that result is legal in the current state, and if so moves to the next state.
//
// A variant declares which specification it meets (variant_info::spec, deques/variant.hpp);
// every checker reads the declaration. Four kinds (docs/design.md, "The deque contract"):
//
// lifo_owner (exactly once; Chase-Lev, THE, ABP, ...):
//   push(v)             always legal; v goes to the bottom. (Bounded variants that report
//                       "full" record no push at all.)
//   pop() -> v          legal iff the deque is non-empty and v is the bottom value.
//   pop() -> nullopt    legal iff the deque is empty.
//   steal() -> item v   legal iff the deque is non-empty and v is the top value.
//   steal() -> empty    legal iff the deque is empty.
//   steal() -> abort    always legal, changes nothing (a lost race; Le et al. 2013, Fig. 1).
//   steal_batch([v1..vk]) legal iff 1 <= k <= ceil(n/2) for the current size n and v1..vk are
//                       the k top values, in any order (steal_half.hpp documents the bound;
//                       which of them the thief returns, and where it puts the others in its
//                       own deque, is the thief's choice). A thief that takes its batch one
//                       value at a time, each with its own claim (crossbeam's LIFO thief,
//                       batch_in_steps in deques/deque.hpp), is checked as one steal per value
//                       instead, each within the steal_into (split_batch below).
// fifo_owner (exactly once; a FIFO run queue that never overflows): the same, except that
//   pop() -> v is legal iff v is the *top* value: the owner takes the oldest, like a thief.
// unordered (exactly once, in any order; Tokio's run queue, whose overflow moves the newest
//   half of the ring to an inject queue that pop and steal read only after the ring, so
//   neither end keeps an order): pop() -> v and steal() -> item v are legal iff v is
//   present (it is removed); empty iff nothing is present; steal_batch takes k <= ceil(n/2)
//   present values, each once.
// at_least_once (idempotent work stealing; Michael, Vechev, Saraswat, PPoPP 2009, Section 2):
//   the state is the values pushed and not yet taken (P) and the values ever taken (D).
//   pop() -> v or steal() -> item v is legal iff v is in P (it moves to D) or in D (a
//   duplicate: allowed). pop() -> nullopt and steal() -> empty are legal iff P is empty:
//   nothing is lost. steal_batch takes each value by the same rule. No order is promised.
//
// Complexity: lifo_owner and fifo_owner: O(1) per operation, steal_batch O(k^2); unordered:
// O(n) per take; at_least_once: O(|P| + |D|) per take (linear scans; histories are small). Values
// are compared with ==. Undo (undo(spec, op)) reverses the last successful operation, for
// backtracking.
//
// operation<V> is the one record of a completed operation and its observed result that both
// checkers keep (stress/history.hpp adds real-time stamps, models/front/history.hpp the events);
// apply(spec, op) and undo(spec, op) are the one step and the one undo of their searches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"

namespace stealcheck::spec {

/// The sequential specification a variant meets (see the file comment).
enum class spec_kind : std::uint8_t {
  lifo_owner,     ///< exactly once; pop takes the newest value, steal the oldest
  fifo_owner,     ///< exactly once; pop and steal both take the oldest value
  unordered,      ///< exactly once; pop and steal take any value present
  at_least_once,  ///< no value invented, none lost, duplicates allowed, no order
};

/// The kind's name, as `stealcheck list` and the README print it.
constexpr std::string_view spec_name(spec_kind s) noexcept {
  switch (s) {
    case spec_kind::lifo_owner:
      return "lifo_owner";
    case spec_kind::fifo_owner:
      return "fifo_owner";
    case spec_kind::unordered:
      return "unordered";
    case spec_kind::at_least_once:
      return "at_least_once";
  }
  return "?";
}

/// Whether a value may be taken more than once under the kind.
constexpr bool allows_duplicates(spec_kind s) noexcept {
  return s == spec_kind::at_least_once;
}

/// Whether the kind says which value a take returns (lifo_owner, fifo_owner), rather than
/// only that it was present (unordered, at_least_once).
constexpr bool ordered(spec_kind s) noexcept {
  return s == spec_kind::lifo_owner || s == spec_kind::fifo_owner;
}

/// The abstract state: the values present, from top (front) to bottom (back); under
/// at_least_once also the values taken so far with how often.
template <class V>
class sequential_deque {
 public:
  explicit sequential_deque(spec_kind kind) : kind_(kind) {}

  spec_kind kind() const noexcept { return kind_; }

  void push(V v) { items_.push_back(std::move(v)); }

  [[nodiscard]] bool pop(const std::optional<V>& observed) {
    return pop(observed ? &*observed : nullptr);
  }
  /// The same, with the observed value by pointer (nullptr: the pop returned nothing).
  [[nodiscard]] bool pop(const V* observed) {
    if (observed == nullptr) return items_.empty();
    switch (kind_) {
      case spec_kind::lifo_owner:
        if (items_.empty() || !(items_.back() == *observed)) return false;
        items_.pop_back();
        return true;
      case spec_kind::fifo_owner:
        return take_front(*observed);
      case spec_kind::unordered:
        return take_present(*observed);
      case spec_kind::at_least_once:
        return take_any(*observed);
    }
    return false;
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
        if (observed == nullptr) return false;
        if (kind_ == spec_kind::unordered) return take_present(*observed);
        return kind_ == spec_kind::at_least_once ? take_any(*observed) : take_front(*observed);
    }
    return false;
  }

  [[nodiscard]] bool steal_batch(std::span<const V> taken) {
    const std::size_t k = taken.size();
    if (k == 0) return false;
    if (kind_ == spec_kind::at_least_once) {
      for (std::size_t i = 0; i < k; ++i) {
        if (take_any(taken[i])) continue;
        for (std::size_t j = i; j > 0; --j)
          untake(taken[j - 1]);
        return false;
      }
      return true;
    }
    if (k > max_batch(items_.size())) return false;
    if (kind_ == spec_kind::unordered) {
      for (std::size_t i = 0; i < k; ++i) {
        if (take_present(taken[i])) continue;
        for (std::size_t j = i; j > 0; --j)
          items_.push_back(taken[j - 1]);
        return false;
      }
      return true;
    }
    const auto top_end = items_.begin() + static_cast<std::ptrdiff_t>(k);
    if (!std::is_permutation(taken.begin(), taken.end(), items_.begin(), top_end)) return false;
    batches_.emplace_back(items_.begin(), top_end);  // their order, for undo_steal_batch
    items_.erase(items_.begin(), top_end);
    return true;
  }

  // Undo, for backtracking searches (the linearizability checker): each reverses the
  // matching successful operation above. Requires: it is the last operation applied.
  void undo_push(const V& v) {
    if (ordered(kind_)) {
      items_.pop_back();
      return;
    }
    // an undone take since the push may have re-inserted values after it: remove v itself
    const auto it = std::find(items_.rbegin(), items_.rend(), v);
    if (it != items_.rend()) items_.erase(std::next(it).base());
  }
  void undo_pop(V v) {
    if (kind_ == spec_kind::at_least_once) return untake(v);
    if (kind_ == spec_kind::fifo_owner) return items_.push_front(std::move(v));
    items_.push_back(std::move(v));  // lifo_owner; unordered: any place will do
  }
  void undo_steal(V v) {
    if (kind_ == spec_kind::at_least_once) return untake(v);
    items_.push_front(std::move(v));
  }
  void undo_steal_batch(std::span<const V> taken) {
    if (ordered(kind_)) {
      items_.insert(items_.begin(), batches_.back().begin(), batches_.back().end());
      batches_.pop_back();
      return;
    }
    for (std::size_t i = taken.size(); i > 0; --i)
      undo_steal(taken[i - 1]);
  }

  /// The most a batch steal may take from a deque of n items: ceil(n/2).
  static constexpr std::size_t max_batch(std::size_t n) noexcept { return n - n / 2; }

  /// Empties the deque (a search reusing one spec object keeps its storage). O(size).
  void clear() noexcept {
    items_.clear();
    taken_.clear();
    batches_.clear();
  }

  /// The values present, top first.
  const std::deque<V>& items() const noexcept { return items_; }
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  /// The same abstract state (what undo would restore is not part of it).
  friend bool operator==(const sequential_deque& a, const sequential_deque& b) {
    return a.kind_ == b.kind_ && a.items_ == b.items_ && a.taken_ == b.taken_;
  }

 private:
  bool take_front(const V& v) {
    if (items_.empty() || !(items_.front() == v)) return false;
    items_.pop_front();
    return true;
  }
  // unordered: v leaves the deque from wherever it is.
  bool take_present(const V& v) {
    const auto it = std::find(items_.begin(), items_.end(), v);
    if (it == items_.end()) return false;
    items_.erase(it);
    return true;
  }
  // at_least_once: v leaves P for D, or is taken again from D.
  bool take_any(const V& v) {
    for (auto& [value, times] : taken_) {
      if (value == v) {
        ++times;
        return true;
      }
    }
    if (!take_present(v)) return false;  // never pushed (or not yet): invented
    taken_.emplace_back(v, 1);
    return true;
  }
  // reverses take_any(v): the last take of v back to P when it was the first.
  void untake(const V& v) {
    for (std::size_t i = 0; i < taken_.size(); ++i) {
      if (!(taken_[i].first == v)) continue;
      if (--taken_[i].second == 0) {
        items_.push_back(taken_[i].first);
        taken_.erase(taken_.begin() + static_cast<std::ptrdiff_t>(i));
      }
      return;
    }
  }

  spec_kind kind_;
  std::deque<V> items_;
  std::vector<std::pair<V, std::uint32_t>> taken_;  // at_least_once: D with each value's count
  std::vector<std::vector<V>> batches_;             // ordered kinds: each applied batch, top first
};

/// The operations of the contract (deques/deque.hpp).
enum class op_kind : std::uint8_t { push, pop, steal, steal_batch };

/// "push", "pop", "steal", "steal_batch" (a string literal).
constexpr const char* op_name(op_kind k) noexcept {
  constexpr const char* names[] = {"push", "pop", "steal", "steal_batch"};
  return names[static_cast<int>(k)];
}

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
  /// Records what a steal or batch steal returned: its status and the value it took.
  void set_stolen(steal_result<V> r) {
    status = r.status();
    set_taken(std::move(r).take());
  }
};

/// A batch taken in steps (deques/deque.hpp's batch_in_steps): ops[at], a steal_batch, becomes
/// one steal per value it took, in the order taken: batch[1], ..., batch[k - 1], then batch[0]
/// (the value steal_into returned is the last one it took: crossbeam's LIFO thief keeps the
/// newest). ops[at] becomes the first; the others are copies of it (its span, its thread)
/// appended after everything, so that a thread's operations stay in the order it made them
/// and the indices of the others stay; with `after_it`, inserted right after it instead (a
/// batch completed once its thread recorded more: after the join). A batch that took nothing,
/// or one value, becomes a plain steal. O(k) copies (after_it: one insertion, O(n)).
template <class Op>
void split_batch(std::vector<Op>& ops, std::size_t at, bool after_it = false) {
  Op& op = ops[at];
  if (op.kind != op_kind::steal_batch) return;
  op.kind = op_kind::steal;
  auto batch = std::move(op.batch);
  op.batch.clear();
  if (batch.size() < 2) return;
  op.value = batch[1];
  std::vector<Op> steps(batch.size() - 1, op);
  for (std::size_t i = 2; i <= batch.size(); ++i)
    steps[i - 2].value = batch[i % batch.size()];
  const auto where = after_it ? ops.begin() + static_cast<std::ptrdiff_t>(at) + 1 : ops.end();
  ops.insert(where, steps.begin(), steps.end());
}

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
      s.undo_push(op.value);
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
