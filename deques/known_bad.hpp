// deques/known_bad.hpp: KNOWN-BAD variants. Deliberately broken; never use them for work.
//
// The chase_lev ones are the unmodified deques/chase_lev.hpp source with one memory-order site
// weakened; locked_steal_bottom is the locked deque with steal at the wrong end (it conserves
// values, so only a checker of deque *order* can catch it). They let the harness prove it
// catches each bug: `stealcheck verify
// --include-known-bad` must report every one of them as an *expected failure*, naming the
// offending value. They are the "deliberately broken input beside the correct one" for the
// stress checker (stress/), the model checker (models/) and the linearizability checker.
#pragma once

#include <atomic>
#include <string_view>
#include <utility>

#include "deques/chase_lev.hpp"
#include "deques/locked.hpp"

namespace stealcheck {

/// KNOWN-BAD: chase_lev without the seq_cst fence in pop (Fig. 1 take, line 4).
/// The owner's store of bottom can then be ordered after its load of top (store->load
/// reordering, which x86's store buffer performs): the owner and a thief both see one item
/// left and both take it (the value is taken twice).
struct chase_lev_sites_no_pop_fence : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_no_pop_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "pop's seq_cst fence removed: owner and thief can both take the last item";
  static constexpr site pop_fence{"chase_lev::pop.fence", std::memory_order_relaxed,
                                  site_kind::fence, "KNOWN-BAD: removed (relaxed = no fence)"};
};

/// KNOWN-BAD: chase_lev without the release fence in push (Fig. 1 push, line 8).
/// A thief that reads the new bottom has no happens-before to the slot store: under C11 it
/// may read a stale slot (a value never pushed there, or one already taken). x86 keeps stores
/// in order, so natively only the compiler can expose it; the model checker always does.
struct chase_lev_sites_no_push_fence : chase_lev_sites {
  static constexpr std::string_view variant = "chase_lev_no_push_fence";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "push's release fence removed: a thief can read a stale slot";
  static constexpr site push_fence{"chase_lev::push.fence", std::memory_order_relaxed,
                                   site_kind::fence, "KNOWN-BAD: removed (relaxed = no fence)"};
};

template <class T, class Mem = native_memory>
using chase_lev_no_pop_fence = chase_lev<T, Mem, chase_lev_sites_no_pop_fence>;
template <class T, class Mem = native_memory>
using chase_lev_no_push_fence = chase_lev<T, Mem, chase_lev_sites_no_push_fence>;

/// KNOWN-BAD: the locked deque with steal() taking from the *bottom* instead of the top.
/// Every value is still taken exactly once (the conservation stress passes, on purpose), but
/// thieves get the newest value instead of the oldest: not a deque. The linearizability
/// checker must catch it.
struct locked_sites_steal_bottom : locked_sites {
  static constexpr std::string_view variant = "locked_steal_bottom";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "steal takes from the bottom: conserves values, breaks deque order";
};

template <class T, class Mem = native_memory>
class locked_steal_bottom : public locked_deque<T, Mem, locked_sites_steal_bottom> {
 public:
  using locked_deque<T, Mem, locked_sites_steal_bottom>::locked_deque;
  steal_result<T> steal() {
    auto v = this->pop();  // the bug: the owner's end (locked pop is safe from any thread)
    return v ? steal_result<T>::item(std::move(*v)) : steal_result<T>::empty();
  }
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
