// litmus/reference.cpp: the brute-force enumerator (see reference.hpp).
#include "litmus/reference.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "litmus/axioms.hpp"

namespace stealcheck::litmus {
namespace {

using detail::event;
using detail::graph;
using detail::relation;

constexpr std::size_t max_events = 64;
constexpr std::size_t max_domain = 64;
constexpr std::uint64_t max_candidates = 10'000'000;

struct limit_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One way a thread can run: its events and its final state.
struct trace {
  std::vector<event> events;
  thread_state final;
};

using domain = std::vector<std::set<value_t>>;  // per location

/// Every trace of `thread` when each read returns any value of its location's domain.
class trace_builder {
 public:
  trace_builder(const program& p, int thread, const domain& d) : p_(p), t_(thread), d_(d) {}

  std::vector<trace> run() {
    thread_state st = initial_state(p_, t_);
    std::vector<event> evs;
    step(st, evs);
    return std::move(out_);
  }

 private:
  const program& p_;
  int t_;
  const domain& d_;
  std::vector<trace> out_;

  void step(thread_state st, std::vector<event>& evs) {
    const atomic_call* c = next_access(p_, t_, st);
    if (c == nullptr) {
      if (out_.size() >= max_candidates) throw limit_error("too many traces");
      out_.push_back({evs, st});
      return;
    }
    event e{t_, c->loc_index, false, false, c->order, 0, 0};
    if (c->k == atomic_call::kind::fence || c->k == atomic_call::kind::store) {
      e.w = c->k == atomic_call::kind::store;
      e.wval = access_operand(*c, st);
      if (c->k == atomic_call::kind::fence && c->order == mem_order::relaxed) {
        finish_access(p_, t_, st, 0);  // a relaxed fence is no fence: no event
        return step(st, evs);
      }
      finish_access(p_, t_, st, 0);
      evs.push_back(e);
      step(st, evs);
      evs.pop_back();
      return;
    }
    for (value_t v : d_[static_cast<std::size_t>(c->loc_index)]) {
      thread_state next = st;
      evs.push_back(read_event(*c, e, v, next));
      step(next, evs);
      evs.pop_back();
    }
  }

