/// @file
/// stealcheck/deque.hpp: what a deque is written against. The contract (deques/deque.hpp:
/// steal_result, the work_stealing_deque concept), the memory backends (deques/memory.hpp:
/// native_memory; `Mem::atomic`, `Mem::fence`, `Mem::create_array`, location names; memory-order
/// sites: site, site_kind, `Mem::order`) and a variant's description (deques/variant.hpp:
/// variant_info, value_support, spec_kind, sites_of).
/// The model backend is stealcheck::model::memory (models/runtime/memory.hpp); checkers instantiate
/// a deque with it themselves.
///
/// The public surface is this header and the five beside it (atomic.hpp, model.hpp,
/// register.hpp, testing.hpp, cli.hpp), with what they name above. The headers they include are
/// installed under include/stealcheck/detail/: internal, free to change between versions; include
/// only \<stealcheck/...\> headers.
#pragma once

#include "deques/deque.hpp"
#include "deques/memory.hpp"
#include "deques/variant.hpp"
// SPDX-License-Identifier: Apache-2.0
