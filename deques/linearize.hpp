// deques/linearize.hpp: the one linearizability search of stealcheck, and the minimizer of
// the histories it rejects.
//
// A history is a list of completed operations. It is linearizable when some total order of
// them (1) extends the order the history imposes on them and (2) is a legal run of a
// sequential specification, each operation with the result it observed (Herlihy & Wing,
// TOPLAS 1990). The two parts are parameters:
//
//   Order  which operation may come next. real_time_order: a response before an invocation
//          orders two operations (native histories, stress/). precedence_order: an explicit
//          strict partial order given as per-thread program order plus a predecessor set per
//          operation (model-checked histories, models/, where it is happens-before between
//          operations, as in CDSChecker's specification checks, Norris & Demsky, OOPSLA 2013).
//   Spec   any state with `apply(spec, op) -> bool` (op legal with its observed result: apply
//          it) and `undo(spec, op)` (reverse the last successful apply), found by
//          argument-dependent lookup; deques/spec.hpp's sequential_deque is one.
//
// The search is Wing and Gong's (J. Parallel Distrib. Comput. 1993): depth first over the
// candidates the order allows, applying each to the spec, undoing on backtrack, iterative (no
// recursion depth limit). An order may memoize sets of linearized operations (Lowe, "Testing
// for linearizability", CCPE 2017): real_time_order does, with a 128-bit Zobrist key of the
// set, which is sound when the set determines the spec state (unique values); precedence_order
// keys the set by its mask. A successful
// search leaves the witness order in search::witness().
//
// minimize() shrinks a failing history by greedy removal of units (a push with every
// operation that took its value, closed under batches; or a lone operation that took nothing),
// keeping a removal only when a caller's "still fails" predicate holds for what is left.
//
// Thread role: none shared; a search, an order and a spec belong to one thread.
// Complexity: worst case exponential in the number of operations (deciding linearizability is
// NP-complete); real_time_order is O(n log n) to build and O(1) per step, precedence_order is
// O(T) per candidate scan for T threads, at most 64 operations, and with its memo at most
// prod over threads of (operations + 1) sets.
// minimize() runs the predicate once per unit: O(units * predicate).
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <span>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"

namespace stealcheck::linearize {

/// "No candidate": the end of a candidate scan.
inline constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

/// What the search asks of an order: the operations' count; a scan of the candidates that
/// may come next (start(), then next(cursor) until none); take(i) / give_back(i) when a
/// candidate is linearized / taken back (last in, first out); fresh() right after a take:
/// false when this set of linearized operations was explored before (no memo: always true).
template <class O>
concept order = requires(O& o, const O& co, typename O::cursor& c, std::size_t i) {
  { co.size() } -> std::convertible_to<std::size_t>;
  { o.start() } -> std::same_as<typename O::cursor>;
  { o.next(c) } -> std::convertible_to<std::size_t>;
  o.take(i);
  o.give_back(i);
  { o.fresh() } -> std::convertible_to<bool>;
};

/// What the search asks of a spec for operations of type Op.
template <class S, class Op>
concept spec_of = requires(S& s, const Op& op) {
  { apply(s, op) } -> std::convertible_to<bool>;
  undo(s, op);
};

/// The depth-first search. Keep one object to reuse its stack (no allocation once warm).
template <order O>
class search {
 public:
  /// Whether ops are linearizable under `order` (built for ops) against `spec`, which must be
  /// in its initial state; the spec is back in that state afterwards unless the result is
  /// true (then it holds the state after the witness).
  template <class Op, spec_of<Op> S>
  bool run(S& spec, std::span<const Op> ops, O& order) {
    states_ = 0;
    depth_ = 0;
    deepest_.clear();
    deepest_pending_ = 0;
    const std::size_t n = order.size();
    if (n == 0) return true;
    if (stack_.size() < n) stack_.resize(n);  // one frame per depth; kept for the next run
    frame* const st = stack_.data();
    st[0] = {order.start(), none};
    std::size_t depth = 1;  // frames in use
    while (depth > 0) {
      frame& f = st[depth - 1];
      if (f.applied != none) {        // back from a child that failed: take this choice back
        if (deepest_pending_ != 0) {  // the deepest prefix so far is about to change: keep it
          deepest_.resize(deepest_pending_);
          for (std::size_t d = 0; d < deepest_pending_; ++d)
            deepest_[d] = st[d].applied;
          deepest_pending_ = 0;
        }
        order.give_back(f.applied);
        undo(spec, ops[f.applied]);
        f.applied = none;
      }
      for (std::size_t i; (i = order.next(f.at)) != none;) {
        if (!apply(spec, ops[i])) continue;
        order.take(i);
        ++states_;
        if (!order.fresh()) {  // this set of operations was explored already
          order.give_back(i);
          undo(spec, ops[i]);
          continue;
        }
        f.applied = i;
        break;
      }
      if (f.applied == none) {
        --depth;
        continue;
      }
      if (depth == n) {
        depth_ = n;
        return true;
      }
      if (depth > std::max(deepest_.size(), deepest_pending_)) deepest_pending_ = depth;
      st[depth++] = {order.start(), none};
    }
    return false;
  }

