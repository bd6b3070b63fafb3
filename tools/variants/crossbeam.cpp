// The built-in variants crossbeam_lifo and crossbeam_fifo (crossbeam-deque's Worker) and their
// known-bads register themselves (see builtin.hpp and deques/crossbeam.hpp).
#include <stealcheck/register.hpp>

#include "stealcheck/detail/deques/registry.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

const bool crossbeam_registered =
    register_variant<crossbeam_lifo_tag::deque>(builtin::crossbeam_lifo) &&
    register_variant<crossbeam_fifo_tag::deque>(builtin::crossbeam_fifo) &&
    register_variant<crossbeam_lifo_no_recheck_tag::deque>(builtin::crossbeam_lifo_no_recheck) &&
    register_variant<crossbeam_fifo_no_restore_tag::deque>(builtin::crossbeam_fifo_no_restore);

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
