// The built-in variant idempotent (Michael et al.'s idempotent LIFO work stealing) and its
// known-bad register themselves (see builtin.hpp and deques/idempotent.hpp). Both hold only
// scalar values: a value taken twice is a copy.
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool idempotent_registered =
    register_variant<idempotent_tag::deque, value_support::scalar>(builtin::idempotent) &&
    register_variant<idempotent_no_tag_tag::deque, value_support::scalar>(
        builtin::idempotent_no_tag);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
