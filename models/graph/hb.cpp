// models/graph/hb.cpp: happens-before clocks, extended incrementally (see hb.hpp).
#include "stealcheck/detail/models/graph/hb.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace stealcheck::model {

namespace {

constexpr std::size_t W = hb_clocks::width;

// Through local copies: the compiler then knows the two clocks do not alias and joins them
// in one SSE2 pmaxsw (8 x 16 bits).
void join_into(hb_clocks::clock* dst, const hb_clocks::clock* src) {
  hb_clocks::clock a[W], b[W];
  std::memcpy(a, dst, sizeof a);
  std::memcpy(b, src, sizeof b);
  for (std::size_t u = 0; u < W; ++u)
    a[u] = std::max(a[u], b[u]);
  std::memcpy(dst, a, sizeof a);
}

const hb_clocks::clock* rel_of(const hb_clocks& c, event_id e) {
  return c.ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].rel;
}

// Per thread: its number of events (read once per call: vector<event>::size() divides).
using lengths = std::array<std::size_t, W>;

// Whether g (with per-thread lengths len) has event x: graph::contains without the divisions.
bool has(const graph& g, const lengths& len, event_id x) {
  return x.valid() && static_cast<std::size_t>(x.thread) < g.threads.size() && x.index >= 0 &&
         static_cast<std::size_t>(x.index) < len[static_cast<std::size_t>(x.thread)];
}

// The entries of (t, i), given current entries for all its po/rf/thread predecessors.
void compute_event(const graph& g, hb_clocks& c, const lengths& len, std::size_t t, std::size_t i) {
  hb_clocks::entry* row = c.ev[t].data();
  const event& e = g.threads[t][i];
  hb_clocks::entry& cur = row[i];
  hb_clocks::clock* v = cur.clk;
  hb_clocks::clock* r = cur.rel;
  hb_clocks::clock* a = cur.acc;   // rel of everything this thread read, up to here
  hb_clocks::clock* f = cur.frel;  // clock of this thread's last release fence
  hb_clocks::clock* p = cur.porf;
  if (i > 0) {
    cur = row[i - 1];  // clk, acc, frel, porf carry over (one inlined copy, not four memcpy)
    std::fill_n(r, W, 0);
  } else {
    cur = hb_clocks::entry{};
    const event_id s = g.info[t].created_by;
    if (has(g, len, s)) {
      const hb_clocks::entry& se =
          c.ev[static_cast<std::size_t>(s.thread)][static_cast<std::size_t>(s.index)];
      join_into(p, se.porf);
      join_into(v, se.clk);
    }
  }
  cur.rank = static_cast<std::int32_t>(e.stamp);  // above every older rank
  v[t] = static_cast<hb_clocks::clock>(i + 1);
  p[t] = static_cast<hb_clocks::clock>(i + 1);
  switch (e.kind) {
    case event_kind::read:
      if (has(g, len, e.rf)) {
        const hb_clocks::entry& we =
            c.ev[static_cast<std::size_t>(e.rf.thread)][static_cast<std::size_t>(e.rf.index)];
        join_into(p, we.porf);
        if (is_acquire(e.order)) join_into(v, we.rel);
        join_into(a, we.rel);
      }
      break;
    case event_kind::write:
      if (is_release(e.order)) std::copy_n(v, W, r);
      join_into(r, f);
      if (e.rmw && i > 0) {  // the release sequence continues through RMWs (C++20)
        const event& rp = g.threads[t][i - 1];
        if (has(g, len, rp.rf)) join_into(r, rel_of(c, rp.rf));
      }
      break;
    case event_kind::fence:
      if (is_acquire(e.order)) join_into(v, a);
      if (is_release(e.order)) std::copy_n(v, W, f);
      if (is_sc(e)) cur.scf = static_cast<std::int32_t>(i);
      break;
    case event_kind::join:
      if (len[e.aux] > 0) {
        const hb_clocks::entry& je = c.ev[e.aux][len[e.aux] - 1];
        join_into(p, je.porf);
        join_into(v, je.clk);
      }
      break;
    default:
      break;
  }
}

