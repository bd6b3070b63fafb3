// The built-in variant locked and its known-bad register themselves (see builtin.hpp and
// deques/locked.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool locked_registered =
    register_variant<locked_tag::deque>(builtin::locked) &&
    register_variant<locked_steal_bottom_tag::deque>(builtin::locked_steal_bottom);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
