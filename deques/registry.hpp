// deques/registry.hpp: the list of deque variants every checker runs on.
//
// A variant is a class template `D<T, Mem>` (value type, memory backend) plus its metadata.
// Checkers instantiate it with their own T and Mem: the stress tests with native_memory, the
// model checker with model::memory. To add a variant (yours included: see
// deques/examples/README.md), write it against deques/memory.hpp, check it satisfies
// work_stealing_deque, and add one line to `for_each_variant` below.
//
// Thread role: any (the registry is immutable). Complexity: O(number of variants).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "deques/chase_lev.hpp"
#include "deques/known_bad.hpp"
#include "deques/locked.hpp"
#include "deques/memory.hpp"
#include "deques/steal_half.hpp"

namespace stealcheck {

/// What a checker needs to know about a variant besides its type.
struct variant_info {
  std::string_view name;
  std::string_view summary;
  bool known_bad;
  std::string_view known_bad_reason;
  bool bounded;                        ///< push can report "full"
  bool batch_steal;                    ///< offers steal_into (steal-half)
  std::span<const site* const> sites;  ///< memory-order sites with their default orders
};

/// A variant's type, as a template of (value type, memory backend).
template <template <class, class> class D>
struct variant_tag {
  template <class T, class Mem = native_memory>
  using deque = D<T, Mem>;
};

namespace detail {
template <class T, class Mem>
using chase_lev_default = chase_lev<T, Mem>;
template <class T, class Mem>
using locked_default = locked_deque<T, Mem>;
template <class T, class Mem>
using steal_half_default = steal_half<T, Mem>;

template <class Sites>
struct site_table {
  static constexpr auto table = Sites::template list<Sites>();
};
template <class Sites>
constexpr variant_info make_info(std::string_view summary, bool bounded, bool batch) {
  return {Sites::variant,
          summary,
          Sites::known_bad,
          Sites::known_bad_reason,
          bounded,
          batch,
          std::span<const site* const>(site_table<Sites>::table)};
}
}  // namespace detail

/// The registered variants' tags, for code that names one statically (tests).
using chase_lev_tag = variant_tag<detail::chase_lev_default>;
using locked_tag = variant_tag<detail::locked_default>;
using steal_half_tag = variant_tag<detail::steal_half_default>;
using chase_lev_no_pop_fence_tag = variant_tag<chase_lev_no_pop_fence>;
using chase_lev_no_push_fence_tag = variant_tag<chase_lev_no_push_fence>;
using locked_steal_bottom_tag = variant_tag<locked_steal_bottom>;

/// Calls f(variant_tag<D>{}, info) for every variant, the correct ones first, then the
/// known-bad ones. f is usually a generic lambda:
///   for_each_variant([&](auto tag, const variant_info& info) {
///     using deque = typename decltype(tag)::template deque<std::int64_t, native_memory>;
///   });
template <class F>
void for_each_variant(F&& f) {
  f(chase_lev_tag{},
    detail::make_info<chase_lev_sites>("Chase-Lev with the C11 orders of Le et al. 2013, growable",
                                       false, false));
  f(locked_tag{},
    detail::make_info<locked_sites>("mutex-protected std::deque (the reference)", false, false));
  f(steal_half_tag{},
    detail::make_info<steal_half_sites>("bounded ring, thieves take half in one CAS", true, true));
  f(chase_lev_no_pop_fence_tag{},
    detail::make_info<chase_lev_sites_no_pop_fence>("KNOWN-BAD chase_lev", false, false));
  f(chase_lev_no_push_fence_tag{},
    detail::make_info<chase_lev_sites_no_push_fence>("KNOWN-BAD chase_lev", false, false));
  f(locked_steal_bottom_tag{},
    detail::make_info<locked_sites_steal_bottom>("KNOWN-BAD locked", false, false));
}

/// Calls f(tag, info) for the variant named `name`; returns false if there is none.
template <class F>
bool with_variant(std::string_view name, F&& f) {
  bool found = false;
  for_each_variant([&](auto tag, const variant_info& info) {
    if (info.name == name) {
      found = true;
      f(tag, info);
    }
  });
  return found;
}

}  // namespace stealcheck
