// The built-in variant go (Go's per-P run queue) and its known-bad register themselves (see
// builtin.hpp and deques/go.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool go_registered =
    register_variant<go_tag::deque>(builtin::go) &&
    register_variant<go_pop_runnext_no_cas_tag::deque>(builtin::go_pop_runnext_no_cas);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
