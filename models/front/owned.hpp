// models/front/owned.hpp: a deque on the model's memory with its operations recorded and judged
// (models/front/history.hpp) as every deque client of the model checker judges them: the owner's
// deque, its history against the variant's spec (deques/spec.hpp), and the values it pushed.
// The built-in clients (models/front/clients.hpp) and a user's model test
// (model::checked_deque, models/front/body.hpp) use it.
//
// Thread role: push, pop, steal_into's pops of the thief's own deque and finish on the threads
// the names say (owner, thief); finish after every thread that used the deque was joined.
// Complexity: O(1) recording per operation; finish's order check is a search over
// linearizations (models/front/history.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/history.hpp"

namespace stealcheck::model::clients {

using value = std::int64_t;

/// One owner plus its history and the values it pushed.
template <class Deque>
struct owned {
  sized<Deque> d;
  history h;
  std::vector<value> pushed;
  /// The deque with `capacity`, its history checked against `spec` (variant_info::spec).
  owned(std::int64_t capacity, spec::spec_kind spec) : d(capacity), h(spec) {
    pushed.reserve(8);  // one allocation per execution, not one per growth
  }

  /// Returns false when a bounded deque is full (the value stays with the owner).
  bool push(client& c, value v) {
    deque_op op;
    op.kind = spec::op_kind::push;
    op.has_value = true;
    op.value = v;
    bool ok = true;
    h.record(c, op, [&](deque_op&) {
      if constexpr (std::is_same_v<decltype(d.push(value{v})), bool>) {
        ok = d.push(value{v});
      } else {
        d.push(value{v});
      }
    });
    if (!ok) {
      h.discard_last();  // bounded and full: the value stays with the owner
      return false;
    }
    pushed.push_back(v);
    return true;
  }
  std::optional<value> pop(client& c) {
    std::optional<value> got;
    deque_op op;
    op.kind = spec::op_kind::pop;
    h.record(c, op, [&](deque_op& o) {
      got = d.pop();
      o.set_taken(got);
    });
    return got;
  }
  steal_result<value> steal(client& c) {
    steal_result<value> got = steal_result<value>::empty();
    deque_op op;
    op.kind = spec::op_kind::steal;
    h.record(c, op, [&](deque_op& o) {
      got = d.steal();
      o.set_stolen(got);
    });
    return got;
  }
  /// Thread role: the owner of `mine`. Pops `mine` empty afterwards to learn the batch; a pop
  /// that returns more values than were ever pushed (the owner's, a push still running and
  /// `prefilled`) never reports empty, and fails there as value_invented.
  void steal_into(client& c, Deque& mine, const std::vector<value>& prefilled) {
    const std::size_t at = steal_into_open(c, mine);
    std::vector<value> rest;
    std::size_t popped = 0;
    while (auto v = mine.pop()) {
      const std::size_t most = pushed.size() + 1 + prefilled.size();
      if (++popped > most) {
        c.check(false, failure_kind::value_invented,
                "the thief's pops of its own deque after its steal_into returned " +
                    std::to_string(popped) + " values where at most " + std::to_string(most) +
                    " were there: pop never reports empty");
        return;
      }
      if (std::find(prefilled.begin(), prefilled.end(), *v) == prefilled.end()) rest.push_back(*v);
    }
    complete_batch(at, {rest.rbegin(), rest.rend()}, false);
  }
  /// A batch steal whose batch is known only later (other threads steal from `mine` too):
  /// steals into `mine` and returns the operation's index for complete_batch, once every value
  /// it moved is known. Thread role: the owner of `mine`.
  std::size_t steal_into_open(client& c, Deque& mine) {
    deque_op op;
    op.kind = spec::op_kind::steal_batch;
    return h.record(c, op, [&](deque_op& x) { x.set_stolen(d.steal_into(mine)); });
  }
  /// The batch of operation `at` (steal_into_open): the value it returned, then `rest`, the
  /// other values it moved, oldest first. A batch taken in steps becomes one steal per value:
  /// appended to the history while `at` is its thread's latest operation, else (`after_join`)
  /// inserted after it, so that batches completed after the join go latest first.
  void complete_batch(std::size_t at, const std::vector<value>& rest, bool after_join = true) {
    deque_op& o = h.at(at);
    if (o.has_value) {
      o.batch.push_back(o.value);
      o.batch.insert(o.batch.end(), rest.begin(), rest.end());
    }
    if constexpr (batch_in_steps<Deque>) h.split_batch(at, after_join);
  }
  /// After joining: drain and check everything.
  void finish(client& c) {
    std::vector<value> drained;
    drained.reserve(pushed.size());
    c.operation("pop of the final drain");
    while (auto v = d.pop()) {
      drained.push_back(*v);
      h.judge_drained(c, *v, drained.size());  // a pop that never reports empty stops here
    }
    c.operation(nullptr);
    h.check_all(c, pushed, drained);
  }
};

/// The capacity a client constructs its deque with: the variant's (variant_info::capacity)
/// when it sets one, else the client's own small one (small on purpose: it forces growth).
constexpr std::int64_t cap_or(std::int64_t variant_cap, std::int64_t own) noexcept {
  return variant_cap > 0 ? variant_cap : own;
}

}  // namespace stealcheck::model::clients
// SPDX-License-Identifier: Apache-2.0
