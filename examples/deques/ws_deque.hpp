// deques/ws_deque.hpp: a user's work-stealing deque, as a runtime would write it: Chase-Lev with
// the C11 orders of Le, Pop, Cohen and Zappa Nardelli (PPoPP 2013, Fig. 1), task values kept in
// atomics, growing by doubling. It is templated on stealcheck's memory backend (`Mem`), so the
// same source runs natively and under the model checker.
//
// ws_deque_relaxed_array is the same deque with the bug CDSChecker found in the published C11
// version (Norris and Demsky, OOPSLA 2013): steal loads the array pointer with a relaxed load.
// A thief can then read the new array, installed by a resize it has no happens-before with,
// and take a slot of it before the copied value is visible to it.
//
// Each order that matters is a named memory-order site (ws_deque_sites): one line with its
// default order and its reason. The code reads its orders from the sites, so the known-bad
// variant is the same source with one site shadowed, `example-stealcheck mutate ws_deque`
// weakens each site in turn and checks that every weakening is caught or documented as not
// needed, and `model ws_deque --site ws_deque::steal.load_array=relaxed` tries one by hand.
//
// Thread role: push/pop the owner only; steal any thread. Values: T trivially copyable, at
// most 8 bytes (a task pointer, an integer). pop: nullopt when empty; steal: item, empty, or
// abort (lost a race). Complexity: O(1), push amortized O(1) (a resize copies the live items).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>
#include <string_view>
#include <vector>

#include "deques/deque.hpp"

namespace example {

/// ws_deque's memory orders, one named site each (the shape: deques/chase_lev.hpp): the code
/// reads its orders from here, `stealcheck mutate ws_deque` weakens each one in turn, and
/// `stealcheck model ws_deque --site NAME=ORDER` overrides one. Each text names the partner
/// access and the client that catches a weaker order, or says why it is not needed.
struct ws_deque_sites {
  static constexpr std::string_view variant = "ws_deque";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  using mo = std::memory_order;
  using kind = stealcheck::site_kind;
  using site = stealcheck::site;
  static constexpr site push_load_top{
      "ws_deque::push.load_top", mo::acquire, kind::load,
      "pairs with the CAS of top in steal/pop (a slot is read before it is reused); not "
      "needed under RC11, which forbids the load-buffering cycle it would allow"};
  static constexpr site push_fence{
      "ws_deque::push.fence", mo::release, kind::fence,
      "pairs with steal.load_bottom: publishes the slot stored before it (MP); killed in "
      "push_pop_steal2"};
  static constexpr site pop_fence{
      "ws_deque::pop.fence", mo::seq_cst, kind::fence,
      "with steal.fence orders the store of bottom before the load of top (SB): otherwise the "
      "owner and a thief both take the last item; killed in push2_pop_steal2"};
  static constexpr site pop_cas{
      "ws_deque::pop.cas", mo::seq_cst, kind::rmw,
      "RMW atomicity on top decides the race with steal.cas; the order adds nothing: not "
      "needed"};
  static constexpr site steal_load_top{
      "ws_deque::steal.load_top", mo::acquire, kind::load,
      "pairs with the previous taker's CAS of top; steal.fence and the CAS already order what "
      "follows: not needed"};
  static constexpr site steal_fence{
      "ws_deque::steal.fence", mo::seq_cst, kind::fence,
      "with pop.fence orders the load of top before the load of bottom (SB); killed in "
      "push2_pop_steal2"};
  static constexpr site steal_load_bottom{
      "ws_deque::steal.load_bottom", mo::acquire, kind::load,
      "pairs with push.fence: the slot read next holds the pushed value; killed in "
      "push_pop_steal2"};
  static constexpr site steal_load_array{
      "ws_deque::steal.load_array", mo::acquire, kind::load,
      "pairs with grow.store_array: the copied slots are visible through the new array; "
      "relaxed is the bug CDSChecker found (killed in push3_pop2_2thieves)"};
  static constexpr site steal_cas{
      "ws_deque::steal.cas", mo::seq_cst, kind::rmw,
      "RMW atomicity on top decides the race with pop.cas and other thieves; the order adds "
      "nothing the acquire loads before it do not: not needed"};
  static constexpr site grow_store_array{
      "ws_deque::grow.store_array", mo::release, kind::store,
      "pairs with steal.load_array: publishes the copied slots; killed in push3_pop2_2thieves"};

  /// The sites of `S` (this struct, or one derived from it that shadows a site).
  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_load_top,     &S::push_fence,       &S::pop_fence,
                      &S::pop_cas,           &S::steal_load_top,   &S::steal_fence,
                      &S::steal_load_bottom, &S::steal_load_array, &S::steal_cas,
                      &S::grow_store_array};
  }
};

/// The bug: steal's load of the array pointer relaxed.
struct ws_deque_relaxed_array_sites : ws_deque_sites {
  static constexpr std::string_view variant = "ws_deque_relaxed_array";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "steal loads the array pointer relaxed: a thief can read a resized array's slot before "
      "its copy";
  static constexpr site steal_load_array{"ws_deque::steal.load_array", mo::relaxed, kind::load,
                                         "KNOWN-BAD: relaxed"};
};

template <class T, class Mem = stealcheck::native_memory, class Sites = ws_deque_sites>
class ws_deque {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  // Every order that is not a site is relaxed: the owner reading its own stores, or an access
  // a site's fence or acquire orders (each commented below).
  static constexpr auto relaxed = std::memory_order_relaxed;

