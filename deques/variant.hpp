// deques/variant.hpp: what a checker needs to know about a deque variant besides its type.
//
// A variant is a class template `D<T, Mem>` (value type, memory backend) plus a variant_info.
// Checkers instantiate D with their own T and Mem: the stress tests with native_memory, the
// model checker with model::memory. Variants are registered at run time (harness/registry.hpp,
// include/stealcheck/register.hpp); this header holds only the plain description.
//
// Thread role: any (plain values). Complexity: O(1).
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/spec.hpp"

namespace stealcheck {

/// Which values a deque can hold. The stress ladder's `spsc`, `stampede` and `destructors`
/// scenarios push boxed, move-only values with destructors; a deque that keeps its values in
/// `Mem::atomic<T>` (task pointers, integers: most runtimes' deques) cannot hold those.
enum class value_support : std::uint8_t {
  any,     ///< any movable T (boxed internally when needed); every scenario runs
  scalar,  ///< trivially copyable T of at most 8 bytes; scenarios needing more are skipped
};

/// Which memory backends the variant runs on. A deque templated on `Mem` runs on both. A deque
/// written with stealcheck::atomic (include/stealcheck/atomic.hpp) is bound to one backend per
/// translation unit: the model backend when compiled with STEALCHECK_MODEL, else native
/// (stealcheck::atomic_backends says which); checkers skip what it cannot run.
enum class backend_support : std::uint8_t {
  both,         ///< native (stress, lincheck native) and model (model, lincheck model)
  native_only,  ///< only the native checkers
  model_only,   ///< only the model-checking checkers
};

constexpr bool runs_native(backend_support b) noexcept {
  return b != backend_support::model_only;
}
constexpr bool runs_model(backend_support b) noexcept {
  return b != backend_support::native_only;
}

/// The sequential specification a variant meets (deques/spec.hpp): lifo_owner,
/// fifo_owner or at_least_once. Every checker reads the variant's declaration.
using spec::spec_kind;
using spec::spec_name;

/// Where a known-bad whose bug is in its code rather than in a memory order is fixed: the
/// correct variant that is the same code with the fix, and what the fix changes (the knob of the
/// sites struct or the template argument, with its correct and broken values). Empty for a
/// correct variant and for a known-bad whose broken sites say where it is fixed.
struct code_fix {
  std::string_view variant{};  ///< the correct variant's name (empty: none declared)
  std::string_view change{};   ///< e.g. "index_bits = 32, not 2 (tokio_queue's index width)"
};

/// A variant's description. Every field has a default, so a registration names only what
/// differs: `{.name = "my_deque", .summary = "...", .bounded = true}`.
struct variant_info {
  std::string_view name{};              ///< unique; the CLI's and the tests' name for it
  std::string_view summary{};           ///< one line for `stealcheck list`
  bool known_bad = false;               ///< deliberately broken: checkers must catch it
  std::string_view known_bad_reason{};  ///< what is broken (known-bad variants)
  /// The failure a known-bad variant must show (deques/failure.hpp): `verify` counts it as
  /// caught only when some checker fails it with one of these kinds. Empty: any failure counts
  /// (every built-in known-bad declares its kinds; a test holds them to it).
  failure_set must_show{};
  /// A known-bad whose bug is in its code: the correct variant that fixes it (`verify` runs
  /// the catching run on it, where it must pass).
  code_fix fixed_in{};
  bool bounded = false;      ///< push can report "full" (returns false)
  bool batch_steal = false;  ///< offers steal_into (steal-half)
  /// Its operations may wait in a loop for another thread (a spin lock, a retry until a
  /// racing thread is done). Under the model checker such a loop is cut at the per-thread
  /// event bound; a variant that does not declare it fails `verify` when any execution is cut
  /// (a loop that may never end is then a bug, reported with its source lines).
  bool spins = false;
  /// Thieves reach only what the owner has shared: a steal that finds nothing shared while the
  /// owner still holds private items returns abort (and asks the owner to share), so thieves
  /// progress only while the owner keeps pushing or popping (a split deque, deques/split.hpp).
  /// Without it, once the owner stops, a steal must take an item or report empty (the stress
  /// scenario spsc waits for exactly that; with it, spsc's thief stops at such an abort and
  /// the owner's final drain takes the rest).
  bool owner_shares = false;
  /// A steal that finds nothing reports empty, and that empty is linearizable. False: it
  /// reports abort instead, never empty (Go's run queue: while a push moves the old runnext
  /// into the ring, a thief that took the new one leaves the old one in neither, so no thief
  /// can tell an empty queue from a push in flight; deques/go.hpp). The stress scenario spsc's
  /// thief then stops at an abort once the owner has finished.
  bool thieves_report_empty = true;
  value_support values = value_support::any;
  /// The sequential specification the checkers hold it to (deques/spec.hpp): the stress
  /// ledger, the model clients' checks and both linearizability modes.
  spec_kind spec = spec_kind::lifo_owner;
  std::int64_t capacity = 0;  ///< initial capacity for the model clients (0: their own, 1-4)
  std::span<const site* const> sites{};  ///< memory-order sites with their default orders
  backend_support backends = backend_support::both;
};

/// A variant's type, as a template of (value type, memory backend).
template <template <class, class> class D>
struct variant_tag {
  template <class T, class Mem = native_memory>
  using deque = D<T, Mem>;
};

namespace detail {
template <class Sites>
struct site_table {
  static constexpr auto table = Sites::template list<Sites>();
};
}  // namespace detail

/// The sites of a `*_sites` struct (deques/chase_lev.hpp shows the shape), as a span with
/// static storage.
template <class Sites>
constexpr std::span<const site* const> sites_of() noexcept {
  return std::span<const site* const>(detail::site_table<Sites>::table);
}

/// A variant_info filled from a `*_sites` struct: its name, known-bad flag and reason, sites,
/// and `thieves_report_empty` and a known-bad's `must_show` when the struct declares them (as the
/// deque's code reads the first). A known-bad whose bug is in its code declares where it is
/// fixed as `using fixed_in = <the correct variant's sites struct, a base of its own>;` and
/// `static constexpr std::string_view fixed_by = "<what the fix changes>";`.
template <class Sites>
constexpr variant_info info_from_sites(std::string_view summary, bool bounded = false,
                                       bool batch_steal = false) {
  variant_info i;
  i.name = Sites::variant;
  i.summary = summary;
  i.known_bad = Sites::known_bad;
  i.known_bad_reason = Sites::known_bad_reason;
  i.bounded = bounded;
  i.batch_steal = batch_steal;
  i.sites = sites_of<Sites>();
  if constexpr (requires { Sites::thieves_report_empty; })
    i.thieves_report_empty = Sites::thieves_report_empty;
  if constexpr (requires { Sites::must_show; }) i.must_show = Sites::must_show;
  if constexpr (requires { typename Sites::fixed_in; }) {
    // the fix is the code the known-bad's sites struct derives from: a correct variant
    static_assert(std::is_base_of_v<typename Sites::fixed_in, Sites> &&
                  !Sites::fixed_in::known_bad && Sites::known_bad);
    i.fixed_in = {Sites::fixed_in::variant, Sites::fixed_by};
  }
  return i;
}

}  // namespace stealcheck

namespace stealcheck {

/// D constructed with an initial capacity when it has such a constructor (`D(std::int64_t)`),
/// default-constructed otherwise: the checkers ask of a deque only what the contract states.
template <class D>
struct sized : D {
  explicit sized(std::int64_t capacity) requires std::constructible_from<D, std::int64_t>
      : D(capacity) {}
  // the same constructor for a D without one from a capacity: one entry in the docs
  /// @cond
  explicit sized(std::int64_t /*capacity*/) requires(!std::constructible_from<D, std::int64_t>)
      : D() {}
  /// @endcond
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
