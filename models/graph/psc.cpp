// models/graph/psc.cpp: acyclicity of RC11's psc (see psc.hpp), with the psc edges computed
// directly between sc events from per-thread hb suffixes and per-location mo positions.
#include "stealcheck/detail/models/graph/psc.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace stealcheck::model {

namespace {

using word = std::uint64_t;
constexpr int none = std::numeric_limits<int>::max();
constexpr std::int32_t rank_gap = 256;

void set_bit(word* b, std::size_t i) {
  b[i / 64] |= word{1} << (i % 64);
}
bool test_bit(const word* b, std::size_t i) {
  return ((b[i / 64] >> (i % 64)) & 1U) != 0;
}
// The bits [lo, hi), each also in mask when mask is not null.
void or_range(word* b, std::size_t lo, std::size_t hi, const word* mask = nullptr) {
  while (lo < hi) {
    const std::size_t w = lo / 64, from = lo % 64;
    const std::size_t to = std::min<std::size_t>(64, from + (hi - lo));
    word m = (to == 64 ? ~word{0} : (word{1} << to) - 1) & ~((word{1} << from) - 1);
    if (mask != nullptr) m &= mask[w];
    b[w] |= m;
    lo += to - from;
  }
}
void or_words(word* dst, const word* src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    dst[i] |= src[i];
}
bool intersects(const word* a, const word* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if ((a[i] & b[i]) != 0) return true;
  return false;
}
bool same_loc(const event& a, const event& b) {
  return is_access(a) && is_access(b) && a.loc == b.loc;
}

struct sc_event {
  std::size_t flat, thread, index;
  bool fence;
  std::uint32_t stamp;
};

// Reused storage (no allocation per call once warm). Bit sets over events use the flat
// numbering c.base[t] + index, `W` words each. At rest `first`, `mw` and `mr` hold `none`.
struct psc_scratch {
  std::vector<int> mopos;              // per event: mo position of a write, else -1
  std::vector<word> locmask;           // per location: its accesses
  std::vector<int> reader, next;       // per write: a read of it; per read: the next read of
                                       // the same write (-1 ends the list)
  std::vector<sc_event> sc;            // the sc events, in flat order
  std::vector<word> before;            // per sc fence: its hb?-predecessors
  std::vector<word> img, full;         // scb (and eco) image of one event's left set
  std::vector<int> mw, mr, first;      // fence scan: per location (and thread)
  std::vector<std::uint32_t> touched;  // fence scan: locations with mw or mr set
  std::vector<word> pred;              // per sc event: its psc-predecessors
  std::vector<std::uint32_t> outdeg, stack;
  std::vector<std::uint32_t> order;  // Kahn's removal order (sinks first)
};

struct fast_psc {
  const graph& g;
  const hb_clocks& c;
  psc_scratch& s;
  std::size_t nt = 0, n = 0, W = 0, nloc = 0, S = 0, SW = 0;

  std::size_t len(std::size_t t) const { return g.threads[t].size(); }
  std::size_t flat(event_id e) const { return c.flat(e); }
  // The writes to l at mo positions >= k.
  void or_writes_from(word* b, std::size_t l, std::size_t k) const {
    const auto& m = g.mo[l];
    for (; k < m.size(); ++k)
      set_bit(b, flat(m[k]));
  }
  // The reads of the writes to l at mo positions >= k.
  void or_readers_from(word* b, std::size_t l, std::size_t k) const {
    const auto& m = g.mo[l];
    for (; k < m.size(); ++k)
      for (int r = s.reader[flat(m[k])]; r >= 0; r = s.next[static_cast<std::size_t>(r)])
        set_bit(b, static_cast<std::size_t>(r));
  }
  // First index j of thread v with (t, i) hb (v, j) (strict), or len(v): hb-successors of an
  // event form a po-suffix of every thread (clocks grow along po).
  // The search starts at lo (a known lower bound).
  std::size_t first_after(std::size_t t, std::size_t i, std::size_t v, std::size_t lo = 0) const {
    if (v == t) return i + 1;
    const auto& row = c.ev[v];
    std::size_t hi = len(v);
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (row[mid].clk[t] > static_cast<std::int32_t>(i))
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  }

  // nd(t, i): the index of the po-first event after (t, i) at another location than (t, i)
  // (every event, if (t, i) is no access), or len(t).
  std::size_t nd(std::size_t t, std::size_t i) const {
    const auto& th = g.threads[t];
    std::size_t j = i + 1;
    while (j < th.size() && same_loc(th[i], th[j]))
      ++j;
    return j;
  }

