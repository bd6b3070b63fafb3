// models/front/clients.hpp: the library of bounded deque clients the model checker runs on every
// variant (templated on the deque template D<T, model::memory>).
//
// Each client is a small program: the main model thread is the deque's owner and runs its
// operations concurrently with one or two thieves; after joining, the owner drains the deque.
// Every client checks (models/front/history.hpp), against the spec the variant declares
// (variant_info::spec, deques/spec.hpp): no value taken twice (at_least_once allows it), none
// invented, nothing lost, results explained by the spec in an order respecting happens-before
// (invented and taken twice are judged as each value returns, the rest after the drain); the
// memory backend adds data races, use-after-free, leaks.
//
// Why these shapes (docs/rc11-oracle.md, "Deque shapes"): push -> steal is MP
// through push's release fence; owner pop against one thief stealing *twice* is SB+scfs on
// (top, bottom), against two thieves RWC+syncs. A single steal against push, push, pop can
// never see the pop-fence bug, so every client that targets pop has two steals.
//
// The clients are model test bodies written in the public body API (models/front/body.hpp,
// include/stealcheck/model.hpp: model::thread, assert_that, checked_deque), as a user writes
// one; as_client hands each to the explorer.
//
// Thread role: run inside model::explore. Complexity: each is a few dozen events per thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/verdict.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/body.hpp"
#include "stealcheck/detail/models/front/owned.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck::model::clients {

/// When the deque offers size_hint (the built-in variants do), a snapshot from any thread must
/// lie between 0 and the number of values ever pushed (`most`).
template <class Deque>
void check_size_hint(const Deque& d, std::int64_t most) {
  if constexpr (requires { d.size_hint(); }) {
    const std::int64_t n = d.size_hint();
    const bool ok = n >= 0 && n <= most;
    assert_that(ok, failure_kind::wrong_result,
                ok ? std::string()
                   : "size_hint returned " + std::to_string(n) + " with at most " +
                         std::to_string(most) + " values ever pushed");
  }
}

/// A client as scripts of operations, one letter each: `u` push (the next value: 1, 2, ...),
/// `o` pop, `s` steal, `b` steal_into the thief's own empty deque (batch stealers only), `h`
/// size_hint (check_size_hint against every push of the script). The owner runs `before`,
/// spawns the thieves (at most three; an empty script is no thief), runs `owner` concurrently
/// with them, joins them and drains (owned::finish).
struct script {
  std::string_view before;
  std::string_view owner;
  std::array<std::string_view, 3> thieves;
  std::int64_t capacity;  ///< the client's own capacity (cap_or)
};

template <template <class, class> class D>
void run_script(const script& s, const variant_info& v) {
  using Q = D<value, memory>;
  checked_deque<Q> o(cap_or(v.capacity, s.capacity), v.spec);
  const auto pushes = static_cast<std::int64_t>(std::count(s.before.begin(), s.before.end(), 'u') +
                                                std::count(s.owner.begin(), s.owner.end(), 'u'));
  value next = 1;
  auto run = [&](std::string_view ops) {
    for (const char op : ops) {
      if (op == 'u') o.push(next++);  // owner-only: thieves' scripts have no `u`
      if (op == 'o') o.pop();
      if (op == 's') o.steal();
      if (op == 'h') check_size_hint(o.deque(), pushes);
      if constexpr (batch_stealing_deque<Q>) {
        if (op == 'b') {  // a thief's steal_into its own, empty deque
          sized<Q> mine(cap_or(v.capacity, s.capacity));
          o.steal_into(mine);
        }
      }
    }
  };
  run(s.before);
  std::array<thread, 3> thieves;
  for (std::size_t k = 0; k < s.thieves.size(); ++k)
    if (!s.thieves[k].empty()) thieves[k] = thread([&run, &ops = s.thieves[k]] { run(ops); });
  run(s.owner);
  for (thread& t : thieves)
    if (t.joinable()) t.join();
  o.finish();
}

