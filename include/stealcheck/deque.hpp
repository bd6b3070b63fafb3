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
/// installed under include/stealcheck/detail/ and included as "stealcheck/detail/...": internal,
/// free to change between versions; include only \<stealcheck/...\> headers. Only include/ is on
/// a user's include path, so a project's own deques/ or models/ folder does not clash.
#pragma once

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/variant.hpp"
// SPDX-License-Identifier: Apache-2.0