  /// After a successful run: the linearization found, as indices into ops.
  std::vector<std::size_t> witness() const {
    std::vector<std::size_t> out;
    out.reserve(depth_);
    for (std::size_t d = 0; d < depth_; ++d)
      out.push_back(stack_[d].applied);
    return out;
  }
  /// Operations applied by the last run (memo hits included).
  std::size_t states() const noexcept { return states_; }
  /// After a failed run: the longest legal prefix it reached (indices into ops, in order).
  /// Every extension of it that the order allows is rejected by the spec (dead_end()).
  const std::vector<std::size_t>& deepest() const noexcept { return deepest_; }

 private:
  struct frame {
    typename O::cursor at;
    std::size_t applied;
  };
  std::vector<frame> stack_;
  std::size_t depth_ = 0;  ///< frames of the witness (n after a success, else 0)
  std::size_t states_ = 0;
  std::vector<std::size_t> deepest_;  ///< see deepest()
  /// A longer prefix than deepest_, still on the stack (its length): copied on backtrack
  std::size_t deepest_pending_ = 0;
};

/// Where a failed search got stuck, in the spec's terms: after the longest legal prefix,
/// every operation the order lets come next has a result the spec rejects. Replays the
/// prefix on `spec` (in its initial state) and `order` (fresh), calls
/// on_rejected(spec, i) for each such operation i with the spec in the prefix's state, and
/// restores both. Returns the prefix. Complexity: one search, then O(n) steps.
template <order O, class Op, spec_of<Op> S, class F>
std::vector<std::size_t> dead_end(S& spec, std::span<const Op> ops, O& order, F&& on_rejected) {
  search<O> s;
  if (s.run(spec, ops, order)) return {};
  std::vector<std::size_t> prefix = s.deepest();  // returned: not const, so it moves
  for (const std::size_t i : prefix) {
    order.take(i);
    static_cast<void>(apply(spec, ops[i]));
  }
  auto at = order.start();
  for (std::size_t i; (i = order.next(at)) != none;) {
    if (apply(spec, ops[i])) {
      undo(spec, ops[i]);
      continue;
    }
    on_rejected(static_cast<const S&>(spec), i);
  }
  for (std::size_t k = prefix.size(); k > 0; --k) {
    undo(spec, ops[prefix[k - 1]]);
    order.give_back(prefix[k - 1]);
  }
  return prefix;
}

/// Real-time order: a before b iff a's response < b's invocation. Candidates are the
/// remaining operations invoked before the earliest response among them (every other one has
/// a remaining predecessor). Memoizes sets of linearized operations (Lowe 2017).
class real_time_order {
 public:
  struct interval {
    std::uint64_t invoke = 0;
    std::uint64_t response = 0;
  };
  /// The memo keys' generator: advances the state, returns a 64-bit key.
  using key_source = std::uint64_t (*)(std::uint64_t& state);

  /// Requires: intervals[i] is operation i's; key_source yields well-mixed keys.
  real_time_order(std::span<const interval> intervals, key_source next_key,
                  std::uint64_t seed = 0x5eed)
      : iv_(intervals.begin(), intervals.end()), n_(intervals.size()) {
    std::vector<std::size_t> by_invoke(n_);
    for (std::size_t i = 0; i < n_; ++i)
      by_invoke[i] = i;
    std::stable_sort(by_invoke.begin(), by_invoke.end(),
                     [&](std::size_t a, std::size_t b) { return iv_[a].invoke < iv_[b].invoke; });
    next_.resize(n_ + 1);  // node n_ is the sentinel: the list in invocation order
    prev_.resize(n_ + 1);
    std::size_t last = n_;
    for (const std::size_t i : by_invoke) {
      next_[last] = i;
      prev_[i] = last;
      last = i;
    }
    next_[last] = n_;
    prev_[n_] = last;
    keys_.resize(n_);
    for (auto& k : keys_)
      k = {next_key(seed), next_key(seed)};
  }