  // The fence scan's running minima (mw, mr, first) cover L of the last fence imaged: the
  // po-suffixes from scanned[u]. The fences of one thread are imaged last to first, so L only
  // grows and each event is folded in once per thread (not once per fence).
  static constexpr std::size_t no_thread = hb_clocks::width;
  std::size_t scan_thread = no_thread;
  std::size_t scanned[hb_clocks::width] = {};
  void reset_fence_scan();

  bool prepare();
  void scb_of_access(std::size_t t, std::size_t i);
  void scb_eco_of_fence(std::size_t t, std::size_t i);
  bool acyclic(hb_clocks* ranks);
};

// Per-call tables. False if g breaks an invariant the fast path relies on (every write in mo
// of its location exactly once; every read reads a write of its location).
bool fast_psc::prepare() {
  nt = g.threads.size();
  n = c.base[nt];
  W = (n + 63) / 64;
  nloc = g.mo.size();
  s.mopos.assign(n, -1);
  s.reader.assign(n, -1);
  s.next.resize(n);
  for (std::size_t l = 0; l < nloc; ++l) {
    for (std::size_t k = 0; k < g.mo[l].size(); ++k) {
      const event_id w = g.mo[l][k];
      if (!g.contains(w) || !is_write(g.at(w)) || g.at(w).loc != l) return false;
      int& p = s.mopos[flat(w)];
      if (p >= 0) return false;
      p = static_cast<int>(k);
    }
  }
  s.locmask.assign(nloc * W, 0);
  s.sc.clear();
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& th = g.threads[t];
    const std::size_t b = c.base[t];
    for (std::size_t i = 0; i < th.size(); ++i) {
      const event& e = th[i];
      if (is_sc(e)) s.sc.push_back({b + i, t, i, e.kind == event_kind::fence, e.stamp});
      if (!is_access(e)) continue;
      if (e.loc >= nloc) return false;
      set_bit(&s.locmask[e.loc * W], b + i);
      if (is_write(e) && s.mopos[b + i] < 0) return false;
      if (is_read(e)) {
        if (!g.contains(e.rf) || !is_write(g.at(e.rf)) || g.at(e.rf).loc != e.loc) return false;
        const std::size_t w = flat(e.rf);
        if (s.mopos[w] < 0) return false;
        s.next[b + i] = s.reader[w];
        s.reader[w] = static_cast<int>(b + i);
      }
    }
  }
  S = s.sc.size();
  SW = (S + 63) / 64;
  s.before.assign(S * W, 0);
  for (std::size_t k = 0; k < S; ++k) {
    const sc_event& e = s.sc[k];
    if (!e.fence) continue;
    const hb_clocks::clock* clk = c.ev[e.thread][e.index].clk;
    for (std::size_t u = 0; u < nt; ++u)
      or_range(&s.before[k * W], c.base[u], c.base[u] + static_cast<std::size_t>(clk[u]));
  }
  const std::size_t need = std::max<std::size_t>(nloc * nt, 1);
  if (s.first.size() < need) s.first.resize(need, none);
  if (s.mw.size() < nloc) {
    s.mw.resize(nloc, none);
    s.mr.resize(nloc, none);
  }
  return true;
}

// img = scb({a}) for an sc access a = (t, i) at location l:
//   po:         the rest of thread t;
//   hb|loc:     per thread v ≠ t, the accesses to l in the po-suffix hb-after a;
//   po;hb;po:   via a' = the po-first event after a at another location: per thread v ≠ t,
//               from the first k hb-after a', the events po-after some event in [k, y) at
//               another location than y, which is the suffix from nd(k) (for v = t: inside po);
//   mo / rb:    the writes mo-after a (write) or after the write a reads (read).
void fast_psc::scb_of_access(std::size_t t, std::size_t i) {
  word* img = s.img.data();
  const std::size_t b = c.base[t];
  const event& e = g.threads[t][i];
  or_range(img, b + i + 1, b + len(t));
  const std::size_t ap = nd(t, i);
  for (std::size_t v = 0; v < nt; ++v) {
    if (v == t) continue;
    const std::size_t bv = c.base[v];
    const std::size_t k = first_after(t, i, v);
    if (k < len(v)) or_range(img, bv + k, bv + len(v), &s.locmask[e.loc * W]);
    if (ap < len(t)) {
      const std::size_t k2 = first_after(t, ap, v, k);  // a po a': hb-after a' ⊆ hb-after a
      if (k2 < len(v)) or_range(img, bv + nd(v, k2), bv + len(v));
    }
  }
  const int p = is_write(e) ? s.mopos[b + i] : s.mopos[flat(e.rf)];
  or_writes_from(img, e.loc, static_cast<std::size_t>(p) + 1);
}