  /// The event of a reading access that reads `v`; updates the state with its result.
  event read_event(const atomic_call& c, event e, value_t v, thread_state& st) {
    e.r = true;
    e.rval = v;
    value_t result = v;
    if (c.k == atomic_call::kind::cas) {
      value_t& expected = st.plains[static_cast<std::size_t>(c.expected_index)];
      const bool ok = v == expected;
      result = ok ? 1 : 0;
      e.w = ok;
      if (ok)
        e.wval = access_operand(c, st);
      else
        e.ord = c.failure, expected = v;
    } else if (c.k != atomic_call::kind::load) {
      e.w = true;
      e.wval = rmw_result(c, v, st);
    }
    finish_access(p_, t_, st, result);
    return e;
  }
};

/// Grows the value domain and returns every thread's traces under it. A value written in an
/// execution depends on values read before it, through a chain of sb U rf edges (acyclic), so
/// its derivation depth is at most the number of events of an execution: that many rounds of
/// growth give every value any execution can produce (values past it cannot occur).
std::vector<std::vector<trace>> all_traces(const program& p) {
  const test& t = *p.t;
  domain d(t.locations.size());
  for (std::size_t l = 0; l < t.locations.size(); ++l)
    d[l].insert(t.locations[l].init);
  std::size_t depth_bound = max_events;
  for (std::size_t round = 0;; ++round) {
    std::vector<std::vector<trace>> per_thread;
    bool grew = false;
    std::size_t events = 0;
    domain next = d;
    for (std::size_t th = 0; th < t.threads.size(); ++th) {
      per_thread.push_back(trace_builder(p, static_cast<int>(th), d).run());
      std::size_t longest = 0;
      for (const trace& tr : per_thread.back()) {
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

/// Enumerates rf and mo for one combination of traces and records consistent executions.
class candidate_enumerator {
 public:
  candidate_enumerator(const program& p, model_kind m, run_result& out, std::uint64_t& budget)
      : p_(p), m_(m), out_(out), budget_(budget) {}

  void run(const std::vector<const trace*>& combo) {
    combo_ = &combo;
    g_ = graph{};
    const test& t = *p_.t;
    for (std::size_t l = 0; l < t.locations.size(); ++l)
      g_.ev.push_back(
          {-1, static_cast<int>(l), false, true, mem_order::relaxed, 0, t.locations[l].init});
    for (const trace* tr : combo)
      g_.ev.insert(g_.ev.end(), tr->events.begin(), tr->events.end());
    if (g_.ev.size() > max_events) throw limit_error("more than 64 events");
    g_.rf.assign(g_.ev.size(), -1);
    sb_ = detail::program_order(g_.ev);
    choose_rf(0);
  }

 private:
  const program& p_;
  model_kind m_;
  run_result& out_;
  std::uint64_t& budget_;
  const std::vector<const trace*>* combo_ = nullptr;
  graph g_;
  relation sb_;

  void choose_rf(std::size_t i) {
    while (i < g_.ev.size() && !g_.ev[i].r)
      ++i;
    if (i == g_.ev.size()) {
      if (!detail::sb_rf_acyclic(g_, sb_)) return;
      g_.mo.assign(p_.t->locations.size(), {});
      for (std::size_t w = 0; w < g_.ev.size(); ++w)
        if (g_.ev[w].w)
          g_.mo[static_cast<std::size_t>(g_.ev[w].loc)].push_back(static_cast<int>(w));
      choose_mo(0);
      return;
    }
    for (std::size_t w = 0; w < g_.ev.size(); ++w) {
      const event& e = g_.ev[w];
      if (w == i || !e.w || e.loc != g_.ev[i].loc || e.wval != g_.ev[i].rval) continue;
      g_.rf[i] = static_cast<int>(w);
      choose_rf(i + 1);
    }
    g_.rf[i] = -1;
  }

  void choose_mo(std::size_t loc) {
    if (loc == g_.mo.size()) return check();
    std::vector<int>& order = g_.mo[loc];  // order[0] is the initial write, always first
    std::sort(order.begin() + 1, order.end());
    do
      choose_mo(loc + 1);
    while (std::next_permutation(order.begin() + 1, order.end()));
  }

  void check() {
    if (++budget_ > max_candidates) throw limit_error("more than 10^7 candidate executions");
    if (!detail::consistent(g_, sb_, m_)) return;
    std::vector<thread_state> finals;
    for (const trace* tr : *combo_)
      finals.push_back(tr->final);
    std::vector<value_t> memory;
    for (const std::vector<int>& order : g_.mo)
      memory.push_back(g_.ev[static_cast<std::size_t>(order.back())].wval);
    ++out_.outcomes[observe(*p_.t, finals, memory)];
    ++out_.complete;
  }
};

void for_each_combination(const std::vector<std::vector<trace>>& per_thread,
                          std::vector<const trace*>& combo, candidate_enumerator& e) {
  const std::size_t t = combo.size();
  if (t == per_thread.size()) return e.run(combo);
  for (const trace& tr : per_thread[t]) {
    combo.push_back(&tr);
    for_each_combination(per_thread, combo, e);
    combo.pop_back();
  }
}

}  // namespace

run_result enumerate_reference(const program& p, model_kind m) {
  run_result r;
  try {
    const std::vector<std::vector<trace>> per_thread = all_traces(p);
    std::uint64_t budget = 0;
    candidate_enumerator e(p, m, r, budget);
    std::vector<const trace*> combo;
    for_each_combination(per_thread, combo, e);
  } catch (const limit_error& err) {
    r = run_result{};
    r.error = std::string("reference enumerator limit: ") + err.what();
  }
  return r;
}

}  // namespace stealcheck::litmus
