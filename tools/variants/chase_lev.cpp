// The built-in variant chase_lev registers itself (see builtin.hpp).
#include <stealcheck/register.hpp>

#include "deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool chase_lev_registered = register_variant<chase_lev_tag::deque>(builtin::chase_lev);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
