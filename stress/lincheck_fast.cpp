// stress/lincheck_fast.cpp: the direct decision of stress/lincheck_fast.hpp (see there for the
// argument each step relies on).
#include "stealcheck/detail/stress/lincheck_fast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include "stealcheck/detail/harness/verdict.hpp"

namespace stealcheck::stress::lincheck {
namespace {

constexpr std::size_t no_op = std::numeric_limits<std::size_t>::max();
constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

enum class role : std::uint8_t { push, pop_value, pop_empty, steal_value, steal_empty, abort };

// Why an operation must follow another (the precedence edges of the file comment).
enum class edge : std::uint8_t { push_of_value, pop_of_older, steal_of_older, steal_of_stack };

constexpr const char* edge_text(edge e) noexcept {
  switch (e) {
    case edge::push_of_value:
      return "the push of its value";
    case edge::pop_of_older:
      return "the owner's pop of an older value";
    case edge::steal_of_older:
      return "the steal of an older value";
    case edge::steal_of_stack:
      return "the steal of a value the owner pushed before";
  }
  return "?";
}

struct pred {
  std::uint32_t op;  // histories of 2^32 operations and more are left undecided
  edge why;
};

// An operation's predecessors: at most three (a steal's push, older pop and older steal).
class pred_set {
 public:
  void push_back(std::size_t op, edge why) noexcept {
    at_[size_++] = {static_cast<std::uint32_t>(op), why};
  }
  std::size_t size() const noexcept { return size_; }
  const pred* begin() const noexcept { return at_.data(); }
  const pred* end() const noexcept { return at_.data() + size_; }

 private:
  std::array<pred, 3> at_{};
  std::uint8_t size_ = 0;
};

class decider {
 public:
  // One decider per thread keeps its buffers from one history to the next: a history of 10^5
  // operations needs some 20 MB of them, which fresh pages would make cost more than the work.
  fast_result run(const history& h) {
    if (h.size() >= std::numeric_limits<std::uint32_t>::max()) {
      r_ = {};
      r_.reason = "more than 2^32 operations";
      return std::move(r_);
    }
    h_ = &h;
    n_ = h.size();
    r_ = {};
    owner_ops_.clear();
    if (!classify() || !match_values() || !owner_view() || !value_order() || !schedule() ||
        !place_empty_steals())
      return std::move(r_);
    witness();
    return std::move(r_);
  }

 private:
  std::string at(std::size_t i) const {
    return fmt::format("{} [{}..{}]", describe((*h_)[i]), (*h_)[i].invoke, (*h_)[i].response);
  }
  bool undecided(std::string why) {
    r_.verdict = fast_verdict::undecided;
    r_.reason = std::move(why);
    return false;
  }
  bool refuted(std::string why, std::vector<std::size_t> core) {
    r_.verdict = fast_verdict::not_linearizable;
    r_.reason = std::move(why);
    std::sort(core.begin(), core.end());
    core.erase(std::unique(core.begin(), core.end()), core.end());
    core.erase(std::remove(core.begin(), core.end(), no_op), core.end());
    r_.core = std::move(core);
    return false;
  }

  // Each operation's role; the owner thread (the one that pushes and pops) and its operations
  // in order; what the direct decision does not cover is undecided.
  bool classify() {
    role_.resize(n_);
    std::uint32_t owner = 0;
    bool owner_known = false;
    for (std::size_t i = 0; i < n_; ++i) {
      const operation& op = (*h_)[i];
      const bool owner_op = op.kind == op_kind::push || op.kind == op_kind::pop;
      if (owner_op) {
        if (owner_known && op.thread != owner) return undecided("pushes or pops on two threads");
        owner = op.thread;
        owner_known = true;
      }
      switch (op.kind) {
        case op_kind::push:
          role_[i] = role::push;
          break;
        case op_kind::pop:
          role_[i] = op.has_value ? role::pop_value : role::pop_empty;
          break;
        case op_kind::steal:
        case op_kind::steal_batch:
          if (op.status == steal_status::abort) {
            role_[i] = role::abort;
          } else if (op.status == steal_status::empty) {
            role_[i] = role::steal_empty;
          } else if (op.kind == op_kind::steal_batch) {
            return undecided("a batch steal took values");
          } else {
            if (!op.has_value) return undecided("a steal took an item without a value");
            role_[i] = role::steal_value;
          }
          break;
      }
    }
    for (std::size_t i = 0; i < n_; ++i) {
      const bool owner_role =
          role_[i] == role::push || role_[i] == role::pop_value || role_[i] == role::pop_empty;
      if (owner_known && !owner_role && role_[i] != role::abort && (*h_)[i].thread == owner)
        return undecided("the owner thread steals");
      if (owner_role) owner_ops_.push_back(i);
    }
    std::stable_sort(owner_ops_.begin(), owner_ops_.end(), [&](std::size_t a, std::size_t b) {
      return (*h_)[a].invoke < (*h_)[b].invoke;
    });
    position_.assign(n_, no_op);
    for (std::size_t k = 0; k < owner_ops_.size(); ++k) {
      position_[owner_ops_[k]] = k;
      if (k > 0 && !((*h_)[owner_ops_[k - 1]].response < (*h_)[owner_ops_[k]].invoke))
        return undecided("two owner operations overlap");
    }
    return true;
  }

