// The built-in variant abp (Arora, Blumofe, Plaxton) and its known-bad 1-bit-tag instance
// register themselves (see builtin.hpp and deques/abp.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool abp_registered = register_variant<abp_tag::deque>(builtin::abp) &&
                            register_variant<abp_tag1_tag::deque>(builtin::abp_tag1) &&
                            register_variant<abp_tag2_tag::deque>(builtin::abp_tag2);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
