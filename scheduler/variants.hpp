// scheduler/variants.hpp: the pool instantiated with each correct fork-join deque variant of
// deques/registry.hpp (those whose pop takes the newest task: not the run queues tokio, go and
// crossbeam_fifo, nor idempotent, which may run a task twice), for tests and benchmarks that
// measure every variant in one program. The scheduler's typed tests (scheduler/tests/common.hpp)
// run the first eight; crossbeam_lifo's and bwos's pools run in the benchmark's checked quick
// run. Beside them, chase_lev with a LIFO slot in front under each of Tokio's policies
// (scheduler/lifo_slot.hpp; scheduler/tests/lifo_slot_test.cpp).
//
// Thread role: any (types and an immutable list). Complexity: O(number of variants).
// To run the scheduler on your own deque: `scheduler::pool<my_deque<scheduler::task*>>`; it must
// model work_stealing_deque (deques/deque.hpp) with value_type scheduler::task*; if it also models
// batch_stealing_deque, thieves use steal_into (steal half). With an owner_shares deque
// (split) thieves get only what the owner shared at its pushes and pops: fork-join programs
// run unchanged, but a task that spins until a sibling is stolen waits forever.
#pragma once

#include <string_view>

#include "scheduler/coro_pool.hpp"
#include "scheduler/fork_join.hpp"
#include "scheduler/lifo_slot.hpp"
#include "scheduler/pool.hpp"
#include "stealcheck/detail/deques/abp.hpp"
#include "stealcheck/detail/deques/bwos.hpp"
#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/crossbeam.hpp"
#include "stealcheck/detail/deques/dotnet.hpp"
#include "stealcheck/detail/deques/fjp.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/split.hpp"
#include "stealcheck/detail/deques/steal_half.hpp"
#include "stealcheck/detail/deques/the.hpp"

namespace stealcheck::scheduler {

using chase_lev_pool = pool<chase_lev<task*>>;
using locked_pool = pool<locked_deque<task*>>;
using steal_half_pool = pool<steal_half<task*>>;
using split_pool = pool<split_deque<task*>>;
using the_pool = pool<the_deque<task*>>;
using abp_pool = pool<abp<task*>>;
using fjp_pool = pool<fjp_deque<task*>>;
using dotnet_pool = pool<dotnet_deque<task*>>;
using crossbeam_lifo_pool = pool<crossbeam_lifo<task*>>;
using bwos_pool = pool<bwos<task*>>;
// The continuation-stealing mode on the same deques (scheduler/coro_pool.hpp).
using chase_lev_coro_pool = coro_pool<chase_lev<task*>>;
using locked_coro_pool = coro_pool<locked_deque<task*>>;
using steal_half_coro_pool = coro_pool<steal_half<task*>>;
using split_coro_pool = coro_pool<split_deque<task*>>;
using the_coro_pool = coro_pool<the_deque<task*>>;
using abp_coro_pool = coro_pool<abp<task*>>;
using fjp_coro_pool = coro_pool<fjp_deque<task*>>;
using dotnet_coro_pool = coro_pool<dotnet_deque<task*>>;
using crossbeam_lifo_coro_pool = coro_pool<crossbeam_lifo<task*>>;
using bwos_coro_pool = coro_pool<bwos<task*>>;
// chase_lev with a LIFO slot in front, under each of Tokio's policies (scheduler/lifo_slot.hpp).
using chase_lev_lifo_pool = pool<lifo_slot<chase_lev<task*>, lifo_slot_policy::private_slot>>;
using chase_lev_lifo_steal_pool = pool<lifo_slot<chase_lev<task*>, lifo_slot_policy::stealable>>;
using chase_lev_lifo_steal_quiet_pool =
    pool<lifo_slot<chase_lev<task*>, lifo_slot_policy::stealable_quiet>>;

template <class P>
struct pool_tag {
  using type = P;
};

/// Calls f(pool_tag<P>{}, name) for each pool type, chase_lev first. The continuation-stealing
/// pool on the same deque is coro_pool<typename P::deque_type>.
template <class F>
void for_each_pool_variant(F&& f) {
  f(pool_tag<chase_lev_pool>{}, std::string_view("chase_lev"));
  f(pool_tag<locked_pool>{}, std::string_view("locked"));
  f(pool_tag<steal_half_pool>{}, std::string_view("steal_half"));
  f(pool_tag<split_pool>{}, std::string_view("split"));
  f(pool_tag<the_pool>{}, std::string_view("the"));
  f(pool_tag<abp_pool>{}, std::string_view("abp"));
  f(pool_tag<fjp_pool>{}, std::string_view("fjp"));
  f(pool_tag<dotnet_pool>{}, std::string_view("dotnet"));
  f(pool_tag<crossbeam_lifo_pool>{}, std::string_view("crossbeam_lifo"));
  f(pool_tag<bwos_pool>{}, std::string_view("bwos"));
}

/// Calls f(pool_tag<P>{}, name) for chase_lev's pools with a LIFO slot, private first.
template <class F>
void for_each_lifo_slot_pool(F&& f) {
  f(pool_tag<chase_lev_lifo_pool>{}, std::string_view("chase_lev+lifo"));
  f(pool_tag<chase_lev_lifo_steal_pool>{}, std::string_view("chase_lev+lifo_steal"));
  f(pool_tag<chase_lev_lifo_steal_quiet_pool>{}, std::string_view("chase_lev+lifo_steal_quiet"));
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