  // Each value's push and its taker: a second taker, a taker of a value never pushed, or one
  // that returns before the push is invoked refutes.
  bool match_values() {
    auto& pushes = pushes_;  // (value, push), by value
    pushes.clear();
    for (std::size_t i = 0; i < n_; ++i)
      if (role_[i] == role::push) pushes.emplace_back((*h_)[i].value, i);
    std::sort(pushes.begin(), pushes.end());
    for (std::size_t k = 1; k < pushes.size(); ++k)
      if (pushes[k].first == pushes[k - 1].first) return undecided("a value is pushed twice");
    taker_.assign(n_, no_op);    // by push: the operation that took its value
    push_of_.assign(n_, no_op);  // by taker: the push of its value
    for (std::size_t i = 0; i < n_; ++i) {
      if (role_[i] != role::pop_value && role_[i] != role::steal_value) continue;
      const std::uint64_t v = (*h_)[i].value;
      const auto p = std::lower_bound(pushes.begin(), pushes.end(),
                                      std::pair<std::uint64_t, std::size_t>{v, 0});
      if (p == pushes.end() || p->first != v)
        return refuted(harness::value_fault_text(failure_kind::value_invented, v,
                                                 fmt::format("taken by {}", at(i))),
                       {i});
      const std::size_t push = p->second;
      if (taker_[push] != no_op)
        return refuted(harness::value_fault_text(failure_kind::value_taken_twice, v,
                                                 fmt::format("{} and {}", at(taker_[push]), at(i))),
                       {push, taker_[push], i});
      if ((*h_)[i].response < (*h_)[push].invoke)
        return refuted(fmt::format("{} returned before {} was invoked", at(i), at(push)),
                       {push, i});
      taker_[push] = i;
      push_of_[i] = push;
    }
    return true;
  }
  bool stolen(std::size_t push) const {
    return taker_[push] != no_op && role_[taker_[push]] == role::steal_value;
  }
  std::size_t push_of(std::size_t taker) const { return push_of_[taker]; }

  // The owner's stack S decides every owner pop; records each gap's S (only stolen values?
  // the steal of its newest) for the empty steals.
  bool owner_view() {
    const std::size_t m = owner_ops_.size();
    preds_.assign(n_, {});
    emptiable_.assign(m + 1, true);
    top_steal_.assign(m + 1, no_op);
    std::vector<std::size_t> stack;  // pushes, oldest first
    std::size_t unstolen = 0;        // values in S that no thief steals
    std::size_t last_clear = no_op;  // the latest owner pop -> empty
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t i = owner_ops_[k];
      if (role_[i] == role::push) {
        stack.push_back(i);
        if (!stolen(i)) ++unstolen;
      } else if (role_[i] == role::pop_value) {
        const std::size_t push = push_of(i);
        if (stack.empty() || stack.back() != push) {
          if (!stack.empty() && position_[stack.back()] > position_[push]) {
            const std::size_t newer = stack.back();
            const std::string taken =
                taker_[newer] == no_op ? "never taken" : "taken by " + at(taker_[newer]);
            return refuted(fmt::format("{} is not the newest value: {} came after {} and its "
                                       "value is {}",
                                       at(i), at(newer), at(push), taken),
                           {push, newer, taker_[newer], i});
          }
          if (last_clear == no_op) return undecided("an owner pop without its value in S");
          return refuted(fmt::format("{} came after {}, which followed {}: the deque was "
                                     "empty then",
                                     at(i), at(last_clear), at(push)),
                         {push, last_clear, i});
        }
        stack.pop_back();
        --unstolen;
      } else {  // pop -> empty
        if (unstolen > 0) {
          std::size_t u = no_op;
          for (std::size_t s = stack.size(); s > 0 && u == no_op; --s)
            if (!stolen(stack[s - 1])) u = stack[s - 1];
          const std::string taken =
              taker_[u] == no_op ? "never taken" : "taken only by " + at(taker_[u]);
          return refuted(fmt::format("{} while value {} was present ({}, {})", at(i),
                                     (*h_)[u].value, at(u), taken),
                         {u, i, taker_[u]});
        }
        if (!stack.empty()) preds_[i].push_back(taker_[stack.back()], edge::steal_of_stack);
        stack.clear();
        last_clear = i;
      }
      emptiable_[k + 1] = unstolen == 0;
      top_steal_[k + 1] = stack.empty() ? no_op : taker_[stack.back()];
    }
    return true;
  }