/// The scripted clients. Why each shape: see the file comment and docs/rc11-oracle.md.
namespace scripts {
/// Owner: push 1, push 2, pop. One thief steals twice (SB+scfs on top/bottom).
inline constexpr script push2_pop_steal2{"", "uuo", {"ss", ""}, 4};
/// Owner: push 1..3 from capacity 1 (forces resizes), pop, pop. Two thieves steal once each.
inline constexpr script push3_pop2_2thieves{"", "uuuoo", {"s", "s"}, 1};
/// Owner: push 1, pop. One thief steals twice.
inline constexpr script push_pop_steal2{"", "uo", {"ss", ""}, 2};
/// Owner: pop on a deque that never held an item, push 1, pop. One thief reads size_hint and
/// steals twice, the first steal possibly also on the never-filled deque (the empty paths a
/// runtime takes first: with unsigned indices, pop's `bottom - 1` would wrap here).
inline constexpr script pop_push_pop_steal2{"", "ouo", {"hss", ""}, 2};
/// Owner: push 1, push 2, then three pops, the last ones on a deque emptied by its own pops or
/// by the thief's steals. One thief steals twice, its second steal often on an emptied deque.
inline constexpr script push2_pop3_steal2{"", "uuooo", {"ss", ""}, 4};
/// Owner: push 1, pop. Two thieves steal once each: the last item contested three ways (the
/// owner's last-item CAS against two thieves' CASes on top).
inline constexpr script push_pop_2thieves{"", "uo", {"s", "s"}, 2};
/// Owner: fills a ring of 2 (push 1, push 2, before the thief starts), then push 3 and pop
/// while one thief reads size_hint and steals three times. Push 3 either wraps around into
/// the slot a steal freed (it read the thief's top) or grows the ring while the thief may hold
/// the old one (chase_lev's push.load_top and resize.store_array; a bounded ring refuses the
/// push); the third steal races the owner for value 3, published by push 3 alone.
inline constexpr script full_ring_push_pop_steal3{"uu", "uo", {"hsss", ""}, 2};
/// Owner: push 1, pop, push 2, pop, while one thief steals once: the deque empties twice
/// and is refilled at the same index in between, while the thief may still hold what it read
/// before (an ABA on the thieves' index: ABP's tag, a ring's narrow index), and the owner
/// pushes and pops again after a contested pop (a pop that leaves the deque inconsistent when
/// it loses the last item to the thief loses or duplicates value 2).
inline constexpr script push_pop_push_pop_steal{"", "uouo", {"s", ""}, 2};
/// Owner: push 1, 2, pop, pop, push 3, 4, while one thief steals twice: slot 1 is written by
/// push 2, emptied and written again by push 4, while the thief may hold the anchor it read
/// before the pops. A thief whose slot read sees push 4's value but whose claim succeeds
/// against that older anchor takes 4 (the owner's pops move the anchor past it only in
/// modification order), and its next steal can read an anchor showing empty while 3 is
/// there: unless the slot store and load synchronize (idempotent's push.store_slot and
/// steal.load_slot; added for at-least-once deques, whose owner takes without an RMW).
inline constexpr script push2_pop2_push2_steal2{"", "uuoouu", {"ss", ""}, 4};
/// Owner: push 1, 2 before the thieves start, then push 3, 4; thief A steals once, thief B
/// twice. A thief that reads a top another thief advanced, with a bottom older than what that
/// thief saw, reports empty beside a pushed item unless the store and load of top synchronize
/// (fjp's steal.store_top and steal.load_top: Java advances base with an opaque store).
inline constexpr script push2_push2_steal_2thieves{"uu", "uu", {"s", "ss"}, 4};
/// Run queues (batch stealers): a ring of 2 filled by push 1, 2 before the thief starts, then
/// push 3, push 4 and a pop while one thief steals twice. The ring overflows: half of it and
/// the pushed value move to the overflow queue (Tokio's push_overflow after push 3; Go's
/// runqputslow after push 4, runnext holding one more), while the thief's claim CAS may beat
/// the overflow's CAS on head, which then retries.
inline constexpr script push2_overflow_pop_steal2{"uu", "uuo", {"ss", ""}, 2};
/// Batch stealers: push 1..5 and pop twice before the thief starts (a growable ring is now 8
/// slots holding three values), then two more pops while one thief steals a batch into its own
/// deque. The last pop leaves one value in 8 slots: crossbeam's pop shrinks the ring (a swap
/// while the thief may hold the old ring, between its load of the ring and its re-check), and
/// crossbeam's LIFO thief, taking its batch one value at a time, finds the deque emptied or
/// loses the last value to the owner partway.
inline constexpr script push5_pop4_steal_into{"uuuuuoo", "oo", {"b", ""}, 8};
/// Batch stealers: push 1..5 before the thief starts (a ring of 1 grows to 8), then three pops
/// and push 6 while one thief steals a batch into its own deque. The thief sees five values and
/// takes three, one CAS each from a LIFO victim, reading every slot from the ring it loaded
/// once; the owner's third pop shrinks the ring (a swap), and push 6 then writes index 2 of the
/// new ring while the thief is still to read index 2 of the old one, where value 3, already
/// popped, stays. Without crossbeam's re-check of the ring before each CAS (CVE-2021-32810),
/// the thief's CAS of front succeeds: value 3 is taken twice and value 6 lost.
inline constexpr script push5_pop3_push_steal_into{"uuuuu", "ooou", {"b", ""}, 8};
/// Owner_shares deques (split): push 1, 2, 3 before the thief starts, then push 4 and four
/// pops while one thief steals twice. A first steal that finds nothing shared asks the owner,
/// whose push 4 then shares 1 and 2; the pops take 4 and 3 privately, then take back 2 by
/// lowering split (reclaim) and race the thief for 1 (the owner's last-item CAS on top).
inline constexpr script push3_share_pop4_steal2{"uuu", "uoooo", {"ss", ""}, 4};
/// The large client (benchmarks, not CI): owner pushes 1..4 from capacity 2 (a resize) and
/// pops four times; two thieves steal twice each.
inline constexpr script push4_pop4_2thieves_steal2{"", "uuuuoooo", {"ss", "ss"}, 2};
/// Nightly size (large: run only when named; split it with --shard): the large client with a
/// third thief stealing twice.
inline constexpr script push4_pop4_3thieves_steal2{"", "uuuuoooo", {"ss", "ss", "ss"}, 2};
/// Nightly size: the owner pushes 1..5 from capacity 2 and pops five times; two thieves steal
/// twice each.
inline constexpr script push5_pop5_2thieves_steal2{"", "uuuuuooooo", {"ss", "ss"}, 2};
}  // namespace scripts

