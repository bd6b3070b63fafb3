// The scheduler's own synchronization registers itself as model-only variants (see
// builtin.hpp): `sched` (the event count, the join protocol, the injection queue and the outside
// wait, in the pool itself on two workers, on each correct built-in deque) and its
// known-bad orders (scheduler/known_bad.hpp), which the model checker must catch.
#include <string_view>
#include <vector>

#include "scheduler/known_bad.hpp"
#include "scheduler/model_clients.hpp"
#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck::tools {

namespace {

using scheduler::model_clients::add_clients;

// A model-only variant whose clients run the pool with orders Ec, Js, Is and wake-up
// policy Wake; on every correct built-in deque when all_deques, else on chase_lev.
template <class Ec, class Js, class Is = scheduler::inject_sites,
          class Wake = scheduler::inject_wake_strict>
harness::variant sched_variant(std::string_view name, std::string_view summary,
                               std::string_view bad_reason, bool all_deques,
                               failure_set must_show = {}, code_fix fixed_in = {}) {
  variant_info info;
  info.name = name;
  info.summary = summary;
  info.known_bad = !bad_reason.empty();
  info.known_bad_reason = bad_reason;
  info.must_show = must_show;
  info.fixed_in = fixed_in;
  info.values = value_support::scalar;
  info.backends = backend_support::model_only;
  info.sites = sites_of<scheduler::model_clients::sched_sites<Ec, Js, Is>>();
  harness::variant v(info);
  v.bind(model::binding{[all_deques] {
    std::vector<model::clients::client_entry> out;
    add_clients<detail::chase_lev_default, Ec, Js, Is, Wake>(out, "chase_lev");
    add_clients<detail::chase_lev_default, Ec, Js, Is, Wake, scheduler::search_limit::half>(
        out, "chase_lev");
    if (all_deques) {
      add_clients<detail::steal_half_default, Ec, Js, Is, Wake>(out, "steal_half");
      add_clients<detail::locked_default, Ec, Js, Is, Wake>(out, "locked");
      add_clients<detail::split_default, Ec, Js, Is, Wake>(out, "split");
    }
    return out;
  }});
  return v;
}

}  // namespace

const bool sched_registered =
    harness::add_variant(sched_variant<scheduler::event_count_sites, scheduler::join_sites>(
        "sched",
        "the scheduler's event count and join protocol (model clients, the pool on two workers)",
        "", true)) &&
    harness::add_variant(sched_variant<scheduler::event_count_sites_relaxed, scheduler::join_sites>(
        "sched_ec_relaxed", "KNOWN-BAD sched",
        "event count RMWs relaxed: a sleeper misses shutdown (lost wake-up)", false,
        {failure_kind::deadlock})) &&
    harness::add_variant(
        sched_variant<scheduler::event_count_sites, scheduler::join_sites_relaxed_done>(
            "sched_done_relaxed", "KNOWN-BAD sched",
            "stolen task's done flag stored relaxed: the joiner reads results unordered", false,
            {failure_kind::data_race})) &&
    harness::add_variant(
        sched_variant<scheduler::event_count_sites, scheduler::join_sites_relaxed_arrive>(
            "sched_arrive_relaxed", "KNOWN-BAD sched",
            "stolen group task's count decrement relaxed: the spawner reads results unordered",
            false, {failure_kind::data_race})) &&
    harness::add_variant(sched_variant<scheduler::event_count_sites, scheduler::join_sites,
                                       scheduler::inject_sites, scheduler::inject_wake_hint>(
        "sched_inject_hint", "KNOWN-BAD sched",
        "injected work announced with hint_one: a parking worker misses it (lost wake-up)", false,
        {failure_kind::deadlock},
        {"sched", "inject_wake_strict (injected work announced with notify_one, not hint_one)"})) &&
    harness::add_variant(sched_variant<scheduler::event_count_sites, scheduler::join_sites,
                                       scheduler::inject_sites_relaxed_notify>(
        "sched_external_relaxed", "KNOWN-BAD sched",
        "outside wait's epoch bump relaxed: the caller misses the completion", false,
        {failure_kind::deadlock})) &&
    harness::add_variant(sched_variant<scheduler::event_count_sites, scheduler::join_sites,
                                       scheduler::inject_sites,
                                       scheduler::inject_wake_unless_searching>(
        "sched_search_skip", "KNOWN-BAD sched",
        "injected work announced only when nobody searches, on a relaxed count of searchers: the "
        "last searcher parks past it (lost wake-up)",
        false, {failure_kind::deadlock},
        {"sched",
         "inject_wake_strict (injected work announced whether or not a worker searches)"}));

}  // namespace stealcheck::tools
// SPDX-License-Identifier: Apache-2.0
