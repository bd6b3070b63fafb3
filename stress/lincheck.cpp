#include "stress/lincheck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>

#include "deques/spec.hpp"
#include "harness/random.hpp"

namespace stealcheck::stress::lincheck {
namespace {

struct key_hash {
  std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
    return static_cast<std::size_t>(k.first ^ (k.second * splitmix64_gamma));
  }
};

// The Wing-Gong search state: the not-yet-linearized operations as a doubly linked list in
// invocation order (removal and LIFO re-insertion in O(1)), the spec, the memo.
class search {
 public:
  explicit search(const history& h) : h_(h), n_(static_cast<int>(h.size())) {
    by_invoke_.resize(h.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      by_invoke_[i] = i;
    std::stable_sort(by_invoke_.begin(), by_invoke_.end(),
                     [&](std::size_t a, std::size_t b) { return h[a].invoke < h[b].invoke; });
    next_.resize(h.size() + 1);
    prev_.resize(h.size() + 1);
    for (int p = 0; p <= n_; ++p) {  // position n_ is the sentinel
      next_[static_cast<std::size_t>(p)] = p == n_ ? 0 : p + 1;
      prev_[static_cast<std::size_t>(p)] = p == 0 ? n_ : p - 1;
    }
    if (n_ == 0) next_[0] = 0;
    std::uint64_t seed = 0x5eed;
    z1_.resize(h.size());
    z2_.resize(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      z1_[i] = splitmix64_next(seed);
      z2_[i] = splitmix64_next(seed);
    }
  }

  check_result run();

 private:
  struct frame {
    std::vector<int> candidates;  // list positions that may be linearized next
    std::size_t next = 0;
    int applied = -1;
  };
  int first() const { return next_[static_cast<std::size_t>(n_)]; }
  std::vector<int> candidates() const {
    std::vector<int> out;
    std::uint64_t min_response = std::numeric_limits<std::uint64_t>::max();
    for (int p = first(); p != n_; p = next_[static_cast<std::size_t>(p)]) {
      const operation& op = h_[by_invoke_[static_cast<std::size_t>(p)]];
      if (op.invoke > min_response) break;  // responded-before ops must come first
      out.push_back(p);
      min_response = std::min(min_response, op.response);
    }
    return out;
  }
  void unlink(int p) {
    const auto u = static_cast<std::size_t>(p);
    next_[static_cast<std::size_t>(prev_[u])] = next_[u];
    prev_[static_cast<std::size_t>(next_[u])] = prev_[u];
    toggle(p);
  }
  void relink(int p) {
    const auto u = static_cast<std::size_t>(p);
    next_[static_cast<std::size_t>(prev_[u])] = p;
    prev_[static_cast<std::size_t>(next_[u])] = p;
    toggle(p);
  }
  void toggle(int p) {
    const std::size_t i = by_invoke_[static_cast<std::size_t>(p)];
    key_.first ^= z1_[i];
    key_.second ^= z2_[i];
  }
  bool try_next(frame& f);

  const history& h_;
  int n_;
  std::vector<std::size_t> by_invoke_;
  std::vector<int> next_, prev_;
  std::vector<std::uint64_t> z1_, z2_;
  std::pair<std::uint64_t, std::uint64_t> key_{0, 0};
  std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, key_hash> seen_;
  spec::sequential_deque<std::uint64_t> spec_;
  std::vector<std::size_t> order_;
  std::size_t states_ = 0;
};

// Tries f's remaining candidates; on success the candidate is linearized and recorded.
bool search::try_next(frame& f) {
  while (f.next < f.candidates.size()) {
    const int p = f.candidates[f.next++];
    const operation& op = h_[by_invoke_[static_cast<std::size_t>(p)]];
    if (!apply(spec_, op)) continue;
    unlink(p);
    ++states_;
    if (!seen_.insert(key_).second) {  // this set of operations was already explored
      relink(p);
      undo(spec_, op);
      continue;
    }
    f.applied = p;
    order_.push_back(by_invoke_[static_cast<std::size_t>(p)]);
    return true;
  }
  return false;
}

check_result search::run() {
  check_result r;
  if (n_ == 0) {
    r.linearizable = true;
    return r;
  }
  std::vector<frame> stack;
  stack.push_back({candidates(), 0, -1});
  while (!stack.empty()) {
    frame& f = stack.back();
    if (f.applied >= 0) {  // back from a child that failed: take this choice back
      relink(f.applied);
      undo(spec_, h_[by_invoke_[static_cast<std::size_t>(f.applied)]]);
      order_.pop_back();
      f.applied = -1;
    }
    if (!try_next(f)) {
      stack.pop_back();
      continue;
    }
    if (first() == n_) {  // everything linearized
      r.linearizable = true;
      r.order = order_;
      break;
    }
    stack.push_back({candidates(), 0, -1});
  }
  r.states_explored = states_;
  return r;
}

// The units minimize() removes: a push with every operation that took its value (closed
// under batches that took several values), or one operation that took nothing.
std::vector<std::vector<std::size_t>> units(const history& h) {
  std::vector<std::vector<std::size_t>> out;
  std::vector<bool> used(h.size(), false);
  for (std::size_t i = h.size(); i > 0; --i) {
    const std::size_t root = i - 1;
    if (used[root]) continue;
    std::set<std::uint64_t> values;
    if (h[root].kind == op_kind::push || h[root].has_value) values.insert(h[root].value);
    for (std::uint64_t v : h[root].batch)
      values.insert(v);
    std::vector<std::size_t> unit;
    for (bool grew = true; grew;) {  // closure over values shared through batches
      grew = false;
      for (std::size_t j = 0; j < h.size(); ++j) {
        if (used[j]) continue;
        bool touches = (h[j].kind == op_kind::push || h[j].has_value) && values.count(h[j].value);
        for (std::uint64_t v : h[j].batch)
          touches = touches || values.count(v) > 0;
        if (!touches && j != root) continue;
        used[j] = true;
        unit.push_back(j);
        for (std::uint64_t v : h[j].batch)
          grew = values.insert(v).second || grew;
        if (h[j].kind == op_kind::push || h[j].has_value)
          grew = values.insert(h[j].value).second || grew;
      }
    }
    out.push_back(std::move(unit));
  }
  return out;
}

}  // namespace

check_result check(const history& h) {
  return search(h).run();
}

history minimize(const history& h) {
  constexpr std::size_t max_ops = 5000;  // beyond this, greedy removal costs too much
  if (h.size() > max_ops) return h;
  std::vector<bool> keep(h.size(), true);
  for (const auto& unit : units(h)) {
    for (std::size_t i : unit)
      keep[i] = false;
    history rest;
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (keep[i]) rest.push_back(h[i]);
    }
    if (check(rest).linearizable) {
      for (std::size_t i : unit)
        keep[i] = true;  // needed for the failure
    }
  }
  history out;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (keep[i]) out.push_back(h[i]);
  }
  return out;
}

std::string describe(const operation& op) {
  const std::string who = op.thread == 0 ? "owner" : fmt::format("thief {}", op.thread);
  switch (op.kind) {
    case op_kind::push:
      return fmt::format("{}: push({})", who, op.value);
    case op_kind::pop:
      return op.has_value ? fmt::format("{}: pop -> {}", who, op.value) : who + ": pop -> empty";
    case op_kind::steal:
      return op.has_value ? fmt::format("{}: steal -> {}", who, op.value)
                          : fmt::format("{}: steal -> {}", who, status_name(op.status));
    case op_kind::steal_batch:
      return op.status == steal_status::item
                 ? fmt::format("{}: steal_batch -> [{}]", who, fmt::join(op.batch, ","))
                 : fmt::format("{}: steal_batch -> {}", who, status_name(op.status));
  }
  return who;
}

}  // namespace stealcheck::stress::lincheck