// For an sc fence a = (t, i): img = scb(L) with L = {a} ∪ hb-after(a), and full = img ∪
// eco(hb-after(a)). L is a po-suffix [s_u, len) of each thread u (s_t = i), so
//   po ∪ po;hb;po ∪ hb|loc: the suffixes from s_u + 1 (anything po-after or hb-after an event
//     of L is in L and po-after s_u), plus s_u itself when it is an access hb-after an access
//     to its location in L_w, w ≠ u (then the po-first such access of L_w is hb-before it);
//   mo ∪ rb: per location, the writes mo-after min(mw, mr), where mw is the least mo position
//     of a write of L and mr that of the write a read of L reads (mo is total per location);
//   eco = rf ∪ (mo ∪ rb); rf?: the same writes, plus the reads of writes at positions
//     >= min(mw, mr + 1).
// (The s_u part, like psc_F's hb term, never decides acyclicity alone: s_u is in L, so each
// psc-successor of s_u is one of a. Both are kept so that the edges are the reference's.)
void fast_psc::reset_fence_scan() {
  for (const std::uint32_t l : s.touched) {
    s.mw[l] = s.mr[l] = none;
    std::fill_n(&s.first[l * nt], nt, none);
  }
  s.touched.clear();
  scan_thread = no_thread;
}

void fast_psc::scb_eco_of_fence(std::size_t t, std::size_t i) {
  word* img = s.img.data();
  std::size_t start[hb_clocks::width];
  for (std::size_t u = 0; u < nt; ++u)
    start[u] = u == t ? i : first_after(t, i, u);
  bool grows = scan_thread == t;  // L of this fence contains L of the one imaged before
  for (std::size_t u = 0; u < nt && grows; ++u)
    grows = (u == t ? i + 1 : start[u]) <= scanned[u];
  if (!grows) {
    reset_fence_scan();
    scan_thread = t;
    for (std::size_t u = 0; u < nt; ++u)
      scanned[u] = len(u);
  }
  for (std::size_t u = 0; u < nt; ++u) {
    if (start[u] + 1 < len(u)) or_range(img, c.base[u] + start[u] + 1, c.base[u] + len(u));
    const auto& th = g.threads[u];
    const std::size_t from = u == t ? i + 1 : start[u];
    for (std::size_t j = from; j < scanned[u]; ++j) {
      const event& e = th[j];
      if (!is_access(e)) continue;
      const std::size_t l = e.loc;
      if (s.mw[l] == none && s.mr[l] == none) s.touched.push_back(static_cast<std::uint32_t>(l));
      int& f = s.first[l * nt + u];
      f = std::min(f, static_cast<int>(j));
      if (is_write(e))
        s.mw[l] = std::min(s.mw[l], s.mopos[c.base[u] + j]);
      else
        s.mr[l] = std::min(s.mr[l], s.mopos[flat(e.rf)]);
    }
    scanned[u] = from;
  }
  for (std::size_t v = 0; v < nt; ++v) {
    if (v == t || start[v] >= len(v)) continue;
    const event& e = g.threads[v][start[v]];
    if (!is_access(e)) continue;
    const hb_clocks::clock* clk = c.ev[v][start[v]].clk;
    for (std::size_t u = 0; u < nt; ++u)
      if (u != v && s.first[e.loc * nt + u] < clk[u]) {
        set_bit(img, c.base[v] + start[v]);
        break;
      }
  }
  word* full = s.full.data();
  for (const std::uint32_t l : s.touched) {
    const int m = std::min(s.mw[l], s.mr[l]);
    or_writes_from(img, l, static_cast<std::size_t>(m) + 1);
    const int r = s.mr[l] == none ? s.mw[l] : std::min(s.mw[l], s.mr[l] + 1);
    or_readers_from(full, l, static_cast<std::size_t>(r));
  }
  or_words(full, img, W);
}

