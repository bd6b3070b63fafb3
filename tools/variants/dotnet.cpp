// The built-in variant dotnet (.NET's WorkStealingQueue) and its known-bad register themselves
// (see builtin.hpp and deques/dotnet.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool dotnet_registered =
    register_variant<dotnet_tag::deque>(builtin::dotnet) &&
    register_variant<dotnet_no_pop_fence_tag::deque>(builtin::dotnet_no_pop_fence);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
