// models/hb.cpp: happens-before clocks, extended incrementally (see hb.hpp).
#include "models/hb.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace stealcheck::model {

namespace {

constexpr std::size_t W = hb_cache::width;

// __restrict: the two clocks never alias, which lets the compiler vectorize the loop.
void join_into(std::int32_t* __restrict dst, const std::int32_t* __restrict src) {
  for (std::size_t u = 0; u < W; ++u)
    dst[u] = std::max(dst[u], src[u]);
}

const std::int32_t* rel_of(const hb_cache& c, event_id e) {
  return c.ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].rel;
}

// The entries of (t, i), given valid entries for all its po/rf/thread predecessors.
void compute_event(const graph& g, hb_cache& c, std::size_t t, std::size_t i) {
  auto& row = c.ev[t];
  if (row.size() < i + 1) {
    if (row.capacity() < i + 1) row.reserve(g.threads[t].size() + 16);  // one growth per graph
    row.resize(i + 1);
  }
  hb_cache::entry& cur = row[i];
  std::int32_t* v = cur.clk;
  std::int32_t* r = cur.rel;
  std::int32_t* a = cur.acc;   // rel of everything this thread read, up to here
  std::int32_t* f = cur.frel;  // clock of this thread's last release fence
  std::int32_t* p = cur.porf;
  if (i > 0)
    cur = row[i - 1];  // clk, acc, frel, porf carry over (one inlined copy, not four memcpy)
  else
    cur = hb_cache::entry{};
  std::fill_n(r, W, 0);
  cur.rank = static_cast<std::int32_t>(g.threads[t][i].stamp);  // above every older rank
  if (g.threads[t][i].kind == event_kind::fence && is_sc(g.threads[t][i]))
    cur.scf = static_cast<std::int32_t>(i);
  v[t] = static_cast<std::int32_t>(i + 1);
  p[t] = static_cast<std::int32_t>(i + 1);
  for_each_sync_pred(g, t, i, [&](event_id x) {
    if (g.contains(x))
      join_into(p,
                c.ev[static_cast<std::size_t>(x.thread)][static_cast<std::size_t>(x.index)].porf);
  });
  const event& e = g.threads[t][i];
  if (i == 0 && g.info[t].created_by.valid() && g.contains(g.info[t].created_by))
    join_into(v, c.of(g.info[t].created_by));
  if (e.kind == event_kind::join && !g.threads[e.aux].empty())
    join_into(v, c.of({static_cast<std::int32_t>(e.aux),
                       static_cast<std::int32_t>(g.threads[e.aux].size() - 1)}));
  if (is_read(e) && g.contains(e.rf)) {
    const std::int32_t* wr = rel_of(c, e.rf);
    if (is_acquire(e.order)) join_into(v, wr);
    join_into(a, wr);
  }
  if (e.kind == event_kind::fence && is_acquire(e.order)) join_into(v, a);
  if (e.kind == event_kind::fence && is_release(e.order)) std::copy_n(v, W, f);
  if (e.kind == event_kind::write) {
    if (is_release(e.order)) std::copy_n(v, W, r);
    join_into(r, f);
    if (e.rmw && i > 0) {  // the release sequence continues through RMWs (C++20)
      const event& rp = g.threads[t][i - 1];
      if (g.contains(rp.rf)) join_into(r, rel_of(c, rp.rf));
    }
  }
}

// The flat numbering of g's events (hb_cache::base); returns &c.
const hb_clocks* number_events(const graph& g, hb_cache& c) {
  c.base[0] = 0;
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    c.base[t + 1] = c.base[t] + g.threads[t].size();
  return &c;
}

}  // namespace

const hb_clocks* hb_of(const graph& g) {
  hb_cache& c = g.hbc;
  const std::size_t nt = g.threads.size();
  if (nt > W) {
    std::fprintf(stderr, "stealcheck: more than %zu model threads\n", W);
    std::abort();
  }
  if (c.ev.size() == nt) {  // the common call: every entry current, nothing to compute
    bool current = true;
    for (std::size_t t = 0; t < nt && current; ++t)
      current = c.valid[t] == g.threads[t].size();
    if (current) return number_events(g, c);  // sizes may have shrunk to the valid entries
  }
  c.ev.resize(nt);
  std::size_t remaining = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    c.clamp(t, g.threads[t].size());
    remaining += g.threads[t].size() - c.valid[t];
  }
  while (remaining > 0) {
    bool progress = false;
    for (std::size_t t = 0; t < nt; ++t) {
      while (c.valid[t] < g.threads[t].size()) {
        const std::size_t i = c.valid[t];
        bool ready = true;
        for_each_sync_pred(g, t, i, [&](event_id p) {
          if (g.contains(p) &&
              static_cast<std::size_t>(p.index) >= c.valid[static_cast<std::size_t>(p.thread)])
            ready = false;
        });
        if (!ready) break;
        compute_event(g, c, t, i);
        ++c.valid[t];
        --remaining;
        progress = true;
      }
    }
    if (!progress) return nullptr;  // po ∪ rf ∪ tc is cyclic
  }
  return number_events(g, c);
}

view porf_prefix(const graph& g, event_id e) {
  const hb_clocks* h = hb_of(g);
  if (h == nullptr) {
    std::fprintf(stderr, "stealcheck: porf_prefix of a graph with a po U rf cycle\n");
    std::abort();
  }
  const std::int32_t* p =
      h->ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].porf;
  return view(p, p + g.threads.size());
}

}  // namespace stealcheck::model
