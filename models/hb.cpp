// models/hb.cpp: happens-before clocks, extended incrementally (see hb.hpp).
#include "models/hb.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace stealcheck::model {

namespace {

constexpr std::size_t W = hb_cache::width;

// Through local copies: the compiler then knows the two clocks do not alias and joins them
// in one SSE2 pmaxsw (8 x 16 bits).
void join_into(hb_cache::clock* dst, const hb_cache::clock* src) {
  hb_cache::clock a[W], b[W];
  std::memcpy(a, dst, sizeof a);
  std::memcpy(b, src, sizeof b);
  for (std::size_t u = 0; u < W; ++u)
    a[u] = std::max(a[u], b[u]);
  std::memcpy(dst, a, sizeof a);
}

const hb_cache::clock* rel_of(const hb_cache& c, event_id e) {
  return c.ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].rel;
}

// Per thread: its number of events (read once per call: vector<event>::size() divides).
using lengths = std::array<std::size_t, W>;

// Whether g (with per-thread lengths len) has event x: graph::contains without the divisions.
bool has(const graph& g, const lengths& len, event_id x) {
  return x.valid() && static_cast<std::size_t>(x.thread) < g.threads.size() && x.index >= 0 &&
         static_cast<std::size_t>(x.index) < len[static_cast<std::size_t>(x.thread)];
}

// Whether every porf-predecessor of (t, i) other than its po-predecessor has a current
// entry (or is not in g).
bool ready(const graph& g, const hb_cache& c, const lengths& len, std::size_t t, std::size_t i) {
  bool ok = true;
  for_each_sync_pred(g, t, i, [&](event_id p) {
    if (has(g, len, p) &&
        static_cast<std::size_t>(p.index) >= c.valid[static_cast<std::size_t>(p.thread)])
      ok = false;
  });
  return ok;
}

// The entries of (t, i), given valid entries for all its po/rf/thread predecessors.
void compute_event(const graph& g, hb_cache& c, const lengths& len, std::size_t t, std::size_t i) {
  auto& row = c.ev[t];
  if (row.size() < i + 1) {
    if (row.capacity() < i + 1) row.reserve(len[t] + 16);  // one growth per graph
    row.resize(i + 1);
  }
  const event& e = g.threads[t][i];
  hb_cache::entry& cur = row[i];
  hb_cache::clock* v = cur.clk;
  hb_cache::clock* r = cur.rel;
  hb_cache::clock* a = cur.acc;   // rel of everything this thread read, up to here
  hb_cache::clock* f = cur.frel;  // clock of this thread's last release fence
  hb_cache::clock* p = cur.porf;
  if (i > 0)
    cur = row[i - 1];  // clk, acc, frel, porf carry over (one inlined copy, not four memcpy)
  else
    cur = hb_cache::entry{};
  std::fill_n(r, W, 0);
  cur.rank = static_cast<std::int32_t>(e.stamp);  // above every older rank
  if (e.kind == event_kind::fence && is_sc(e)) cur.scf = static_cast<std::int32_t>(i);
  v[t] = static_cast<hb_cache::clock>(i + 1);
  p[t] = static_cast<hb_cache::clock>(i + 1);
  for_each_sync_pred(g, t, i, [&](event_id x) {
    if (has(g, len, x))
      join_into(p,
                c.ev[static_cast<std::size_t>(x.thread)][static_cast<std::size_t>(x.index)].porf);
  });
  if (i == 0 && g.info[t].created_by.valid() && has(g, len, g.info[t].created_by))
    join_into(v, c.of(g.info[t].created_by));
  if (e.kind == event_kind::join && len[e.aux] > 0)
    join_into(v,
              c.of({static_cast<std::int32_t>(e.aux), static_cast<std::int32_t>(len[e.aux] - 1)}));
  if (is_read(e) && has(g, len, e.rf)) {
    const hb_cache::clock* wr = rel_of(c, e.rf);
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
      if (has(g, len, rp.rf)) join_into(r, rel_of(c, rp.rf));
    }
  }
}

}  // namespace

const hb_clocks* hb_of(const graph& g) {
  hb_cache& c = g.hbc;
  const std::size_t nt = g.threads.size();
  if (nt > W) {
    std::fprintf(stderr, "stealcheck: more than %zu model threads\n", W);
    std::abort();
  }
  // one pass: the lengths, the flat numbering of g's events, and whether every entry is
  // current (the common call: nothing to compute)
  lengths len;
  bool current = c.ev.size() == nt;
  std::size_t total = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    len[t] = g.threads[t].size();
    c.base[t] = total;
    total += len[t];
    current = current && c.valid[t] == len[t];
  }
  c.base[nt] = total;
  if (current) return &c;
  c.ev.resize(nt);
  for (std::size_t t = 0; t < nt; ++t)
    c.clamp(t, len[t]);
  // Thread by thread, as far as each thread's entries can go; again while any thread moved
  // (a read waits for the write it reads, a join for the joined thread's end).
  for (;;) {
    bool progress = false;
    bool done = true;
    for (std::size_t t = 0; t < nt; ++t) {
      std::size_t i = c.valid[t];
      while (i < len[t] && ready(g, c, len, t, i)) {
        compute_event(g, c, len, t, i);
        c.valid[t] = ++i;
        progress = true;
      }
      done = done && i == len[t];
    }
    if (done) return &c;
    if (!progress) return nullptr;  // po ∪ rf ∪ tc is cyclic
  }
}

view porf_prefix(const graph& g, event_id e) {
  const hb_clocks* h = hb_of(g);
  if (h == nullptr) {
    std::fprintf(stderr, "stealcheck: porf_prefix of a graph with a po U rf cycle\n");
    std::abort();
  }
  const hb_cache::clock* p =
      h->ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].porf;
  return view(p, p + g.threads.size());
}

}  // namespace stealcheck::model