  // Steals in push order, each after its push and after the pop of every older popped value;
  // a value never taken refutes every steal of a younger one.
  bool value_order() {
    std::size_t last_pop = no_op;    // the pop of an older value latest in the owner's order
    std::size_t leftover = no_op;    // the oldest push whose value is never taken
    std::size_t prev_steal = no_op;  // the steal of the newest older stolen value
    for (const std::size_t i : owner_ops_) {
      if (role_[i] != role::push) continue;
      const std::size_t t = taker_[i];
      if (t == no_op) {
        if (leftover == no_op) leftover = i;
      } else if (role_[t] == role::pop_value) {
        if (last_pop == no_op || position_[t] > position_[last_pop]) last_pop = t;
      } else {
        if (leftover != no_op)
          return refuted(fmt::format("{} took value {} while the older value {} ({}) was never "
                                     "taken: a steal takes the oldest value present",
                                     at(t), (*h_)[t].value, (*h_)[leftover].value, at(leftover)),
                         {leftover, i, t});
        preds_[t].push_back(i, edge::push_of_value);
        if (last_pop != no_op) preds_[t].push_back(last_pop, edge::pop_of_older);
        if (prev_steal != no_op) preds_[t].push_back(prev_steal, edge::steal_of_older);
        prev_steal = t;
      }
    }
    return true;
  }

  bool in_dag(std::size_t i) const {
    return role_[i] != role::steal_empty && role_[i] != role::abort;
  }

  // est() forward over the precedence edges in a topological order, lst() backward; an
  // operation whose earliest point is past its response refutes, with the chain that forced it.
  bool schedule() {
    auto& indegree = scratch_;
    indegree.assign(n_, 0);
    auto& first_succ = first_succ_;
    first_succ.assign(n_ + 1, 0);
    for (std::size_t i = 0; i < n_; ++i)
      for (const pred& p : preds_[i])
        ++first_succ[p.op + 1];
    for (std::size_t i = 0; i < n_; ++i)
      first_succ[i + 1] += first_succ[i];
    auto& succ = succ_;
    succ.assign(first_succ[n_], 0);
    auto& fill = scratch2_;
    fill.assign(first_succ.begin(), first_succ.end() - 1);
    for (std::size_t i = 0; i < n_; ++i) {
      indegree[i] = preds_[i].size();
      for (const pred& p : preds_[i])
        succ[fill[p.op]++] = i;
    }
    topo_.clear();
    for (std::size_t i = 0; i < n_; ++i)
      if (in_dag(i) && indegree[i] == 0) topo_.push_back(i);
    for (std::size_t q = 0; q < topo_.size(); ++q) {
      const std::size_t a = topo_[q];
      for (std::size_t s = first_succ[a]; s < first_succ[a + 1]; ++s)
        if (--indegree[succ[s]] == 0) topo_.push_back(succ[s]);
    }
    std::size_t dag = 0;
    for (std::size_t i = 0; i < n_; ++i)
      dag += in_dag(i) ? 1 : 0;
    if (topo_.size() != dag) return undecided("the precedence edges form a cycle");
    est_.assign(n_, 0);
    lst_.assign(n_, never);
    rank_.assign(n_, 0);
    level_.assign(n_, 0);
    auto& forced_by = scratch2_;
    forced_by.assign(n_, no_op);
    for (std::size_t q = 0; q < topo_.size(); ++q) {
      const std::size_t x = topo_[q];
      rank_[x] = static_cast<double>(q);
      est_[x] = (*h_)[x].invoke;
      for (const pred& p : preds_[x]) {
        if (est_[p.op] <= est_[x]) continue;
        est_[x] = est_[p.op];
        forced_by[x] = p.op;
      }
      if (est_[x] <= (*h_)[x].response) continue;
      const std::size_t y = forced_by[x];
      edge why = edge::push_of_value;
      for (const pred& p : preds_[x])
        if (p.op == y) why = p.why;
      std::vector<std::size_t> core;
      for (std::size_t c = x; c != no_op; c = forced_by[c]) {
        core.push_back(c);
        const bool takes = role_[c] == role::pop_value || role_[c] == role::steal_value;
        const std::size_t push = takes ? push_of(c) : role_[c] == role::push ? c : no_op;
        if (push != no_op) core.insert(core.end(), {push, taker_[push]});
      }
      return refuted(fmt::format("{} must come after {} ({}), which cannot take effect before "
                                 "stamp {}, past the response",
                                 at(x), at(y), edge_text(why), est_[y]),
                     std::move(core));
    }
    for (std::size_t q = topo_.size(); q > 0; --q) {
      const std::size_t x = topo_[q - 1];
      lst_[x] = std::min(lst_[x], (*h_)[x].response);
      for (const pred& p : preds_[x])
        lst_[p.op] = std::min(lst_[p.op], lst_[x]);
    }
    return true;
  }