  struct cursor {
    std::size_t at;                ///< the next operation in invocation order
    std::uint64_t first_response;  ///< the earliest response among those scanned
  };
  std::size_t size() const noexcept { return n_; }
  cursor start() const noexcept { return {next_[n_], std::numeric_limits<std::uint64_t>::max()}; }
  std::size_t next(cursor& c) const noexcept {
    if (c.at == n_ || iv_[c.at].invoke > c.first_response) return none;
    const std::size_t i = c.at;
    c.first_response = std::min(c.first_response, iv_[i].response);
    c.at = next_[i];
    return i;
  }
  void take(std::size_t i) noexcept {
    next_[prev_[i]] = next_[i];
    prev_[next_[i]] = prev_[i];
    toggle(i);
  }
  void give_back(std::size_t i) noexcept {
    next_[prev_[i]] = i;
    prev_[next_[i]] = i;
    toggle(i);
  }
  bool fresh() { return seen_.insert(key_).second; }

 private:
  using key = std::pair<std::uint64_t, std::uint64_t>;
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      return static_cast<std::size_t>(k.first ^ (k.second * 0x9e3779b97f4a7c15ULL));
    }
  };
  void toggle(std::size_t i) noexcept {
    key_.first ^= keys_[i].first;
    key_.second ^= keys_[i].second;
  }

  std::vector<interval> iv_;
  std::size_t n_;
  std::vector<std::size_t> next_, prev_;
  std::vector<key> keys_;
  key key_{0, 0};
  std::unordered_set<key, key_hash> seen_;
};

/// An explicit strict partial order on at most 64 operations of at most MaxThreads threads:
/// each thread's operations in program order (the order they are listed in), plus per
/// operation a set of predecessors from other threads (require()). Candidates are each
/// thread's next operation whose predecessors are all linearized: at most one per thread.
/// Memoizes sets of linearized operations (Lowe 2017), keyed by the set itself (a 64-bit
/// mask), as real_time_order does and on the same ground: with unique values, the set
/// determines the spec state. Each set is then explored once, so the search visits at most
/// prod over threads of (operations + 1) sets: concurrent histories of every shape stay
/// cheap. Allocates the memo's table.
template <std::size_t MaxThreads>
class precedence_order {
 public:
  using mask = std::uint64_t;  ///< a set of operations
  static constexpr std::size_t max_ops = 64;

  /// Requires: n <= max_ops; thread_of(i) < MaxThreads for i < n.
  template <class ThreadOf>
  precedence_order(std::size_t n, ThreadOf&& thread_of) : n_(n) {
    std::array<std::uint8_t, MaxThreads> lane_of_thread{};
    lane_of_thread.fill(0xff);
    for (std::size_t i = 0; i < n; ++i) {
      const auto t = static_cast<std::size_t>(thread_of(i));
      if (lane_of_thread[t] == 0xff) {  // lanes in order of first appearance
        lane_of_thread[t] = static_cast<std::uint8_t>(lanes_);
        thread_[lanes_] = static_cast<std::uint8_t>(t);
        count_[lanes_++] = 0;
      }
      const std::uint8_t a = lane_of_thread[t];
      lane_of_[i] = a;
      ops_[a][count_[a]++] = static_cast<std::uint8_t>(i);
      preds_[i] = 0;
    }
    pos_.fill(0);
  }

  /// Adds `before` to operation i's predecessors.
  void require(std::size_t i, mask before) noexcept { preds_[i] |= before; }

  /// The threads with operations ("lanes"), their thread numbers and operations.
  std::size_t lanes() const noexcept { return lanes_; }
  std::size_t lane_thread(std::size_t a) const noexcept { return thread_[a]; }
  std::size_t lane_size(std::size_t a) const noexcept { return count_[a]; }
  std::size_t lane_op(std::size_t a, std::size_t k) const noexcept { return ops_[a][k]; }

