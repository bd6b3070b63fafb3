// models/psc_reference.cpp: acyclicity of RC11's psc (see psc.hpp) computed the direct way,
// with bitsets over all events: the test oracle for psc_acyclic (models/tests/psc_test.cpp).
// Complexity: O(S * E^2 / 64) for S sc events and E events; O(E) when S < 2.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/psc.hpp"

namespace stealcheck::model {

namespace {

using word = std::uint64_t;

// Reused storage: the vectors keep their capacity across calls (psc runs once per explored
// event, and allocation used to dominate it).
struct psc_scratch {
  std::vector<event_id> ids;
  std::vector<int> mopos;
  std::vector<std::vector<std::size_t>> readers, by_loc;
  std::vector<word> scb_memo, eco_memo;
  std::vector<char> scb_done, eco_done;
  std::vector<std::size_t> sc;
  std::vector<word> left, right, after, row, z;
  std::vector<std::vector<std::size_t>> succ;
  std::vector<int> state;
  std::vector<std::pair<std::size_t, std::size_t>> stack;
};

void reset(std::vector<std::vector<std::size_t>>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i].clear();
}

struct psc_ctx {
  const graph& g;
  const hb_clocks& c;
  psc_scratch& s;
  std::size_t n = 0, words = 0;

  psc_ctx(const graph& gg, const hb_clocks& cc, psc_scratch& ss) : g(gg), c(cc), s(ss) {
    n = c.base[g.threads.size()];
    words = (n + 63) / 64;
    s.ids.resize(n);
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      for (std::size_t i = 0; i < g.threads[t].size(); ++i)
        s.ids[c.base[t] + i] = {static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
    s.mopos.assign(n, -1);
    for (const auto& m : g.mo)
      for (std::size_t k = 0; k < m.size(); ++k)
        s.mopos[flat(m[k])] = static_cast<int>(k);
    reset(s.readers, n);
    reset(s.by_loc, g.locs.size());
    for (std::size_t f = 0; f < n; ++f) {
      const event& e = g.at(s.ids[f]);
      if (is_read(e)) s.readers[flat(e.rf)].push_back(f);
      if (is_access(e)) s.by_loc[e.loc].push_back(f);
    }
    s.scb_memo.resize(n * words);
    s.scb_done.assign(n, 0);
    s.eco_memo.resize(n * words);
    s.eco_done.assign(n, 0);
  }
  std::size_t flat(event_id e) const { return c.flat(e); }
  event_id id(std::size_t f) const { return s.ids[f]; }
  const event& ev(std::size_t f) const { return g.at(s.ids[f]); }
  static void set(word* b, std::size_t i) { b[i / 64] |= word{1} << (i % 64); }
  static bool test(const word* b, std::size_t i) { return (b[i / 64] >> (i % 64)) & 1U; }
  bool same_loc(std::size_t a, std::size_t b) const {
    return is_access(ev(a)) && is_access(ev(b)) && ev(a).loc == ev(b).loc;
  }

  void hb_after(std::size_t x, word* b) const {
    for (std::size_t y = 0; y < n; ++y)
      if (c.hb(id(x), id(y))) set(b, y);
  }
  void hb_before(std::size_t y, word* b) const {
    for (std::size_t x = 0; x < n; ++x)
      if (c.hb(id(x), id(y))) set(b, x);
  }
  // Writes mo-after write w (flat), and optionally their readers.
  void mo_after(std::size_t w, word* out, bool with_readers) const {
    const auto& m = g.mo[ev(w).loc];
    for (std::size_t k = static_cast<std::size_t>(s.mopos[w]) + 1; k < m.size(); ++k) {
      const std::size_t f = flat(m[k]);
      set(out, f);
      if (with_readers)
        for (const std::size_t r : s.readers[f])
          set(out, r);
    }
  }
  void po_hb_po(std::size_t x, word* out) const;
  const word* scb(std::size_t x);
  const word* eco(std::size_t x);
};

// po|≠loc; hb; po|≠loc from x: via the po-first event x' after x at another location.
void psc_ctx::po_hb_po(std::size_t x, word* out) const {
  const event_id xi = id(x);
  const auto& th = g.threads[static_cast<std::size_t>(xi.thread)];
  std::size_t xp = n;
  for (std::size_t j = static_cast<std::size_t>(xi.index) + 1; j < th.size(); ++j)
    if (!same_loc(x, x + (j - static_cast<std::size_t>(xi.index)))) {
      xp = x + (j - static_cast<std::size_t>(xi.index));
      break;
    }
  if (xp == n) return;
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const std::size_t len = g.threads[u].size();
    // hb-successors of xp form a po-suffix of each thread: binary search its start.
    std::size_t lo = 0, hi = len;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (c.hb(id(xp), {static_cast<std::int32_t>(u), static_cast<std::int32_t>(mid)}))
        hi = mid;
      else
        lo = mid + 1;
    }
    const std::size_t k = lo;
    if (k >= len) continue;
    // y is reached iff some j in [k, y) is not at y's location: unless [k, y) holds only
    // accesses to one location L ("uniform"), every y qualifies; otherwise y qualifies iff it
    // is not an access to L. One pass instead of a pair loop.
    const std::size_t b = c.base[u];
    bool uniform = is_access(ev(b + k));
    const std::uint32_t l = ev(b + k).loc;
    for (std::size_t y = k + 1; y < len; ++y) {
      const event& ey = ev(b + y);
      const bool at_l = is_access(ey) && ey.loc == l;
      if (!uniform || !at_l) set(out, b + y);
      uniform = uniform && at_l;
    }
  }
}