  // The key that orders operations at one point: (point, level, rank). Precedence edges keep
  // level and raise rank; an empty steal placed between two operations at one point lifts the
  // later one (and what must follow it there) a level up.
  struct key {
    std::uint64_t point = 0;
    std::uint32_t level = 0;
    double rank = 0;
    friend bool operator<(const key& a, const key& b) {
      if (a.point != b.point) return a.point < b.point;
      return a.level != b.level ? a.level < b.level : a.rank < b.rank;
    }
  };
  key key_of(std::size_t i) const { return {est_[i], level_[i], rank_[i]}; }

  // Raises x to at least `at` and its successors after it; false when one is pushed past its
  // response.
  bool raise(std::size_t x, key at) {
    std::vector<std::size_t> work;
    const auto lift = [&](std::size_t y, key k) {
      if (!(key_of(y) < k)) return true;
      if (est_[y] < k.point) {
        est_[y] = k.point;
        level_[y] = k.level;
      } else {
        level_[y] = std::max(level_[y], k.level);
      }
      work.push_back(y);
      return est_[y] <= (*h_)[y].response;
    };
    if (!lift(x, at)) return false;
    while (!work.empty()) {
      const std::size_t y = work.back();
      work.pop_back();
      for (std::size_t s = first_succ_[y]; s < first_succ_[y + 1]; ++s) {
        const std::size_t z = succ_[s];  // after y: at y's point, on y's level, a higher rank
        if (!lift(z, {est_[y], level_[y], rank_[z]})) return false;
      }
    }
    return true;
  }

  // Where empty steal e goes in gap g: after the owner's g-th operation and the steal of S's
  // newest value, at its invocation or later.
  key empty_key(std::size_t e, std::size_t g) const {
    key k{(*h_)[e].invoke, 0, -0.5};
    for (const std::size_t b : {g > 0 ? owner_ops_[g - 1] : no_op, top_steal_[g]}) {
      if (b == no_op) continue;
      const key kb = key_of(b);
      if (k < kb) k = {kb.point, kb.level, kb.rank + 0.5};
    }
    return k;
  }

  // Each empty steal, in invocation order, at the first gap of the owner's order within its
  // interval where S holds only stolen values and the schedule leaves a point after the last
  // of them is stolen: first without moving the next owner operation, else moving it later.
  bool place_empty_steals() {
    const std::size_t m = owner_ops_.size();
    std::vector<std::uint64_t> owner_invoke(m), owner_response(m);
    for (std::size_t k = 0; k < m; ++k) {
      owner_invoke[k] = (*h_)[owner_ops_[k]].invoke;
      owner_response[k] = (*h_)[owner_ops_[k]].response;
    }
    std::vector<std::size_t> empties;
    for (std::size_t e = 0; e < n_; ++e)
      if (role_[e] == role::steal_empty) empties.push_back(e);
    std::stable_sort(empties.begin(), empties.end(), [&](std::size_t a, std::size_t b) {
      return (*h_)[a].invoke < (*h_)[b].invoke;
    });
    gap_.assign(n_, no_op);
    for (const std::size_t e : empties) {
      const operation& op = (*h_)[e];
      // gaps g (after the owner's first g operations) that real time allows
      const auto lo = static_cast<std::size_t>(
          std::lower_bound(owner_response.begin(), owner_response.end(), op.invoke) -
          owner_response.begin());
      const auto hi = static_cast<std::size_t>(
          std::upper_bound(owner_invoke.begin(), owner_invoke.end(), op.response) -
          owner_invoke.begin());
      std::size_t later = no_op;  // the first gap that fits when its next operation moves
      for (std::size_t g = lo; g <= hi && gap_[e] == no_op; ++g) {
        if (!emptiable_[g]) continue;
        const key k = empty_key(e, g);
        const std::size_t next = g < m ? owner_ops_[g] : no_op;
        if (k.point > op.response) continue;
        if (next == no_op || k < key_of(next)) {
          gap_[e] = g;
        } else if (later == no_op && k.point <= lst_[next]) {
          later = g;
        }
      }
      if (gap_[e] != no_op) continue;
      if (later == no_op)
        return refuted(fmt::format("{}: the deque holds a value at every point of it that the "
                                   "owner's operations and the steals allow",
                                   at(e)),
                       {e});
      const key k = empty_key(e, later);
      if (!raise(owner_ops_[later], {k.point, k.level + 1, rank_[owner_ops_[later]]}))
        return undecided(
            fmt::format("{} fits only a schedule that moves another operation "
                        "past its response",
                        at(e)));
      gap_[e] = later;
    }
    point_.assign(n_, {});
    for (const std::size_t e : empties) {  // the final schedule: each still fits its gap
      const std::size_t g = gap_[e];
      point_[e] = empty_key(e, g);
      const bool fits =
          point_[e].point <= (*h_)[e].response && (g == m || point_[e] < key_of(owner_ops_[g]));
      if (!fits) return undecided(fmt::format("{} lost its place in the schedule", at(e)));
    }
    return true;
  }

