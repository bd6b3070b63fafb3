// The built-in variant fjp (Java ForkJoinPool's WorkQueue) and its known-bad register
// themselves (see builtin.hpp and deques/fjp.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool fjp_registered = register_variant<fjp_tag::deque>(builtin::fjp) &&
                            register_variant<fjp_pop_no_rmw_tag::deque>(builtin::fjp_pop_no_rmw);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