const word* psc_ctx::scb(std::size_t x) {
  word* b = &s.scb_memo[x * words];
  if (s.scb_done[x] != 0) return b;
  s.scb_done[x] = 1;
  std::fill_n(b, words, word{0});
  const event_id xi = id(x);
  const std::size_t len = g.threads[static_cast<std::size_t>(xi.thread)].size();
  for (std::size_t j = static_cast<std::size_t>(xi.index) + 1; j < len; ++j)
    set(b, x + (j - static_cast<std::size_t>(xi.index)));  // po
  const event& e = ev(x);
  if (is_access(e)) {
    for (const std::size_t y : s.by_loc[e.loc])
      if (c.hb(xi, id(y))) set(b, y);  // hb|loc
    if (is_write(e))
      mo_after(x, b, false);  // mo
    else
      mo_after(flat(e.rf), b, false);  // rb
  }
  po_hb_po(x, b);
  return b;
}

const word* psc_ctx::eco(std::size_t x) {
  word* b = &s.eco_memo[x * words];
  if (s.eco_done[x] != 0) return b;
  s.eco_done[x] = 1;
  std::fill_n(b, words, word{0});
  const event& e = ev(x);
  if (is_write(e)) {
    for (const std::size_t r : s.readers[x])
      set(b, r);
    mo_after(x, b, true);
  } else if (is_read(e)) {
    mo_after(flat(e.rf), b, true);
  }
  return b;
}

bool intersects(const word* a, const word* b, std::size_t words) {
  for (std::size_t i = 0; i < words; ++i)
    if ((a[i] & b[i]) != 0) return true;
  return false;
}

// Iterative DFS (no recursion, no std::function).
bool acyclic(psc_scratch& s, std::size_t m) {
  s.state.assign(m, 0);
  for (std::size_t root = 0; root < m; ++root) {
    if (s.state[root] != 0) continue;
    s.stack.clear();
    s.stack.emplace_back(root, 0);
    s.state[root] = 1;
    while (!s.stack.empty()) {
      auto& [v, next] = s.stack.back();
      if (next < s.succ[v].size()) {
        const std::size_t w = s.succ[v][next++];
        if (s.state[w] == 1) return false;
        if (s.state[w] == 0) {
          s.state[w] = 1;
          s.stack.emplace_back(w, 0);
        }
      } else {
        s.state[v] = 2;
        s.stack.pop_back();
      }
    }
  }
  return true;
}

}  // namespace

