// models/graph/graph.cpp: execution-graph bookkeeping (see graph.hpp).
#include "stealcheck/detail/models/graph/graph.hpp"

#include <algorithm>
#include <cassert>

namespace stealcheck::model {

graph::graph(const graph& o) : info(o.info), locs(o.locs), mo(o.mo), next_stamp(o.next_stamp) {
  threads.resize(o.threads.size());
  for (std::size_t t = 0; t < o.threads.size(); ++t) {
    threads[t].reserve(o.threads[t].size() + 8);
    threads[t].assign(o.threads[t].begin(), o.threads[t].end());
  }
}

graph& graph::operator=(const graph& o) {
  if (this != &o) {
    graph tmp(o);
    *this = std::move(tmp);
  }
  return *this;
}

event_id graph::append(std::size_t t, event e) {
  if (threads.size() <= t) {
    threads.resize(t + 1);
    info.resize(t + 1);
  }
  e.stamp = next_stamp++;
  threads[t].push_back(e);
  return {static_cast<std::int32_t>(t), static_cast<std::int32_t>(threads[t].size() - 1)};
}

int graph::mo_pos(event_id w) const {
  const auto& m = mo[at(w).loc];
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] == w) return static_cast<int>(i);
  return -1;
}

void graph::mo_insert(event_id w, std::size_t pos) {
  auto& m = mo[at(w).loc];
  m.insert(m.begin() + static_cast<std::ptrdiff_t>(pos), w);
}

event_id graph::mo_max(std::uint32_t loc) const {
  const auto& m = mo[loc];
  return m.empty() ? event_id::none() : m.back();
}

std::uint32_t graph::location_for(const location& l, std::uint32_t hint) {
  if (hint < locs.size() && locs[hint].key == l.key) {
    locs[hint] = l;
    return hint;
  }
  for (std::size_t i = 0; i < locs.size(); ++i)
    if (locs[i].key == l.key) {
      locs[i] = l;  // refresh (same key: same construction site)
      return static_cast<std::uint32_t>(i);
    }
  locs.push_back(l);
  mo.emplace_back();
  return static_cast<std::uint32_t>(locs.size() - 1);
}

void graph::rewind(std::uint32_t s) {
  if (next_stamp <= s) return;
  bool removed_write = false;
  for (std::size_t t = 0; t < threads.size(); ++t) {
    auto& th = threads[t];
    while (!th.empty() && th.back().stamp >= s) {
      removed_write = removed_write || is_write(th.back());
      th.pop_back();
    }
  }
  if (removed_write)
    for (auto& m : mo)
      std::erase_if(m, [&](event_id w) { return !contains(w); });
  next_stamp = s;
}

graph graph::prefix(const std::vector<std::int32_t>& keep) const {
  graph out;
  out.info = info;
  out.locs = locs;
  out.next_stamp = next_stamp;
  out.threads.resize(threads.size());
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const auto n = std::min(threads[t].size(),
                            static_cast<std::size_t>(std::max(0, t < keep.size() ? keep[t] : 0)));
    out.threads[t].reserve(n + 8);
    out.threads[t].assign(threads[t].begin(), threads[t].begin() + static_cast<std::ptrdiff_t>(n));
  }
  out.mo.resize(mo.size());
  for (std::size_t l = 0; l < mo.size(); ++l) {
    out.mo[l].reserve(mo[l].size());
    for (const event_id w : mo[l])
      if (out.contains(w)) out.mo[l].push_back(w);
  }
  return out;
}

void set_reads_from(graph& g, event_id r, event_id w) {
  event& e = g.at(r);
  e.rf = w;
  e.value = g.at(w).value;
  e.added_max = false;
  if (e.op == rmw_op::cas) {
    e.cas_ok = !e.spurious && e.value == e.expected;
    e.order = e.cas_ok ? read_part(e.ok_order) : e.fail_order;
  } else if (e.rmw) {
    e.order = read_part(e.ok_order);
  }
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
