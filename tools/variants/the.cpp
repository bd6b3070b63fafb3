// The built-in variant the (Cilk-5's THE protocol) and its known-bad registers itself (see
// builtin.hpp and deques/the.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool the_registered =
    register_variant<the_tag::deque>(builtin::the) &&
    register_variant<the_no_pop_fence_tag::deque>(builtin::the_no_pop_fence) &&
    register_variant<the_ticket2_tag::deque>(builtin::the_ticket2);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
