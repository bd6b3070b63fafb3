// models/graph/site_ids.hpp: numbers for the memory-order sites the code under test uses, so that
// each event of an execution graph can say which site gave it its order (reports print the
// site's name: "chase_lev::steal.load_slot").
//
// site_id(s) numbers a site the first time it is seen (1, 2, ...; 0 means "no site": an
// access whose order was a plain std::memory_order); site_at(id) gives it back.
// Requires: a site has static storage duration (the `static constexpr site` members of a
// `*_sites` struct, deques/chase_lev.hpp): the registry keeps its address.
// Thread role: any thread (a process-wide registry behind a mutex, with a per-thread cache
// in front: the call made on every access of a model run is a load and a compare).
// Complexity: O(1) per call once the site is cached; a new site costs one locked hash insert.
#pragma once

#include <cstdint>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::model {

namespace detail {
struct site_cache_slot {
  const site* s = nullptr;
  std::uint32_t id = 0;
};
inline constexpr std::size_t site_cache_size = 256;
/// The cache slot of a site: Fibonacci hashing of its address (sites of one struct lie a few
/// dozen bytes apart; the multiply spreads them over the slots).
inline std::size_t site_slot(const site* s) noexcept {
  return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(s) * 0x9E3779B97F4A7C15ULL) >>
                                  56);
}
extern constinit thread_local site_cache_slot tls_site_cache[site_cache_size];
/// The registry's number of s (registering it when new). Fills the calling thread's cache.
[[gnu::cold]] std::uint32_t register_site(const site& s);
}  // namespace detail

/// The number of site s (never 0).
[[gnu::always_inline]] inline std::uint32_t site_id(const site& s) {
  detail::site_cache_slot& c = detail::tls_site_cache[detail::site_slot(&s)];
  if (c.s == &s) return c.id;
  return detail::register_site(s);
}

/// The site numbered id, or nullptr for 0 or a number never given out.
const site* site_at(std::uint32_t id);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