/// A scripted client with its own capacity, as a function (what tests pass to explore):
/// `scripted<D, scripts::push2_pop_steal2>`.
template <template <class, class> class D, const script& S>
void scripted(client& c) {
  enter(c);
  run_script<D>(S, variant_info{});
}
template <template <class, class> class D>
inline constexpr auto push2_pop_steal2 = &scripted<D, scripts::push2_pop_steal2>;
template <template <class, class> class D>
inline constexpr auto push3_pop2_2thieves = &scripted<D, scripts::push3_pop2_2thieves>;
template <template <class, class> class D>
inline constexpr auto push_pop_steal2 = &scripted<D, scripts::push_pop_steal2>;
template <template <class, class> class D>
inline constexpr auto push_pop_push_pop_steal = &scripted<D, scripts::push_pop_push_pop_steal>;
template <template <class, class> class D>
inline constexpr auto pop_push_pop_steal2 = &scripted<D, scripts::pop_push_pop_steal2>;
template <template <class, class> class D>
inline constexpr auto push4_pop4_2thieves_steal2 =
    &scripted<D, scripts::push4_pop4_2thieves_steal2>;

/// Owner: push 1, 2, 3 from capacity 2 (a growth while the thief may hold the old ring); one
/// thief steals once. The deque is then destroyed still holding values: the destructor's
/// path, which no draining client takes. Checks: the steal took 1 or nothing (it is the only
/// remover; under unordered and at_least_once, one of 1..3, as thieves there may take any),
/// and the memory backend's own checks (every ring freed once, none used after).
template <template <class, class> class D>
void push3_steal_destroy_at(const variant_info& info) {
  std::optional<value> stolen;
  {
    sized<D<value, memory>> d(cap_or(info.capacity, 2));
    thread thief([&] { stolen = d.steal().take(); });
    for (value v = 1; v <= 3; ++v)
      static_cast<void>(d.push(value{v}));  // a bounded ring may refuse: nothing to check
    thief.join();
  }
  const bool any = !spec::ordered(info.spec);
  const bool ok = !stolen || *stolen == 1 || (any && *stolen >= 1 && *stolen <= 3);
  assert_that(ok, any ? failure_kind::value_invented : failure_kind::not_linearizable,
              ok    ? std::string()
              : any ? harness::value_fault_text(failure_kind::value_invented, *stolen,
                                                "the only steal took it")
                    : "the only steal took " + std::to_string(*stolen) + "; the top value is 1");
}

