// The built-in variant split registers itself (see builtin.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool split_registered = register_variant<split_tag::deque>(builtin::split);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
