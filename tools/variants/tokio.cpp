// The built-in variants tokio (Tokio's local run queue) and tokio_lifo (with its stealable LIFO
// slot) and their known-bads register themselves (see builtin.hpp and deques/tokio.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool tokio_registered =
    register_variant<tokio_tag::deque>(builtin::tokio) &&
    register_variant<tokio_push_checks_real_tag::deque>(builtin::tokio_push_checks_real) &&
    register_variant<tokio_narrow_index_tag::deque>(builtin::tokio_narrow_index) &&
    register_variant<tokio_index3_tag::deque>(builtin::tokio_index3) &&
    register_variant<tokio_wrap_relaxed_head_tag::deque>(builtin::tokio_wrap_relaxed_head) &&
    register_variant<tokio_lifo_tag::deque>(builtin::tokio_lifo) &&
    register_variant<tokio_lifo_push_load_store_tag::deque>(builtin::tokio_lifo_push_load_store);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
