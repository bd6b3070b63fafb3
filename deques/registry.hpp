// deques/registry.hpp: stealcheck's built-in variants, as a compile-time list.
//
// Programs find variants in the open run-time registry (harness/registry.hpp), where each
// built-in variant registers itself from its own translation unit (tools/variants/*.cpp), as a
// user's variant does (include/stealcheck/register.hpp). This header keeps the built-in ones'
// descriptions in one place, and lets stealcheck's own tests iterate over their types
// statically (for_each_variant), e.g. to instantiate a typed test for each.
//
// Thread role: any (constants). Complexity: O(number of built-in variants).
#pragma once

#include <string_view>
#include <type_traits>

#include "stealcheck/detail/deques/abp.hpp"
#include "stealcheck/detail/deques/bwos.hpp"
#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/crossbeam.hpp"
#include "stealcheck/detail/deques/dotnet.hpp"
#include "stealcheck/detail/deques/fjp.hpp"
#include "stealcheck/detail/deques/go.hpp"
#include "stealcheck/detail/deques/idempotent.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/split.hpp"
#include "stealcheck/detail/deques/steal_half.hpp"
#include "stealcheck/detail/deques/the.hpp"
#include "stealcheck/detail/deques/tokio.hpp"
#include "stealcheck/detail/deques/tokio_lifo.hpp"
#include "stealcheck/detail/deques/variant.hpp"

