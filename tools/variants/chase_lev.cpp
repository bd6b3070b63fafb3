// The built-in variant chase_lev and its known-bads register themselves (see builtin.hpp and
// deques/chase_lev.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool chase_lev_registered =
    register_variant<chase_lev_tag::deque>(builtin::chase_lev) &&
    register_variant<chase_lev_no_pop_fence_tag::deque>(builtin::chase_lev_no_pop_fence) &&
    register_variant<chase_lev_no_push_fence_tag::deque>(builtin::chase_lev_no_push_fence) &&
    register_variant<chase_lev_grow_relaxed_tag::deque>(builtin::chase_lev_grow_relaxed) &&
    register_variant<chase_lev_steal_array_relaxed_tag::deque>(
        builtin::chase_lev_steal_array_relaxed);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
