// The built-in variant bwos (block-based work stealing) and its known-bad register themselves
// (see builtin.hpp and deques/bwos.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool bwos_registered =
    register_variant<bwos_tag::deque>(builtin::bwos) &&
    register_variant<bwos_reuse_unchecked_tag::deque>(builtin::bwos_reuse_unchecked);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