// Kahn's algorithm on the psc edges: repeatedly remove an sc event without successors. With
// `ranks`, the k-th event removed gets rank -rank_gap * (1 + k): every edge a -> b then has
// rank(a) < rank(b) (b is removed before a), all below the stamps that rank newer events. The
// gaps leave room for the SC axiom's check to sink an event just above its predecessors
// (rc11.cpp).
bool fast_psc::acyclic(hb_clocks* ranks) {
  s.stack.clear();
  for (std::size_t a = 0; a < S; ++a)
    if (s.outdeg[a] == 0) s.stack.push_back(static_cast<std::uint32_t>(a));
  std::size_t removed = 0;
  s.order.clear();
  while (!s.stack.empty()) {
    // The oldest sink first: it gets the highest rank of those left, newer events lower. New
    // psc edges mostly go from newer events to older ones (a thread explored later reads
    // values older than writes explored earlier), and such ranks order them already.
    std::size_t pick = 0;
    for (std::size_t k = 1; k < s.stack.size(); ++k)
      if (s.sc[s.stack[k]].stamp < s.sc[s.stack[pick]].stamp) pick = k;
    const std::size_t b = s.stack[pick];
    s.stack[pick] = s.stack.back();
    s.stack.pop_back();
    s.order.push_back(static_cast<std::uint32_t>(b));
    ++removed;
    const word* p = &s.pred[b * SW];
    for (std::size_t w = 0; w < SW; ++w)
      for (word bits = p[w]; bits != 0; bits &= bits - 1) {
        const std::size_t a = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        if (--s.outdeg[a] == 0) s.stack.push_back(static_cast<std::uint32_t>(a));
      }
  }
  if (removed != S) return false;  // a cycle: the ranks stay those of the graph before
  if (ranks != nullptr) {
    for (std::size_t k = 0; k < S; ++k) {
      const sc_event& e = s.sc[s.order[k]];
      ranks->ev[e.thread][e.index].rank = -rank_gap * (1 + static_cast<std::int32_t>(k));
    }
    ranks->ranks_valid = true;
    ++ranks->rank_epoch;
  }
  return true;
}

}  // namespace

namespace {

// psc_acyclic; with `ranks` (g's own clocks), an acyclic answer also ranks the sc events.
bool check(const graph& g, const hb_clocks& c, hb_clocks* ranks) {
  std::size_t nsc = 0;
  for (const auto& th : g.threads)
    for (const event& e : th)
      nsc += is_sc(e) ? 1 : 0;
  // As the reference: one sc event has no cycle on coherent graphs (rc11.cpp checks coherence
  // first); on incoherent ones a fence can have a psc self-loop, which is not looked for.
  if (nsc < 2) {
    if (ranks != nullptr) {  // any ranks order at most one event
      ranks->ranks_valid = true;
      ++ranks->rank_epoch;
    }
    return true;
  }
  static thread_local psc_scratch scratch;
  fast_psc p{g, c, scratch};
  if (!p.prepare()) {
    if (ranks != nullptr) ranks->ranks_valid = false;  // the reference does not rank
    return psc_acyclic_reference(g, c);
  }
  psc_scratch& s = scratch;
  const std::size_t S = p.S, W = p.W, SW = p.SW;
  s.img.resize(W);
  s.full.resize(W);
  s.pred.assign(S * SW, 0);
  s.outdeg.assign(S, 0);
  for (std::size_t a = S; a-- > 0;) {  // last to first: see fast_psc::scanned
    const sc_event& ea = s.sc[a];
    std::fill(s.img.begin(), s.img.end(), word{0});
    std::fill(s.full.begin(), s.full.end(), word{0});
    if (ea.fence)
      p.scb_eco_of_fence(ea.thread, ea.index);
    else
      p.scb_of_access(ea.thread, ea.index);
    const word* out = ea.fence ? s.full.data() : s.img.data();
    for (std::size_t b = 0; b < S; ++b) {
      const sc_event& eb = s.sc[b];
      bool edge = false;
      if (!eb.fence) {
        edge = test_bit(s.img.data(), eb.flat);  // psc_base into [E_sc]
      } else {
        // psc_base into hb?;[F_sc], and psc_F = [F_sc]; (hb ∪ hb; eco; hb); [F_sc]
        const word* before = &s.before[b * W];
        edge = intersects(out, before, W) || (ea.fence && a != b && test_bit(before, ea.flat));
      }
      if (edge) {
        set_bit(&s.pred[b * SW], a);
        ++s.outdeg[a];
      }
    }
  }
  p.reset_fence_scan();
  return p.acyclic(ranks);
}

}  // namespace

bool psc_acyclic(const graph& g, const hb_clocks& c) {
  return check(g, c, nullptr);
}

bool psc_certify(const graph& g, hb_clocks& cache) {
  const hb_clocks* c = hb_of(g, cache);
  if (c == nullptr) return false;
  return check(g, *c, &cache);
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