namespace {

// The psc successors of every sc event (s.sc[k] is the flat number of the k-th) in s.succ.
// Stops at the first self-loop unless `all`; returns whether there was none.
bool build_edges(const graph& g, const hb_clocks& c, psc_scratch& s, bool all) {
  psc_ctx p(g, c, s);
  s.sc.clear();
  for (std::size_t f = 0; f < p.n; ++f)
    if (is_sc(p.ev(f))) s.sc.push_back(f);
  const std::size_t n = s.sc.size();
  const std::size_t W = p.words;
  s.left.assign(n * W, 0);
  s.right.assign(n * W, 0);
  s.after.assign(n * W, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const bool fence = p.ev(s.sc[k]).kind == event_kind::fence;
    if (fence) p.hb_after(s.sc[k], &s.left[k * W]);
    std::copy_n(&s.left[k * W], W, &s.after[k * W]);
    psc_ctx::set(&s.left[k * W], s.sc[k]);
    if (fence) p.hb_before(s.sc[k], &s.right[k * W]);
    psc_ctx::set(&s.right[k * W], s.sc[k]);
  }
  if (s.succ.size() < n) s.succ.resize(n);
  for (std::size_t a = 0; a < n; ++a)
    s.succ[a].clear();
  for (std::size_t a = 0; a < n; ++a) {
    s.row.assign(W, 0);
    const word* la = &s.left[a * W];
    for (std::size_t x = 0; x < p.n; ++x)
      if (psc_ctx::test(la, x)) {
        const word* r = p.scb(x);
        for (std::size_t w = 0; w < W; ++w)
          s.row[w] |= r[w];
      }
    const bool fa = p.ev(s.sc[a]).kind == event_kind::fence;
    s.z.assign(W, 0);
    const word* aa = &s.after[a * W];
    if (fa)
      for (std::size_t x = 0; x < p.n; ++x)
        if (psc_ctx::test(aa, x)) {
          const word* e = p.eco(x);
          for (std::size_t w = 0; w < W; ++w)
            s.z[w] |= e[w];
        }
    for (std::size_t b = 0; b < n; ++b) {
      const word* rb = &s.right[b * W];
      bool edge = intersects(s.row.data(), rb, W);
      if (!edge && fa && p.ev(s.sc[b]).kind == event_kind::fence)
        edge = psc_ctx::test(aa, s.sc[b]) || intersects(s.z.data(), rb, W);
      if (edge) {
        if (a == b && !all) return false;
        s.succ[a].push_back(b);
      }
    }
  }
  return true;
}

}  // namespace

bool psc_acyclic_reference(const graph& g, const hb_clocks& c) {
  std::size_t nsc = 0;
  for (const auto& th : g.threads)
    for (const event& e : th)
      if (is_sc(e) && ++nsc >= 2) break;
  if (nsc < 2) return true;  // a cycle needs two sc events (psc is irreflexive here)
  static thread_local psc_scratch scratch;
  return build_edges(g, c, scratch, false) && acyclic(scratch, scratch.sc.size());
}

std::vector<std::pair<event_id, event_id>> psc_edges_reference(const graph& g, const hb_clocks& c) {
  psc_scratch s;
  build_edges(g, c, s, true);
  auto id = [&](std::size_t k) {  // flat number -> (thread, index)
    const std::size_t f = s.sc[k];
    std::size_t t = 0;
    while (c.base[t + 1] <= f)
      ++t;
    return event_id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(f - c.base[t])};
  };
  std::vector<std::pair<event_id, event_id>> out;
  for (std::size_t a = 0; a < s.sc.size(); ++a)
    for (const std::size_t b : s.succ[a])
      out.emplace_back(id(a), id(b));
  return out;
}

}  // namespace stealcheck::model
