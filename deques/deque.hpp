// deques/deque.hpp: the work-stealing deque contract (docs/design.md, "The deque contract").
//
// A work-stealing deque has one *owner* thread, which pushes and pops at the *bottom* (LIFO),
// and any number of *thieves*, which steal at the *top* (FIFO). This header states that
// contract as a C++20 concept and defines the typed result of a steal.
//
// Correctness (checked by stress/, models/ and the linearizability checker against
// deques/spec.hpp): every pushed value is taken at most once, no value is invented, nothing is
// lost (after all threads join, draining returns exactly the values pushed and not taken), no
// data race, no use-after-free, and every run is explained by the sequential deque of spec.hpp.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

// STEALCHECK_OWNER_INLINE marks an owner operation that runs once per fork (push, pop): forced
// inline in optimized builds, where a call costs more than the operation (see chase_lev::pop);
// left to the compiler at -O0, so that the coverage build counts each source line once rather
// than once per inlined copy.
#if defined(__OPTIMIZE__)
#define STEALCHECK_OWNER_INLINE [[gnu::always_inline]]
#else
#define STEALCHECK_OWNER_INLINE
#endif

namespace stealcheck {

/// The three outcomes of a steal (libfork: {none, lost, empty}; crossbeam: Steal::{...}).
enum class steal_status : std::uint8_t {
  item,   ///< a value was taken from the top
  empty,  ///< the deque was empty at the steal's linearization point
  abort,  ///< lost a race (with another thief or the owner's last-element pop); may retry
};

constexpr std::string_view status_name(steal_status s) noexcept {
  switch (s) {
    case steal_status::item:
      return "item";
    case steal_status::empty:
      return "empty";
    case steal_status::abort:
      return "abort";
  }
  return "?";
}

/// The result of steal(): item (with the value) | empty | abort.
template <class T>
class steal_result {
 public:
  static steal_result item(T v) { return steal_result(steal_status::item, std::move(v)); }
  static steal_result empty() noexcept { return steal_result(steal_status::empty); }
  static steal_result abort() noexcept { return steal_result(steal_status::abort); }

  steal_status status() const noexcept { return status_; }
  bool has_value() const noexcept { return status_ == steal_status::item; }
  bool is_empty() const noexcept { return status_ == steal_status::empty; }
  bool is_abort() const noexcept { return status_ == steal_status::abort; }
  explicit operator bool() const noexcept { return has_value(); }

  /// Requires: has_value().
  T& operator*() & { return *value_; }
  T&& operator*() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  /// The value as an optional (empty unless has_value()).
  std::optional<T> take() && { return std::move(value_); }

 private:
  explicit steal_result(steal_status s) noexcept : status_(s) {}
  steal_result(steal_status s, T v) : status_(s), value_(std::move(v)) {}
  steal_status status_;
  std::optional<T> value_;
};

/// The deque contract: all that the checkers ask of a deque, a user's included.
///   value_type     the values it holds.
///   push(T)        Thread role: owner. Returns void (growable: always succeeds) or bool
///                  (bounded: false when full, and the value is then not inserted).
///   pop()          Thread role: owner. Takes the bottom value (LIFO); nullopt if empty.
///   steal()        Thread role: any. Takes the top value (FIFO): item | empty | abort.
/// The checkers construct it from an initial capacity (std::int64_t) when it has such a
/// constructor, else default-construct it (deques/variant.hpp, sized).
template <class D>
concept work_stealing_deque = requires(D& d, typename D::value_type v) {
  typename D::value_type;
  {d.push(std::move(v))};
  { d.pop() } -> std::same_as<std::optional<typename D::value_type>>;
  { d.steal() } -> std::same_as<steal_result<typename D::value_type>>;
};

/// stealcheck's own deques also name themselves, say which backend they were instantiated
/// with, and give a size snapshot (size_hint: bottom - top, exact only when quiescent; the
/// scheduler's idle workers read it).
template <class D>
concept builtin_deque = work_stealing_deque<D> && requires(const D& d) {
  typename D::memory;
  { d.size_hint() } -> std::convertible_to<std::int64_t>;
  { D::variant_name } -> std::convertible_to<std::string_view>;
};

/// A deque whose thieves reach only what its owner has shared (variant_info::owner_shares):
/// a steal returns abort while every item is private, until the owner's next push or pop
/// shares some (deques/split.hpp). It says so with `static constexpr bool owner_shares = true`.
template <class D>
inline constexpr bool owner_shares_v = requires {
  requires D::owner_shares;
};

/// A deque whose thieves can move about half of a victim's items into their own deque in one
/// steal (Hendler-Shavit; Go's runqsteal; Tokio's steal_into). `victim.steal_into(mine)`:
/// Thread role: any thread that is the owner of `mine`. Returns one item directly and pushes
/// the rest into `mine`.
template <class D>
concept batch_stealing_deque = work_stealing_deque<D> && requires(D& victim, D& mine) {
  { victim.steal_into(mine) } -> std::same_as<steal_result<typename D::value_type>>;
};

/// A batch stealer whose steal_into takes its batch one value at a time, each with its own
/// claim (`static constexpr bool batch_in_steps = true;`, crossbeam's LIFO thief): the batch is
/// no single operation of the spec but one steal per value, each somewhere within the
/// steal_into, and the checkers record it so (spec::split_batch).
template <class D>
concept batch_in_steps = batch_stealing_deque<D> && requires {
  requires D::batch_in_steps;
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
