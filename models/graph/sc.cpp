// models/graph/sc.cpp: sequential consistency: acyclic(po ∪ rf ∪ mo ∪ rb ∪ tc) and atomicity
// (Lamport 1979; the axiomatic form as in Alglave et al., TOPLAS 2014, section 4).
#include "stealcheck/detail/models/graph/sc.hpp"

#include <cstddef>
#include <vector>

namespace stealcheck::model {

bool rmw_atomic(const graph& g) {
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    const auto& th = g.threads[t];
    for (std::size_t i = 1; i < th.size(); ++i) {
      if (!(th[i].kind == event_kind::write && th[i].rmw)) continue;
      const event& r = th[i - 1];
      const int p0 = g.mo_pos(r.rf);
      const int p1 = g.mo_pos({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)});
      if (p0 < 0 || p1 != p0 + 1) return false;
    }
  }
  return true;
}

bool sc_consistent(const graph& g) {
  if (!rmw_atomic(g)) return false;
  const std::size_t nt = g.threads.size();
  std::vector<std::size_t> base(nt + 1, 0);
  for (std::size_t t = 0; t < nt; ++t)
    base[t + 1] = base[t] + g.threads[t].size();
  const std::size_t n = base[nt];
  auto flat = [&](event_id e) {
    return base[static_cast<std::size_t>(e.thread)] + static_cast<std::size_t>(e.index);
  };
  std::vector<std::vector<std::size_t>> succ(n);
  std::vector<std::size_t> indeg(n, 0);
  auto edge = [&](std::size_t a, std::size_t b) {
    succ[a].push_back(b);
    ++indeg[b];
  };
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& th = g.threads[t];
    for (std::size_t i = 0; i < th.size(); ++i) {
      const std::size_t me = base[t] + i;
      if (i + 1 < th.size()) edge(me, me + 1);
      if (i == 0 && g.info[t].created_by.valid()) edge(flat(g.info[t].created_by), me);
      const event& e = th[i];
      if (e.kind == event_kind::join && !g.threads[e.aux].empty())
        edge(base[e.aux] + g.threads[e.aux].size() - 1, me);
      if (!is_read(e)) continue;
      edge(flat(e.rf), me);
      const auto& m = g.mo[e.loc];
      const int p = g.mo_pos(e.rf);
      if (p >= 0 && static_cast<std::size_t>(p) + 1 < m.size())
        edge(me, flat(m[static_cast<std::size_t>(p) + 1]));  // rb
    }
  }
  for (const auto& m : g.mo)
    for (std::size_t k = 1; k < m.size(); ++k)
      edge(flat(m[k - 1]), flat(m[k]));
  std::vector<std::size_t> stack;
  for (std::size_t v = 0; v < n; ++v)
    if (indeg[v] == 0) stack.push_back(v);
  std::size_t seen = 0;
  while (!stack.empty()) {
    const std::size_t v = stack.back();
    stack.pop_back();
    ++seen;
    for (const std::size_t w : succ[v])
      if (--indeg[w] == 0) stack.push_back(w);
  }
  return seen == n;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