/// steal_half: ring of 4 holding 1, 2; two thieves steal_into their own rings while the owner
/// pops once.
template <template <class, class> class D>
void two_thieves_half_full_at(const variant_info& v) {
  using Q = D<value, memory>;
  checked_deque<Q> o(cap_or(v.capacity, 4), v.spec);
  o.push(1);
  o.push(2);
  Q m1(4), m2(4);
  thread t1([&] { o.steal_into(m1); });
  thread t2([&] { o.steal_into(m2); });
  o.pop();
  t1.join();
  t2.join();
  o.finish();
}

/// Batch stealers: victim holds 1, 2, 3; the thief's ring (capacity 2) already holds 101 and
/// 102, so a batch is capped by the room (steal_half takes one item) or refused (tokio aborts
/// when its own ring is more than half full); the owner pops concurrently.
template <template <class, class> class D>
void steal_into_nearly_full_at(const variant_info& v) {
  using Q = D<value, memory>;
  checked_deque<Q> o(cap_or(v.capacity, 4), v.spec);
  o.push(1);
  o.push(2);
  o.push(3);
  sized<Q> mine(2);
  thread thief([&] {
    static_cast<void>(mine.push(value{101}));  // a bounded ring has room for both
    static_cast<void>(mine.push(value{102}));
    o.steal_into(mine, {101, 102});
  });
  o.pop();
  thief.join();
  o.finish();
}

/// steal_half: victim holds 1..4 (pushed before the spawns; with Go's runnext the ring holds
/// three, so that a batch of two still leaves one in A's ring); thief A steals a batch into
/// its own ring while thief B steals from A's ring: the batch must be published to A's
/// thieves (MP through A's store of its ring's bottom, steal_into.store_dest_bottom). No
/// history here (a batch split between A and B is no single operation of the victim's spec):
/// the client checks that every value is taken exactly once (at least once under
/// at_least_once) and none is invented.
template <template <class, class> class D>
void steal_from_thief_at(const variant_info& info) {
  using Q = sized<D<value, memory>>;
  const std::int64_t cap = info.capacity;
  Q victim(cap_or(cap, 4));
  for (value v = 1; v <= 4; ++v)
    static_cast<void>(victim.push(value{v}));  // room for 4 in every capacity the clients use
  Q mine(cap_or(cap, 4));                      // A's ring
  std::optional<value> by_a, by_b;
  thread a([&] { by_a = victim.steal_into(mine).take(); });
  thread b([&] { by_b = mine.steal().take(); });
  a.join();
  b.join();
  std::array<int, 5> taken{};
  auto take = [&](value v, const char* by) {
    const bool pushed = v >= 1 && v <= 4;
    assert_that(pushed, failure_kind::value_invented,
                pushed ? std::string()
                       : harness::value_fault_text(failure_kind::value_invented, v,
                                                   std::string("taken by ") + by));
    if (pushed) ++taken[static_cast<std::size_t>(v)];
  };
  if (by_a) take(*by_a, "thief A's batch steal");
  if (by_b) take(*by_b, "thief B's steal from A's ring");
  while (auto v = victim.pop())
    take(*v, "the victim's drain");
  while (auto v = mine.pop())
    take(*v, "the drain of A's ring");
  const bool dup = spec::allows_duplicates(info.spec);
  for (value v = 1; v <= 4; ++v) {
    const int n = taken[static_cast<std::size_t>(v)];
    const bool ok = n == 1 || (dup && n > 1);
    assert_that(ok, n == 0 ? failure_kind::value_lost : failure_kind::value_taken_twice,
                ok       ? std::string()
                : n == 0 ? harness::value_fault_text(failure_kind::value_lost, v,
                                                     "in no steal and in neither drain")
                         : harness::value_fault_text(failure_kind::value_taken_twice, v,
                                                     std::to_string(n) + " takes"));
  }
}

