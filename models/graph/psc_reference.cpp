// models/graph/psc_reference.cpp: acyclicity of RC11's psc (see psc.hpp) computed by the axiomatic
// oracle (oracle/axioms.hpp) on the graph seen as a candidate execution: the test oracle for
// psc_acyclic (models/tests/psc_test.cpp), and its answer for graphs that break graph.hpp's
// invariants.
//
// The graph's events keep the flat numbering of its clocks (hb_clocks::flat). Init events
// are non-atomic writes of their thread (no release sequence starts at one, as in hb.hpp); an
// RMW is its read and write parts joined by rmw (a write flagged rmw and the read before it);
// spawn -> the child's first event and the child's last event -> join are sync edges (part of
// hb); non-atomic accesses and bookkeeping events have no memory effect. A read whose rf is not a
// write of the graph reads nothing; a write missing from mo comes first in its location's order. hb
// is the oracle's own (the clocks are used for the numbering only). Complexity: O(E^3 / 64); O(E)
// when there are fewer than two sc events.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/graph/psc.hpp"
#include "stealcheck/detail/oracle/axioms.hpp"

namespace stealcheck::model {

namespace {

oracle::execution to_execution(const graph& g, const hb_clocks& c) {
  const std::size_t n = c.base[g.threads.size()];
  oracle::execution x;
  x.ev.resize(n);
  x.rf.assign(n, -1);
  const auto flat = [&](event_id e) { return static_cast<int>(c.flat(e)); };
  const auto is_write_of_g = [&](event_id e) { return g.contains(e) && is_write(g.at(e)); };
  std::size_t locations = g.mo.size();
  std::vector<char> in_mo(n, 0);
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    const auto& th = g.threads[t];
    for (std::size_t i = 0; i < th.size(); ++i) {
      const event& e = th[i];
      const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
      const std::size_t f = c.flat(id);
      oracle::event& o = x.ev[f];
      o.thread = static_cast<int>(t);
      if (is_access(e) || e.kind == event_kind::fence) o.ord = e.order;
      o.fence = e.kind == event_kind::fence;
      if (is_access(e)) {
        o.loc = static_cast<int>(e.loc);
        o.atomic = e.kind != event_kind::init;  // a constructor's write (as hb.hpp has it)
        o.r = is_read(e);
        o.w = is_write(e);
        locations = std::max<std::size_t>(locations, e.loc + 1);
      }
      if (is_read(e) && is_write_of_g(e.rf)) x.rf[f] = flat(e.rf);
      // (the write part's flag decides: a CAS's read part has none)
      if (e.kind == event_kind::write && e.rmw && i > 0 && is_read(th[i - 1]))
        x.rmw.emplace_back(static_cast<int>(f - 1), static_cast<int>(f));
      const std::size_t other = e.aux;
      const bool thread_edge = (e.kind == event_kind::spawn || e.kind == event_kind::join) &&
                               other < g.threads.size() && !g.threads[other].empty();
      if (thread_edge && e.kind == event_kind::spawn)
        x.sync.emplace_back(static_cast<int>(f), flat({static_cast<std::int32_t>(other), 0}));
      if (thread_edge && e.kind == event_kind::join) {
        const auto last = static_cast<std::int32_t>(g.threads[other].size() - 1);
        x.sync.emplace_back(flat({static_cast<std::int32_t>(other), last}), static_cast<int>(f));
      }
    }
  }
  x.mo.resize(locations);
  for (std::size_t l = 0; l < g.mo.size(); ++l)
    for (const event_id w : g.mo[l])
      if (is_write_of_g(w) && in_mo[c.flat(w)] == 0) {
        in_mo[c.flat(w)] = 1;
        x.mo[l].push_back(flat(w));
      }
  for (std::size_t f = 0; f < n; ++f)
    if (x.ev[f].w && in_mo[f] == 0) {
      auto& order = x.mo[static_cast<std::size_t>(x.ev[f].loc)];
      order.insert(order.begin(), static_cast<int>(f));
    }
  return x;
}

}  // namespace

bool psc_acyclic_reference(const graph& g, const hb_clocks& c) {
  std::size_t nsc = 0;
  for (const auto& th : g.threads)
    for (const event& e : th)
      if (is_sc(e) && ++nsc >= 2) break;
  if (nsc < 2) return true;  // a cycle needs two sc events (psc is irreflexive here)
  return oracle::psc_acyclic(oracle::derive(to_execution(g, c)));
}

std::vector<std::pair<event_id, event_id>> psc_edges_reference(const graph& g, const hb_clocks& c) {
  const auto id = [&](int f) {  // flat number -> (thread, index)
    std::size_t t = 0;
    while (c.base[t + 1] <= static_cast<std::size_t>(f))
      ++t;
    return event_id{static_cast<std::int32_t>(t),
                    static_cast<std::int32_t>(static_cast<std::size_t>(f) - c.base[t])};
  };
  std::vector<std::pair<event_id, event_id>> out;
  for (const auto& [a, b] : oracle::psc_edges(to_execution(g, c)))
    out.emplace_back(id(a), id(b));
  return out;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
