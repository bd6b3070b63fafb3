// The built-in variant steal_half registers itself (see builtin.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool steal_half_registered = register_variant<steal_half_tag::deque>(builtin::steal_half);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
