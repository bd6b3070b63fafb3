// litmus/reference.cpp: the brute-force enumerator (see reference.hpp): the litmus program as
// an oracle::program, enumerated by oracle/enumerate.hpp.
#include "litmus/reference.hpp"

#include <span>
#include <string>
#include <vector>

#include "stealcheck/detail/oracle/enumerate.hpp"

namespace stealcheck::litmus {
namespace {

/// Thread `thread` of p run from its start, its reads returning `values` in order; its state
/// at the point it stopped goes to `st`.
oracle::thread_run run_thread(const program& p, int thread, std::span<const value_t> values,
                              thread_state& st) {
  oracle::thread_run out;
  st = initial_state(p, thread);
  std::size_t next = 0;
  while (const atomic_call* c = next_access(p, thread, st)) {
    oracle::event e;
    e.loc = c->loc_index;
    e.ord = to_std(c->order);
    if (c->k == atomic_call::kind::fence || c->k == atomic_call::kind::store) {
      const bool fence = c->k == atomic_call::kind::fence;
      e.fence = fence;
      e.w = !fence;
      e.wval = access_operand(*c, st);
      finish_access(p, thread, st, 0);
      if (!fence || c->order != mem_order::relaxed)  // a relaxed fence is no fence: no event
        out.events.push_back(e);
      continue;
    }
    if (next == values.size()) {
      out.pending_loc = c->loc_index;
      return out;
    }
    const value_t v = values[next++];
    e.r = true;
    e.rval = v;
    value_t result = v;
    if (c->k == atomic_call::kind::cas) {
      value_t& expected = st.plains[static_cast<std::size_t>(c->expected_index)];
      const bool ok = v == expected;
      result = ok ? 1 : 0;
      e.w = ok;
      if (ok)
        e.wval = access_operand(*c, st);
      else
        e.ord = to_std(c->failure), expected = v;
    } else if (c->k != atomic_call::kind::load) {
      e.w = true;
      e.wval = rmw_result(*c, v, st);
    }
    finish_access(p, thread, st, result);
    out.events.push_back(e);
  }
  return out;
}

}  // namespace

run_result enumerate_reference(const program& p, model_kind m) {
  const test& t = *p.t;
  oracle::program op;
  op.threads = t.threads.size();
  for (const auto& l : t.locations)
    op.init.push_back(l.init);
  op.run = [&p](std::size_t thread, std::span<const value_t> values) {
    thread_state st;
    return run_thread(p, static_cast<int>(thread), values, st);
  };
  run_result r;
  try {
    oracle::enumerate(op, m == model_kind::sc ? oracle::model::sc : oracle::model::rc11,
                      [&](const oracle::candidate& c) {
                        std::vector<thread_state> finals(c.traces.size());
                        for (std::size_t th = 0; th < c.traces.size(); ++th)
                          run_thread(p, static_cast<int>(th), c.traces[th]->values, finals[th]);
                        std::vector<value_t> memory;
                        memory.reserve(c.x.mo.size());
                        for (const std::vector<int>& order : c.x.mo)
                          memory.push_back(c.x.ev[static_cast<std::size_t>(order.back())].wval);
                        ++r.outcomes[observe(t, finals, memory)];
                        ++r.complete;
                      });
  } catch (const oracle::limit_error& err) {
    r = run_result{};
    r.error = std::string("reference enumerator limit: ") + err.what();
  }
  return r;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