/// The unscripted clients with their own capacity, as functions.
template <template <class, class> class D>
void push3_steal_destroy(client& c) {
  enter(c);
  push3_steal_destroy_at<D>(variant_info{});
}

struct client_entry {
  std::string_view name;
  std::function<void(client&)> run;
  bool large = false;  ///< minutes, not seconds: run only when named (--client NAME)
};

/// The clients that apply to variant D (batch clients only for batch-stealing variants).
/// `large` ones are excluded from --all-clients and from `stealcheck verify`.
template <template <class, class> class D>
std::vector<client_entry> clients_for(const variant_info& info) {
  auto entry = [&info](std::string_view name, void (*f)(const variant_info&), bool large = false) {
    return client_entry{name, as_client([f, info] { f(info); }), large};
  };
  auto scripted_entry = [&info](std::string_view name, const script& sc, bool large = false) {
    return client_entry{name, as_client([&sc, info] { run_script<D>(sc, info); }), large};
  };
  std::vector<client_entry> v{
      scripted_entry("push2_pop_steal2", scripts::push2_pop_steal2),
      scripted_entry("push3_pop2_2thieves", scripts::push3_pop2_2thieves),
      scripted_entry("push_pop_steal2", scripts::push_pop_steal2),
      scripted_entry("pop_push_pop_steal2", scripts::pop_push_pop_steal2),
      scripted_entry("push2_pop3_steal2", scripts::push2_pop3_steal2),
      scripted_entry("push_pop_2thieves", scripts::push_pop_2thieves),
      scripted_entry("full_ring_push_pop_steal3", scripts::full_ring_push_pop_steal3),
      entry("push3_steal_destroy", push3_steal_destroy_at<D>),
      scripted_entry("push_pop_push_pop_steal", scripts::push_pop_push_pop_steal),
      scripted_entry("push2_push2_steal_2thieves", scripts::push2_push2_steal_2thieves),
      scripted_entry("push4_pop4_2thieves_steal2", scripts::push4_pop4_2thieves_steal2, true),
      scripted_entry("push4_pop4_3thieves_steal2", scripts::push4_pop4_3thieves_steal2, true),
      scripted_entry("push5_pop5_2thieves_steal2", scripts::push5_pop5_2thieves_steal2, true)};
  if (info.spec == spec::spec_kind::at_least_once) {
    v.push_back(scripted_entry("push2_pop2_push2_steal2", scripts::push2_pop2_push2_steal2));
  }
  if (info.owner_shares) {
    v.push_back(scripted_entry("push3_share_pop4_steal2", scripts::push3_share_pop4_steal2));
  }
  if constexpr (batch_stealing_deque<D<value, memory>>) {
    if (info.batch_steal) {
      v.push_back(scripted_entry("push2_overflow_pop_steal2", scripts::push2_overflow_pop_steal2));
      v.push_back(scripted_entry("push5_pop4_steal_into", scripts::push5_pop4_steal_into));
      v.push_back(
          scripted_entry("push5_pop3_push_steal_into", scripts::push5_pop3_push_steal_into));
      v.push_back(entry("two_thieves_half_full", two_thieves_half_full_at<D>));
      v.push_back(entry("steal_into_nearly_full", steal_into_nearly_full_at<D>));
      v.push_back(entry("steal_from_thief", steal_from_thief_at<D>));
    }
  }
  return v;
}

}  // namespace stealcheck::model::clients
// SPDX-License-Identifier: Apache-2.0
