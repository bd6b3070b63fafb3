// The built-in variant locked registers itself (see builtin.hpp).
#include <stealcheck/register.hpp>

#include "deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool locked_registered = register_variant<locked_tag::deque>(builtin::locked);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