  // Every operation at its point, ties broken by the precedence edges; replayed on the
  // sequential deque and checked against real time before it is reported.
  void witness() {
    std::vector<placed>& keys = keys_;
    keys.clear();
    keys.reserve(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      switch (role_[i]) {
        case role::abort:  // changes nothing: any point of its interval will do
          keys.push_back({{(*h_)[i].invoke, 0, -1.0}, i});
          break;
        case role::steal_empty:
          keys.push_back({point_[i], i});
          break;
        default:
          keys.push_back({key_of(i), i});
      }
    }
    std::sort(keys.begin(), keys.end(), [](const placed& a, const placed& b) { return a.k < b.k; });
    std::vector<std::size_t> order;
    order.reserve(n_);
    for (const placed& p : keys)
      order.push_back(p.op);
    std::uint64_t earliest_response = never;  // among the operations after position q
    for (std::size_t q = n_; q > 0; --q) {
      const operation& op = (*h_)[order[q - 1]];
      if (earliest_response < op.invoke) {
        undecided("the schedule's order breaks real time");
        return;
      }
      earliest_response = std::min(earliest_response, op.response);
    }
    spec::sequential_deque<std::uint64_t> spec(spec::spec_kind::lifo_owner);
    for (const std::size_t i : order) {
      if (!apply(spec, static_cast<const spec::operation<std::uint64_t>&>((*h_)[i]))) {
        undecided(fmt::format("the schedule's order is not legal at {}", at(i)));
        return;
      }
    }
    r_.verdict = fast_verdict::linearizable;
    r_.order = std::move(order);
  }

  const history* h_ = nullptr;
  std::size_t n_ = 0;
  fast_result r_;
  std::vector<role> role_;
  std::vector<std::pair<std::uint64_t, std::size_t>> pushes_;
  std::vector<std::size_t> scratch_, scratch2_;
  struct placed {
    key k;
    std::size_t op;
  };
  std::vector<placed> keys_;
  std::vector<std::size_t> owner_ops_, position_;  // owner operations in order; op -> its index
  std::vector<std::size_t> push_of_;               // taker -> the push of its value
  std::vector<std::size_t> taker_;                 // push -> the op that took its value
  std::vector<pred_set> preds_;
  std::vector<bool> emptiable_;                        // per gap: S holds only stolen values
  std::vector<std::size_t> top_steal_;                 // per gap: the steal of S's newest value
  std::vector<std::size_t> topo_, first_succ_, succ_;  // the edges forward, by operation
  std::vector<double> rank_;                           // position in topo_
  std::vector<std::uint32_t> level_;
  std::vector<std::uint64_t> est_, lst_;
  std::vector<std::size_t> gap_;  // an empty steal's gap of the owner's order
  std::vector<key> point_;        // an empty steal's place
};

}  // namespace

fast_result fast_check(const history& h, spec::spec_kind kind) {
  if (kind != spec::spec_kind::lifo_owner) {
    fast_result r;
    r.reason = fmt::format("no direct decision for spec {}", spec::spec_name(kind));
    return r;
  }
  thread_local decider d;
  return d.run(h);
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
