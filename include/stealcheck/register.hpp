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

#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/fuzz.hpp"

namespace stealcheck {

/// A variant bound to every checker (not yet registered).
template <template <class, class> class D, value_support Values = value_support::any>
harness::variant make_variant(const variant_info& info) {
  static_assert(work_stealing_deque<D<std::int64_t, native_memory>>,
                "D<T, Mem> must offer value_type, push, pop and steal (deques/deque.hpp)");
  harness::variant v(info);
  model::bind<D>(v);
  stress::bind<D, Values>(v);
  return v;
}

/// Registers D under info.name with every checker. Returns true.
template <template <class, class> class D, value_support Values = value_support::any>
bool register_variant(const variant_info& info) {
  return harness::add_variant(make_variant<D, Values>(info));
}

/// The checkers of `stealcheck verify`, in column order: stress, model (RC11), lincheck,
/// fuzz (generated scenarios larger than the model's clients, sampled under RC11).
inline std::vector<harness::checker> all_checkers() {
  return {stress::checker(), model::checker(), stress::lincheck::checker(),
          stress::fuzz::checker()};
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