namespace stealcheck {

namespace detail {
template <class T, class Mem>
using chase_lev_default = chase_lev<T, Mem>;
template <class T, class Mem>
using locked_default = locked_deque<T, Mem>;
template <class T, class Mem>
using steal_half_default = steal_half<T, Mem>;
template <class T, class Mem>
using split_default = split_deque<T, Mem>;
template <class T, class Mem>
using the_default = the_deque<T, Mem>;
template <class T, class Mem>
using abp_default = abp<T, Mem>;
template <class T, class Mem>
using abp_tag1_default = abp_tag1<T, Mem>;
template <class T, class Mem>
using abp_tag2_default = abp_tag2<T, Mem>;
template <class T, class Mem>
using fjp_default = fjp_deque<T, Mem>;
template <class T, class Mem>
using dotnet_default = dotnet_deque<T, Mem>;
template <class T, class Mem>
using idempotent_default = idempotent_deque<T, Mem>;
template <class T, class Mem>
using tokio_default = tokio_queue<T, Mem>;
template <class T, class Mem>
using tokio_lifo_default = tokio_lifo<T, Mem>;
template <class T, class Mem>
using go_default = go_runq<T, Mem>;
template <class T, class Mem>
using bwos_default = bwos<T, Mem>;
template <class T, class Mem>
using crossbeam_lifo_default = crossbeam_lifo<T, Mem>;
template <class T, class Mem>
using crossbeam_fifo_default = crossbeam_fifo<T, Mem>;
}  // namespace detail

/// The built-in variants' tags, for code that names one statically (tests).
using chase_lev_tag = variant_tag<detail::chase_lev_default>;
using locked_tag = variant_tag<detail::locked_default>;
using steal_half_tag = variant_tag<detail::steal_half_default>;
using split_tag = variant_tag<detail::split_default>;
using the_tag = variant_tag<detail::the_default>;
using abp_tag = variant_tag<detail::abp_default>;
using fjp_tag = variant_tag<detail::fjp_default>;
using dotnet_tag = variant_tag<detail::dotnet_default>;
using idempotent_tag = variant_tag<detail::idempotent_default>;
using tokio_tag = variant_tag<detail::tokio_default>;
using tokio_lifo_tag = variant_tag<detail::tokio_lifo_default>;
using go_tag = variant_tag<detail::go_default>;
using bwos_tag = variant_tag<detail::bwos_default>;
using crossbeam_lifo_tag = variant_tag<detail::crossbeam_lifo_default>;
using crossbeam_fifo_tag = variant_tag<detail::crossbeam_fifo_default>;
using chase_lev_no_pop_fence_tag = variant_tag<chase_lev_no_pop_fence>;
using chase_lev_no_push_fence_tag = variant_tag<chase_lev_no_push_fence>;
using locked_steal_bottom_tag = variant_tag<locked_steal_bottom>;
using the_no_pop_fence_tag = variant_tag<the_no_pop_fence>;
using abp_tag1_tag = variant_tag<detail::abp_tag1_default>;
using fjp_pop_no_rmw_tag = variant_tag<fjp_pop_no_rmw>;
using dotnet_no_pop_fence_tag = variant_tag<dotnet_no_pop_fence>;
using idempotent_no_tag_tag = variant_tag<idempotent_no_tag>;
using tokio_push_checks_real_tag = variant_tag<tokio_push_checks_real>;
using tokio_narrow_index_tag = variant_tag<tokio_narrow_index>;
using go_pop_runnext_no_cas_tag = variant_tag<go_pop_runnext_no_cas>;
using crossbeam_lifo_no_recheck_tag = variant_tag<crossbeam_lifo_no_recheck>;
using crossbeam_fifo_no_restore_tag = variant_tag<crossbeam_fifo_no_restore>;
using chase_lev_grow_relaxed_tag = variant_tag<chase_lev_grow_relaxed>;
using chase_lev_steal_array_relaxed_tag = variant_tag<chase_lev_steal_array_relaxed>;
using abp_tag2_tag = variant_tag<detail::abp_tag2_default>;
using tokio_index3_tag = variant_tag<tokio_index3>;
using tokio_wrap_relaxed_head_tag = variant_tag<tokio_wrap_relaxed_head>;
using the_ticket2_tag = variant_tag<the_ticket2>;
using tokio_lifo_push_load_store_tag = variant_tag<tokio_lifo_push_load_store>;
using bwos_reuse_unchecked_tag = variant_tag<bwos_reuse_unchecked>;

/// The built-in variants' descriptions.
namespace builtin {
inline constexpr variant_info chase_lev =
    info_from_sites<chase_lev_sites>("Chase-Lev with the C11 orders of Le et al. 2013, growable");
inline constexpr variant_info locked =
    info_from_sites<locked_sites>("mutex-protected std::deque (the reference)");
inline constexpr variant_info steal_half = info_from_sites<steal_half_sites>(
    "bounded ring, thieves take half in one CAS", /*bounded=*/true, /*batch_steal=*/true);
inline constexpr variant_info split = [] {
  variant_info i = info_from_sites<split_sites>(
      "bounded ring, private newest part shared on request (Lace)", /*bounded=*/true);
  i.owner_shares = true;
  return i;
}();
inline constexpr variant_info the = info_from_sites<the_sites>(
    "Cilk-5's THE protocol: lock-free owner, locked thieves (Frigo et al. 1998)");
inline constexpr variant_info abp = info_from_sites<abp_sites>(
    "bounded array, tagged age word, reset on empty (Arora et al. 1998)", /*bounded=*/true);
inline constexpr variant_info fjp = info_from_sites<fjp_sites>(
    "Java ForkJoinPool's WorkQueue: slots taken by exchange and CAS (OpenJDK 17)");
inline constexpr variant_info dotnet = info_from_sites<dotnet_sites>(
    ".NET thread pool's WorkStealingQueue: lock-free owner, try-locked thieves");
inline constexpr variant_info idempotent = [] {
  variant_info i = info_from_sites<idempotent_sites>(
      "idempotent LIFO work stealing: no RMW or fence in the owner, at least once (Michael et "
      "al. 2009)");
  i.spec = spec_kind::at_least_once;
  i.values = value_support::scalar;
  return i;
}();
/// The run queues of Tokio and Go with their overflow queues (the unordered spec: overflow
/// moves values out of the ring, and Go's runnext is taken first).
constexpr variant_info run_queue_info(variant_info i) {
  i.batch_steal = true;
  i.spec = spec_kind::unordered;
  return i;
}
inline constexpr variant_info tokio = run_queue_info(info_from_sites<tokio_sites>(
    "Tokio's local run queue: ring, (steal, real) head, half to the inject queue on overflow"));
/// The run queues with a stealable slot: their thieves report abort when they find nothing
/// (thieves_report_empty, from their sites; deques/go.hpp and deques/tokio.hpp say why).
inline constexpr variant_info tokio_lifo = run_queue_info(info_from_sites<tokio_lifo_sites>(
    "Tokio's local run queue with its stealable LIFO slot (tokio#8120): slot taken last"));
inline constexpr variant_info go = run_queue_info(info_from_sites<go_sites>(
    "Go's per-P run queue: runnext slot, ring, half to the global queue on overflow"));
static_assert(!go.thieves_report_empty && !tokio_lifo.thieves_report_empty);
/// BWoS: the owner's block is private (owner_shares), thieves report abort, never empty (from
/// its sites), and a steal may take a value newer than the oldest (the unordered spec;
/// deques/bwos.hpp says why). The model clients run it as 2 blocks of 1 slot, so that a few
/// pushes grant, take over and reuse blocks.
constexpr variant_info bwos_info(variant_info i) {
  i.owner_shares = true;
  i.spec = spec_kind::unordered;
  i.capacity = 2;
  return i;
}
inline constexpr variant_info bwos = bwos_info(info_from_sites<bwos_sites>(
    "block-based work stealing (Wang et al. 2023; stdexec's bwos::lifo_queue)",
    /*bounded=*/true));
/// crossbeam-deque's Worker: a growable ring that also shrinks, batch steals; its pop takes the
/// newest value (lifo) or the oldest (fifo). The model clients start it at capacity 1, its
/// minimum, so that a few operations grow and shrink it.
constexpr variant_info crossbeam_info(variant_info i, spec_kind spec) {
  i.batch_steal = true;
  i.spec = spec;
  i.capacity = 1;
  return i;
}
inline constexpr variant_info crossbeam_lifo = crossbeam_info(
    info_from_sites<crossbeam_sites>(
        "crossbeam-deque's Worker::new_lifo: Chase-Lev that shrinks, batch steals (Rust)"),
    spec_kind::lifo_owner);
inline constexpr variant_info crossbeam_fifo = crossbeam_info(
    info_from_sites<crossbeam_fifo_sites>(
        "crossbeam-deque's Worker::new_fifo: the owner pops the oldest, fetch_add on front"),
    spec_kind::fifo_owner);
inline constexpr variant_info chase_lev_no_pop_fence =
    info_from_sites<chase_lev_sites_no_pop_fence>("KNOWN-BAD chase_lev");
inline constexpr variant_info chase_lev_no_push_fence =
    info_from_sites<chase_lev_sites_no_push_fence>("KNOWN-BAD chase_lev");
inline constexpr variant_info locked_steal_bottom =
    info_from_sites<locked_sites_steal_bottom>("KNOWN-BAD locked");
inline constexpr variant_info the_no_pop_fence =
    info_from_sites<the_sites_no_pop_fence>("KNOWN-BAD the");
inline constexpr variant_info abp_tag1 =
    info_from_sites<abp_sites_tag1>("KNOWN-BAD abp", /*bounded=*/true);
inline constexpr variant_info fjp_pop_no_rmw =
    info_from_sites<fjp_sites_pop_no_rmw>("KNOWN-BAD fjp");
inline constexpr variant_info dotnet_no_pop_fence =
    info_from_sites<dotnet_sites_no_pop_fence>("KNOWN-BAD dotnet");
inline constexpr variant_info idempotent_no_tag = [] {
  variant_info i = info_from_sites<idempotent_sites_no_tag>("KNOWN-BAD idempotent");
  i.spec = spec_kind::at_least_once;
  i.values = value_support::scalar;
  return i;
}();
inline constexpr variant_info tokio_push_checks_real =
    run_queue_info(info_from_sites<tokio_sites_push_checks_real>("KNOWN-BAD tokio"));
inline constexpr variant_info tokio_narrow_index =
    run_queue_info(info_from_sites<tokio_sites_narrow_index>("KNOWN-BAD tokio"));
inline constexpr variant_info go_pop_runnext_no_cas =
    run_queue_info(info_from_sites<go_sites_pop_runnext_no_cas>("KNOWN-BAD go"));
inline constexpr variant_info tokio_lifo_push_load_store =
    run_queue_info(info_from_sites<tokio_lifo_sites_push_load_store>("KNOWN-BAD tokio_lifo"));
inline constexpr variant_info bwos_reuse_unchecked =
    bwos_info(info_from_sites<bwos_sites_reuse_unchecked>("KNOWN-BAD bwos", /*bounded=*/true));
inline constexpr variant_info crossbeam_lifo_no_recheck =
    crossbeam_info(info_from_sites<crossbeam_sites_lifo_no_recheck>("KNOWN-BAD crossbeam_lifo"),
                   spec_kind::lifo_owner);
inline constexpr variant_info crossbeam_fifo_no_restore =
    crossbeam_info(info_from_sites<crossbeam_sites_fifo_no_restore>("KNOWN-BAD crossbeam_fifo"),
                   spec_kind::fifo_owner);
/// The deep known-bads: bugs on a path that only a scenario larger than the model clients
/// takes (a growth, a wrapped ring, a wrapped tag or index, a third thief); `stealcheck fuzz`
/// finds them.
/// Those whose path needs a full ring run at capacity 8 (the clients push at most 5 values).
constexpr variant_info deep_info(variant_info i, std::int64_t capacity) {
  i.capacity = capacity;
  return i;
}
inline constexpr variant_info chase_lev_grow_relaxed =
    deep_info(info_from_sites<chase_lev_sites_grow_relaxed>("KNOWN-BAD chase_lev, deep"), 8);
inline constexpr variant_info chase_lev_steal_array_relaxed =
    deep_info(info_from_sites<chase_lev_sites_steal_array_relaxed>("KNOWN-BAD chase_lev, deep"), 8);
inline constexpr variant_info abp_tag2 =
    info_from_sites<abp_sites_tag2>("KNOWN-BAD abp, deep", /*bounded=*/true);
inline constexpr variant_info tokio_index3 =
    run_queue_info(info_from_sites<tokio_sites_index3>("KNOWN-BAD tokio, deep"));
inline constexpr variant_info tokio_wrap_relaxed_head = deep_info(
    run_queue_info(info_from_sites<tokio_sites_wrap_relaxed_head>("KNOWN-BAD tokio, deep")), 8);
inline constexpr variant_info the_ticket2 =
    info_from_sites<the_sites_ticket2>("KNOWN-BAD the, deep");
}  // namespace builtin

/// Calls f(variant_tag<D>{}, info) for every built-in variant, the correct ones first, then
/// the known-bad ones. f is usually a generic lambda:
///   for_each_variant([&](auto tag, const variant_info& info) {
///     using deque = typename decltype(tag)::template deque<std::int64_t, native_memory>;
///   });
template <class F>
constexpr void for_each_variant(F&& f) {
  f(chase_lev_tag{}, builtin::chase_lev);
  f(locked_tag{}, builtin::locked);
  f(steal_half_tag{}, builtin::steal_half);
  f(split_tag{}, builtin::split);
  f(the_tag{}, builtin::the);
  f(abp_tag{}, builtin::abp);
  f(fjp_tag{}, builtin::fjp);
  f(dotnet_tag{}, builtin::dotnet);
  f(idempotent_tag{}, builtin::idempotent);
  f(tokio_tag{}, builtin::tokio);
  f(tokio_lifo_tag{}, builtin::tokio_lifo);
  f(go_tag{}, builtin::go);
  f(bwos_tag{}, builtin::bwos);
  f(crossbeam_lifo_tag{}, builtin::crossbeam_lifo);
  f(crossbeam_fifo_tag{}, builtin::crossbeam_fifo);
  f(chase_lev_no_pop_fence_tag{}, builtin::chase_lev_no_pop_fence);
  f(chase_lev_no_push_fence_tag{}, builtin::chase_lev_no_push_fence);
  f(locked_steal_bottom_tag{}, builtin::locked_steal_bottom);
  f(the_no_pop_fence_tag{}, builtin::the_no_pop_fence);
  f(abp_tag1_tag{}, builtin::abp_tag1);
  f(fjp_pop_no_rmw_tag{}, builtin::fjp_pop_no_rmw);
  f(dotnet_no_pop_fence_tag{}, builtin::dotnet_no_pop_fence);
  f(idempotent_no_tag_tag{}, builtin::idempotent_no_tag);
  f(tokio_push_checks_real_tag{}, builtin::tokio_push_checks_real);
  f(tokio_narrow_index_tag{}, builtin::tokio_narrow_index);
  f(go_pop_runnext_no_cas_tag{}, builtin::go_pop_runnext_no_cas);
  f(tokio_lifo_push_load_store_tag{}, builtin::tokio_lifo_push_load_store);
  f(bwos_reuse_unchecked_tag{}, builtin::bwos_reuse_unchecked);
  f(crossbeam_lifo_no_recheck_tag{}, builtin::crossbeam_lifo_no_recheck);
  f(crossbeam_fifo_no_restore_tag{}, builtin::crossbeam_fifo_no_restore);
  f(chase_lev_grow_relaxed_tag{}, builtin::chase_lev_grow_relaxed);
  f(chase_lev_steal_array_relaxed_tag{}, builtin::chase_lev_steal_array_relaxed);
  f(abp_tag2_tag{}, builtin::abp_tag2);
  f(tokio_index3_tag{}, builtin::tokio_index3);
  f(tokio_wrap_relaxed_head_tag{}, builtin::tokio_wrap_relaxed_head);
  f(the_ticket2_tag{}, builtin::the_ticket2);
}

/// Whether `info` says of the type what the type itself says: batch_steal iff it offers
/// steal_into (batch_stealing_deque), owner_shares iff it declares owner_shares
/// (owner_shares_v). The facts live on the type; variant_info repeats them for the consumers
/// that see no type (the CLI, JSON), and deques/tests/registry_test.cpp checks every built-in.
template <class Tag>
constexpr bool info_matches_type(const variant_info& info) noexcept {
  using D = typename Tag::template deque<int>;
  return info.batch_steal == batch_stealing_deque<D> && info.owner_shares == owner_shares_v<D>;
}

/// The description of the built-in variant whose tag is `Tag`, at compile time (a default
/// variant_info when Tag is none of them).
template <class Tag>
constexpr variant_info builtin_info() {
  variant_info out{};
  for_each_variant([&](auto tag, const variant_info& info) {
    if constexpr (std::is_same_v<decltype(tag), Tag>) out = info;
  });
  return out;
}

/// Calls f(tag, info) for the built-in variant named `name`; returns false if there is none.
template <class F>
bool with_variant(std::string_view name, F&& f) {
  bool found = false;
  for_each_variant([&](auto tag, const variant_info& info) {
    if (info.name == name) {
      found = true;
      f(tag, info);
    }
  });
  return found;
}

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