  struct ring {
    std::int64_t mask;
    atomic<T>* slots;
    explicit ring(std::int64_t capacity)
        : mask(capacity - 1), slots(Mem::template create_array<atomic<T>>(size(), "ring")) {}
    ~ring() { Mem::destroy_array(slots, size()); }
    ring(const ring&) = delete;
    ring& operator=(const ring&) = delete;
    std::size_t size() const { return static_cast<std::size_t>(mask + 1); }
    atomic<T>& at(std::int64_t i) const { return slots[i & mask]; }
  };

 public:
  using value_type = T;

  explicit ws_deque(std::int64_t capacity = default_capacity)
      : array_(Mem::template create<ring>(pow2(capacity)), "array") {}
  ~ws_deque() {
    Mem::destroy(array_.load(relaxed));  // relaxed: no other thread runs in the destructor
    for (ring* r : retired_)
      Mem::destroy(r);
  }
  ws_deque(const ws_deque&) = delete;
  ws_deque& operator=(const ws_deque&) = delete;

  void push(T v) {
    const std::int64_t b = bottom_.load(relaxed);  // relaxed: the owner's own last store
    const std::int64_t t = top_.load(Mem::order(Sites::push_load_top));  // pairs: the CAS of top
    ring* a = array_.load(relaxed);  // relaxed: only the owner stores array_
    if (b - t > a->mask) a = grow(a, t, b);
    a->at(b).store(v, relaxed);  // relaxed: published by push.fence below
    // release (push.fence): pairs with steal's acquire load of bottom; publishes the slot
    Mem::fence(Mem::order(Sites::push_fence));
    bottom_.store(b + 1, relaxed);  // relaxed: ordered after the slot by push.fence
  }

  std::optional<T> pop() {
    // relaxed: the owner reads its own last stores of bottom and array_
    const std::int64_t b = bottom_.load(relaxed) - 1;
    ring* a = array_.load(relaxed);
    bottom_.store(b, relaxed);  // relaxed: ordered before the load of top by pop.fence
    // seq_cst (pop.fence): with steal.fence, this store of bottom before the load of top (SB)
    Mem::fence(Mem::order(Sites::pop_fence));
    std::int64_t t = top_.load(relaxed);  // relaxed: ordered by pop.fence
    if (t > b) {
      bottom_.store(b + 1, relaxed);  // relaxed: empty; thieves only compare it with top
      return std::nullopt;
    }
    T v = a->at(b).load(relaxed);  // relaxed: the owner stored this slot itself
    if (t == b) {                  // the last item: race the thieves for it with a CAS on top
      // pop.cas: one RMW order on top with steal.cas decides who takes index t;
      // relaxed failure: a lost race uses nothing it read
      const bool won = top_.compare_exchange_strong(t, t + 1, Mem::order(Sites::pop_cas), relaxed);
      bottom_.store(b + 1, relaxed);  // relaxed: thieves only compare it with top
      if (!won) return std::nullopt;
    }
    return v;
  }

  stealcheck::steal_result<T> steal() {
    std::int64_t t = top_.load(Mem::order(Sites::steal_load_top));  // pairs: the last taker's CAS
    // seq_cst (steal.fence): with pop.fence, this load of top before the load of bottom (SB)
    Mem::fence(Mem::order(Sites::steal_fence));
    // acquire (steal.load_bottom): pairs with push.fence: the slot read below is published
    const std::int64_t b = bottom_.load(Mem::order(Sites::steal_load_bottom));
    if (t >= b) return stealcheck::steal_result<T>::empty();
    // acquire (steal.load_array): pairs with grow's release store of array_
    ring* a = array_.load(Mem::order(Sites::steal_load_array));
    T v = a->at(t).load(relaxed);  // relaxed: ordered by the acquire loads above
    // steal.cas: one RMW order on top with pop.cas; relaxed failure: abort uses nothing
    if (!top_.compare_exchange_strong(t, t + 1, Mem::order(Sites::steal_cas), relaxed))
      return stealcheck::steal_result<T>::abort();
    return stealcheck::steal_result<T>::item(v);
  }

 private:
  static std::int64_t pow2(std::int64_t n) {
    std::int64_t c = 1;
    while (c < n)
      c *= 2;
    return c;
  }

  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    ring* a = Mem::template create<ring>(2 * (old->mask + 1));
    // relaxed: the owner reads its own slots; the copies are published by grow.store_array
    for (std::int64_t i = t; i < b; ++i)
      a->at(i).store(old->at(i).load(relaxed), relaxed);
    // release (grow.store_array): pairs with steal's acquire load of array_
    array_.store(a, Mem::order(Sites::grow_store_array));
    retired_.push_back(old);  // a thief may still read the old ring: freed with the deque
    return a;
  }

  // Names for the model checker's reports ("top", "ring#1[0]"); natively no cost.
  atomic<std::int64_t> top_{0, "top"};
  atomic<std::int64_t> bottom_{0, "bottom"};
  atomic<ring*> array_;
  std::vector<ring*> retired_;  // owner only
};

/// The same deque with steal's load of the array pointer relaxed (the bug).
template <class T, class Mem = stealcheck::native_memory>
using ws_deque_relaxed_array = ws_deque<T, Mem, ws_deque_relaxed_array_sites>;

}  // namespace example
// SPDX-License-Identifier: Apache-2.0
