// oracle/enumerate.cpp: the brute-force enumerator (see enumerate.hpp).
#include "stealcheck/detail/oracle/enumerate.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace stealcheck::oracle {
namespace {

constexpr std::size_t max_events = 64;
constexpr std::size_t max_domain = 64;
constexpr std::uint64_t max_traces = 10'000'000;
constexpr std::uint64_t max_candidates = 10'000'000;

using domain = std::vector<std::set<value_t>>;  // per location

/// Every trace of thread t when each read returns any value of its location's domain.
void traces_of(const program& p, std::size_t t, const domain& d, std::vector<value_t>& values,
               std::vector<trace>& out) {
  thread_run r = p.run(t, values);
  if (r.pending_loc < 0) {
    if (out.size() >= max_traces) throw limit_error("too many traces");
    for (event& e : r.events)
      e.thread = static_cast<int>(t);
    out.push_back({std::move(r.events), values});
    return;
  }
  for (const value_t v : d[static_cast<std::size_t>(r.pending_loc)]) {
    values.push_back(v);
    traces_of(p, t, d, values, out);
    values.pop_back();
  }
}

/// Grows the value domain and returns every thread's traces under it. A value written in an
/// execution depends on values read before it, through a chain of sb ∪ rf edges (acyclic), so
/// its derivation depth is at most the number of events of an execution: that many rounds of
/// growth give every value any execution can produce (values past it cannot occur).
std::vector<std::vector<trace>> all_traces(const program& p) {
  domain d(p.init.size());
  for (std::size_t l = 0; l < p.init.size(); ++l)
    d[l].insert(p.init[l]);
  std::size_t depth_bound = max_events;
  for (std::size_t round = 0;; ++round) {
    std::vector<std::vector<trace>> per_thread(p.threads);
    bool grew = false;
    std::size_t events = 0;
    domain next = d;
    for (std::size_t t = 0; t < p.threads; ++t) {
      std::vector<value_t> values;
      traces_of(p, t, d, values, per_thread[t]);
      std::size_t longest = 0;
      for (const trace& tr : per_thread[t]) {
        longest = std::max(longest, tr.events.size());
        for (const event& e : tr.events)
          if (e.w) grew = next[static_cast<std::size_t>(e.loc)].insert(e.wval).second || grew;
      }
      events += longest;
    }
    depth_bound = std::min(depth_bound, events);
    if (!grew || round >= depth_bound) return per_thread;
    d = std::move(next);
    for (const auto& s : d)
      if (s.size() > max_domain)
        throw limit_error("a location takes more than " + std::to_string(max_domain) + " values");
  }
}

/// Enumerates rf and mo for one combination of traces and hands on the consistent ones.
class candidates {
 public:
  candidates(const program& p, const std::function<bool(const execution&)>& consistent,
             const std::function<void(const candidate&)>& f)
      : p_(p), consistent_(consistent), f_(f) {}

  void run(const std::vector<const trace*>& combo) {
    combo_ = &combo;
    x_.ev.clear();
    for (std::size_t l = 0; l < p_.init.size(); ++l) {
      event init;
      init.loc = static_cast<int>(l);
      init.w = true;
      init.wval = p_.init[l];
      x_.ev.push_back(init);
    }
    for (const trace* tr : combo)
      x_.ev.insert(x_.ev.end(), tr->events.begin(), tr->events.end());
    if (x_.ev.size() > max_events) throw limit_error("more than 64 events");
    for (std::size_t r = 0; r < x_.ev.size(); ++r)  // most combinations: a value nobody writes
      if (x_.ev[r].r && !has_writer(r)) return;
    x_.rf.assign(x_.ev.size(), -1);
    sb_ = relation();  // computed once an rf choice is complete
    choose_rf(0);
  }

 private:
  const program& p_;
  const std::function<bool(const execution&)>& consistent_;
  const std::function<void(const candidate&)>& f_;
  std::uint64_t count_ = 0;
  const std::vector<const trace*>* combo_ = nullptr;
  execution x_;
  relation sb_;

  bool may_read(std::size_t r, std::size_t w) const {
    const event& e = x_.ev[w];
    return w != r && e.w && e.loc == x_.ev[r].loc && e.wval == x_.ev[r].rval;
  }
  bool has_writer(std::size_t r) const {
    for (std::size_t w = 0; w < x_.ev.size(); ++w)
      if (may_read(r, w)) return true;
    return false;
  }

  void choose_rf(std::size_t i) {
    while (i < x_.ev.size() && !x_.ev[i].r)
      ++i;
    if (i == x_.ev.size()) {
      if (sb_.size() != x_.ev.size()) sb_ = program_order(x_.ev);
      if (!sb_rf_acyclic(x_, sb_)) return;
      x_.mo.assign(p_.init.size(), {});
      for (std::size_t w = 0; w < x_.ev.size(); ++w)
        if (x_.ev[w].w)
          x_.mo[static_cast<std::size_t>(x_.ev[w].loc)].push_back(static_cast<int>(w));
      choose_mo(0);
      return;
    }
    for (std::size_t w = 0; w < x_.ev.size(); ++w) {
      if (!may_read(i, w)) continue;
      x_.rf[i] = static_cast<int>(w);
      choose_rf(i + 1);
    }
    x_.rf[i] = -1;
  }

  void choose_mo(std::size_t loc) {
    if (loc == x_.mo.size()) return check();
    std::vector<int>& order = x_.mo[loc];  // order[0] is the initial write, always first
    std::sort(order.begin() + 1, order.end());
    do
      choose_mo(loc + 1);
    while (std::next_permutation(order.begin() + 1, order.end()));
  }

  void check() {
    if (++count_ > max_candidates) throw limit_error("more than 10^7 candidate executions");
    if (consistent_(x_)) f_(candidate{x_, *combo_});
  }
};

void for_each_combination(const std::vector<std::vector<trace>>& per_thread,
                          std::vector<const trace*>& combo, candidates& c) {
  const std::size_t t = combo.size();
  if (t == per_thread.size()) return c.run(combo);
  for (const trace& tr : per_thread[t]) {
    combo.push_back(&tr);
    for_each_combination(per_thread, combo, c);
    combo.pop_back();
  }
}

}  // namespace

void enumerate(const program& p, model m, const std::function<void(const candidate&)>& f) {
  enumerate(
      p, [m](const execution& x) { return consistent(x, m); }, f);
}

void enumerate(const program& p, const std::function<bool(const execution&)>& consistent,
               const std::function<void(const candidate&)>& f) {
  const std::vector<std::vector<trace>> per_thread = all_traces(p);
  candidates c(p, consistent, f);
  std::vector<const trace*> combo;
  for_each_combination(per_thread, combo, c);
}

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
