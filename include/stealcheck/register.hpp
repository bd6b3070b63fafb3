/// @file
/// stealcheck/register.hpp: register a deque variant with every checker.
///
/// @code
/// #include <stealcheck/register.hpp>
/// template <class T, class Mem> class my_deque { ... };  // written against deques/memory.hpp
/// STEALCHECK_REGISTER_VARIANT(my_deque, {.name = "my_deque", .summary = "my runtime's deque"});
/// @endcode
///
/// One line per variant, in any translation unit of the program (a user's own CLI or test
/// binary, or stealcheck's built-in variants): no central list. The second argument is a
/// stealcheck::variant_info (deques/variant.hpp): name, summary, bounded, batch steal, which
/// values it holds, memory-order sites, known-bad, initial capacity for the model clients.
/// Registration instantiates every checker for the deque in this translation unit, with this
/// translation unit's compiler flags.
///
/// What the deque must offer (deques/deque.hpp): `value_type`; owner-only `push(T)` (void, or
/// bool when bounded: false = full), `pop() -> std::optional<T>`; any-thread
/// `steal() -> stealcheck::steal_result<T>`; a constructor from std::int64_t (initial capacity)
/// or a default constructor; with batch_steal, `steal_into(D& mine)`. With
/// `.values = stealcheck::value_support::scalar` it only ever holds 8-byte trivially copyable
/// values (what a deque keeping them in Mem::atomic\<T\> can hold).
///
/// Thread role: registration runs during static initialization. Errors: a name registered
/// twice ends the program at start-up with one line naming it and exit code 2.
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/stress/bind.hpp"

namespace stealcheck {

class variant_handle;

namespace detail {
/// stealcheck's own access to the bound variant behind a handle, and the handle of a bound
/// variant (internal).
const harness::variant& bound_variant(const variant_handle& v) noexcept;
variant_handle make_handle(harness::variant v);
}  // namespace detail

/// A deque variant bound to every checker: what make_variant returns, and what
/// STEALCHECK_CONFORMANCE_SUITE and stealcheck::testing::run_unit (stealcheck/testing.hpp) take.
/// Opaque: a user reads its description and copies it (copies share one binding); the checkers'
/// bindings inside are stealcheck's own. Thread role: any, read-only once made.
class variant_handle {
 public:
  /// What the variant is (name, spec, sites, known-bad and what it must show).
  const variant_info& info() const noexcept { return bound_->info(); }
  std::string_view name() const noexcept { return bound_->name(); }

 private:
  explicit variant_handle(harness::variant v)
      : bound_(std::make_shared<const harness::variant>(std::move(v))) {}
  std::shared_ptr<const harness::variant> bound_;

  friend variant_handle detail::make_handle(harness::variant v);
  friend const harness::variant& detail::bound_variant(const variant_handle& v) noexcept;
};

inline const harness::variant& detail::bound_variant(const variant_handle& v) noexcept {
  return *v.bound_;
}

inline variant_handle detail::make_handle(harness::variant v) {
  return variant_handle(std::move(v));
}

/// D bound to every checker under `info` (not registered: for a conformance suite of one's own,
/// or stealcheck::testing::run_unit). Compiles every checker for D in this translation unit.
template <template <class, class> class D, value_support Values = value_support::any>
variant_handle make_variant(const variant_info& info) {
  static_assert(work_stealing_deque<D<std::int64_t, native_memory>>,
                "D<T, Mem> must offer value_type, push, pop and steal (deques/deque.hpp)");
  harness::variant v(info);
  model::bind<D>(v);
  stress::bind<D, Values>(v);
  return detail::make_handle(std::move(v));
}

/// Registers D under info.name with every checker (the `stealcheck` command's variants).
/// Returns true. A name registered twice ends the program at start-up (see above).
template <template <class, class> class D, value_support Values = value_support::any>
bool register_variant(const variant_info& info) {
  return harness::add_variant(detail::bound_variant(make_variant<D, Values>(info)));
}

}  // namespace stealcheck

#define STEALCHECK_CAT_IMPL(a, b) a##b
#define STEALCHECK_CAT(a, b) STEALCHECK_CAT_IMPL(a, b)

/// STEALCHECK_REGISTER_VARIANT(D, variant_info initializer): registers deque template D.
#define STEALCHECK_REGISTER_VARIANT(D, ...)                                                      \
  namespace {                                                                                    \
  constexpr ::stealcheck::variant_info STEALCHECK_CAT(stealcheck_info_, __LINE__) = __VA_ARGS__; \
  [[maybe_unused]] const bool STEALCHECK_CAT(stealcheck_registered_, __LINE__) =                 \
      ::stealcheck::register_variant<D, STEALCHECK_CAT(stealcheck_info_, __LINE__).values>(      \
          STEALCHECK_CAT(stealcheck_info_, __LINE__));                                           \
  }
// SPDX-License-Identifier: Apache-2.0
