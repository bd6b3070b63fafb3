// The built-in known-bad variants register themselves (see builtin.hpp and
// deques/known_bad.hpp): each checker must catch at least one of them.
#include <stealcheck/register.hpp>

#include "deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool known_bad_registered =
    register_variant<chase_lev_no_pop_fence_tag::deque>(builtin::chase_lev_no_pop_fence) &&
    register_variant<chase_lev_no_push_fence_tag::deque>(builtin::chase_lev_no_push_fence) &&
    register_variant<locked_steal_bottom_tag::deque>(builtin::locked_steal_bottom);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