  using cursor = std::size_t;  ///< the next lane to look at
  std::size_t size() const noexcept { return n_; }
  static cursor start() noexcept { return 0; }
  std::size_t next(cursor& c) const noexcept {
    while (c < lanes_) {
      const std::size_t a = c++;
      if (pos_[a] == count_[a]) continue;  // the lane is done
      const std::size_t i = ops_[a][pos_[a]];
      if ((preds_[i] & ~done_) == 0) return i;
    }
    return none;
  }
  void take(std::size_t i) noexcept {
    ++pos_[lane_of_[i]];
    done_ |= mask{1} << i;
  }
  void give_back(std::size_t i) noexcept {
    --pos_[lane_of_[i]];
    done_ &= ~(mask{1} << i);
  }
  bool fresh() { return seen_.insert(done_).second; }

 private:
  std::size_t n_;
  std::size_t lanes_ = 0;
  mask done_ = 0;
  std::unordered_set<mask> seen_;
  std::array<std::uint8_t, MaxThreads> thread_, count_, pos_;
  std::array<std::uint8_t, max_ops> lane_of_{};
  std::array<std::array<std::uint8_t, max_ops>, MaxThreads> ops_;
  std::array<mask, max_ops> preds_{};  // entries below n_ are set again by the constructor
};

/// The units minimize() removes, for operations with deques/spec.hpp's fields (kind,
/// has_value, value, batch): a push with every operation that took its value, closed under
/// batches that took several values; or one operation that took nothing. Last unit first.
template <class Op>
std::vector<std::vector<std::size_t>> units(std::span<const Op> ops) {
  using V = std::remove_cvref_t<decltype(ops[0].value)>;
  const auto holds = [](const Op& op) { return op.kind == spec::op_kind::push || op.has_value; };
  std::vector<std::vector<std::size_t>> out;
  std::vector<bool> used(ops.size(), false);
  for (std::size_t r = ops.size(); r > 0; --r) {
    const std::size_t root = r - 1;
    if (used[root]) continue;
    std::set<V> values;
    if (holds(ops[root])) values.insert(ops[root].value);
    values.insert(ops[root].batch.begin(), ops[root].batch.end());
    std::vector<std::size_t> unit;
    for (bool grew = true; grew;) {  // closure over values shared through batches
      grew = false;
      for (std::size_t j = 0; j < ops.size(); ++j) {
        if (used[j]) continue;
        bool touches = holds(ops[j]) && values.count(ops[j].value) > 0;
        for (const V& v : ops[j].batch)
          touches = touches || values.count(v) > 0;
        if (!touches && j != root) continue;
        used[j] = true;
        unit.push_back(j);
        for (const V& v : ops[j].batch)
          grew = values.insert(v).second || grew;
        if (holds(ops[j])) grew = values.insert(ops[j].value).second || grew;
      }
    }
    out.push_back(std::move(unit));
  }
  return out;
}

/// A smallest-found failing subset of ops: greedy removal of units(ops), keeping a removal
/// only when still_fails(kept) holds for the rest. still_fails receives the kept indices in
/// increasing order. Returns the kept indices. Requires: still_fails(all indices).
template <class Op, class StillFails>
std::vector<std::size_t> minimize(std::span<const Op> ops, StillFails&& still_fails) {
  std::vector<bool> keep(ops.size(), true);
  std::vector<std::size_t> kept;
  const auto collect = [&] {
    kept.clear();
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (keep[i]) kept.push_back(i);
    return std::span<const std::size_t>(kept);
  };
  for (const auto& unit : units(ops)) {
    for (const std::size_t i : unit)
      keep[i] = false;
    if (!still_fails(collect()))
      for (const std::size_t i : unit)
        keep[i] = true;  // needed for the failure
  }
  collect();
  return kept;
}

/// The operations of ops at `kept`, in that order.
template <class Op>
std::vector<Op> subset(std::span<const Op> ops, std::span<const std::size_t> kept) {
  std::vector<Op> out;
  out.reserve(kept.size());
  for (const std::size_t i : kept)
    out.push_back(ops[i]);
  return out;
}

}  // namespace stealcheck::linearize
// SPDX-License-Identifier: Apache-2.0