// Whether every porf-predecessor of (t, i) other than its po-predecessor has a current
// entry (or is not in g): the write a read reads from, the last event of a joined thread, the
// spawn of a thread's first event (compute_event joins the same ones, by kind; a shared
// enumeration by callback cost 1.3 % more instructions per execution).
bool ready(const graph& g, const hb_clocks& c, const lengths& len, std::size_t t, std::size_t i) {
  auto current = [&](event_id x) {
    return !has(g, len, x) ||
           static_cast<std::size_t>(x.index) < c.valid[static_cast<std::size_t>(x.thread)];
  };
  const event& e = g.threads[t][i];
  switch (e.kind) {
    case event_kind::read:
      if (!current(e.rf)) return false;
      break;
    case event_kind::join:
      if (len[e.aux] > c.valid[e.aux]) return false;
      break;
    default:
      break;
  }
  return i > 0 || current(g.info[t].created_by);
}

}  // namespace

const hb_clocks* hb_of(const graph& g, hb_clocks& c) {
  const std::size_t nt = g.threads.size();
  if (nt > W) {
    std::fprintf(stderr, "stealcheck: more than %zu model threads\n", W);
    std::abort();
  }
  // one pass: the lengths, the flat numbering of g's events, and the threads whose entries
  // are not all current (usually none, or the one thread an event was appended to)
  lengths len;
  unsigned stale = 0;  // bit t: thread t
  std::size_t total = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    len[t] = g.threads[t].size();
    c.base[t] = total;
    total += len[t];
    if (c.valid[t] != len[t]) stale |= 1u << t;
  }
  c.base[nt] = total;
  if (c.ev.size() != nt) c.ev.resize(nt);
  if (stale == 0) return &c;
  for (unsigned m = stale; m != 0; m &= m - 1) {
    const auto t = static_cast<std::size_t>(std::countr_zero(m));
    c.clamp(t, len[t]);
    auto& row = c.ev[t];
    if (row.size() < len[t]) {
      if (row.capacity() < len[t]) row.reserve(len[t] + 16);  // one growth per graph
      row.resize(len[t]);
    }
  }
  // Thread by thread, as far as each thread's entries can go; again while any thread moved
  // (a read waits for the write it reads, a join for the joined thread's end).
  for (;;) {
    bool progress = false;
    unsigned left = 0;
    for (unsigned m = stale; m != 0; m &= m - 1) {
      const auto t = static_cast<std::size_t>(std::countr_zero(m));
      std::size_t i = c.valid[t];
      while (i < len[t] && ready(g, c, len, t, i)) {
        compute_event(g, c, len, t, i);
        c.valid[t] = ++i;
        progress = true;
      }
      if (i < len[t]) left |= 1u << t;
    }
    if (left == 0) return &c;
    if (!progress) return nullptr;  // po ∪ rf ∪ tc is cyclic
    stale = left;
  }
}

view porf_prefix(const graph& g, hb_clocks& c, event_id e) {
  const hb_clocks* h = hb_of(g, c);
  if (h == nullptr) {
    std::fprintf(stderr, "stealcheck: porf_prefix of a graph with a po U rf cycle\n");
    std::abort();
  }
  const hb_clocks::clock* p =
      h->ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].porf;
  return view(p, p + g.threads.size());
}

const hb_clocks::clock* porf_before_next(const graph& g, hb_clocks& c, std::size_t t) {
  static constexpr hb_clocks::clock empty[hb_clocks::width] = {};
  const hb_clocks* h = hb_of(g, c);
  if (h == nullptr) return empty;
  if (!g.threads[t].empty()) return h->ev[t][g.threads[t].size() - 1].porf;
  const event_id s = g.info[t].created_by;
  return s.valid()
             ? h->ev[static_cast<std::size_t>(s.thread)][static_cast<std::size_t>(s.index)].porf
             : empty;
}

bool read_outside(const graph& g, std::uint32_t loc, const hb_clocks::clock* pre,
                  bool revisitable_only) {
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const auto& th = g.threads[u];
    for (auto i = static_cast<std::size_t>(pre[u]); i < th.size(); ++i)
      if (is_read(th[i]) && th[i].loc == loc && (th[i].revisitable || !revisitable_only))
        return true;
  }
  return false;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
