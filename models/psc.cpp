// models/psc.cpp: acyclicity of RC11's psc (see psc.hpp), with bitsets over events.
#include "models/psc.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "models/consistency.hpp"

namespace stealcheck::model {

namespace {

using bits = std::vector<std::uint64_t>;

struct psc_ctx {
  const graph& g;
  const hb_clocks& c;
  std::size_t n = 0, words = 0;
  std::vector<event_id> ids;                      // flat -> id
  std::vector<int> mopos;                         // flat -> mo position (writes), -1 otherwise
  std::vector<std::vector<std::size_t>> readers;  // flat write -> flat readers
  std::vector<bits> scb_memo, eco_memo;
  std::vector<bool> scb_done, eco_done;
  std::vector<std::vector<std::size_t>> by_loc;  // flat accesses per location

  psc_ctx(const graph& gg, const hb_clocks& cc) : g(gg), c(cc) {
    n = c.base[g.threads.size()];
    words = (n + 63) / 64;
    ids.resize(n);
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      for (std::size_t i = 0; i < g.threads[t].size(); ++i)
        ids[c.base[t] + i] = {static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
    mopos.assign(n, -1);
    for (const auto& m : g.mo)
      for (std::size_t k = 0; k < m.size(); ++k)
        mopos[flat(m[k])] = static_cast<int>(k);
    readers.resize(n);
    for (std::size_t f = 0; f < n; ++f) {
      const event& e = g.at(ids[f]);
      if (is_read(e)) readers[flat(e.rf)].push_back(f);
    }
    scb_memo.resize(n);
    scb_done.assign(n, false);
    eco_memo.resize(n);
    eco_done.assign(n, false);
    by_loc.resize(g.locs.size());
    for (std::size_t f = 0; f < n; ++f)
      if (is_access(ev(f))) by_loc[ev(f).loc].push_back(f);
  }
  std::size_t flat(event_id e) const {
    return c.base[static_cast<std::size_t>(e.thread)] + static_cast<std::size_t>(e.index);
  }
  const event& ev(std::size_t f) const { return g.at(ids[f]); }
  static void set(bits& b, std::size_t i) { b[i / 64] |= std::uint64_t{1} << (i % 64); }
  static bool test(const bits& b, std::size_t i) { return (b[i / 64] >> (i % 64)) & 1U; }
  bits empty() const { return bits(words, 0); }
  bool same_loc(std::size_t a, std::size_t b) const {
    return is_access(ev(a)) && is_access(ev(b)) && ev(a).loc == ev(b).loc;
  }

  bits hb_after(std::size_t x) const {
    bits b = empty();
    for (std::size_t y = 0; y < n; ++y)
      if (c.hb(ids[x], ids[y])) set(b, y);
    return b;
  }
  bits hb_before(std::size_t y) const {
    bits b = empty();
    for (std::size_t x = 0; x < n; ++x)
      if (c.hb(ids[x], ids[y])) set(b, x);
    return b;
  }
  // Writes mo-after write w (flat), and optionally their readers.
  void mo_after(std::size_t w, bits& out, bool with_readers) const {
    const auto& m = g.mo[ev(w).loc];
    for (std::size_t k = static_cast<std::size_t>(mopos[w]) + 1; k < m.size(); ++k) {
      const std::size_t f = flat(m[k]);
      set(out, f);
      if (with_readers)
        for (const std::size_t r : readers[f])
          set(out, r);
    }
  }
  void po_hb_po(std::size_t x, bits& out) const;
  const bits& scb(std::size_t x);
  const bits& eco(std::size_t x);
};

// po|≠loc; hb; po|≠loc from x: via the po-first event x' after x at another location.
void psc_ctx::po_hb_po(std::size_t x, bits& out) const {
  const event_id xi = ids[x];
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
      if (c.hb(ids[xp], {static_cast<std::int32_t>(u), static_cast<std::int32_t>(mid)}))
        hi = mid;
      else
        lo = mid + 1;
    }
    const std::size_t k = lo;
    for (std::size_t y = k + 1; y < len; ++y) {
      for (std::size_t j = k; j < y; ++j)
        if (!same_loc(c.base[u] + j, c.base[u] + y)) {
          set(out, c.base[u] + y);
          break;
        }
    }
  }
}

const bits& psc_ctx::scb(std::size_t x) {
  if (scb_done[x]) return scb_memo[x];
  bits b = empty();
  const event_id xi = ids[x];
  const std::size_t len = g.threads[static_cast<std::size_t>(xi.thread)].size();
  for (std::size_t j = static_cast<std::size_t>(xi.index) + 1; j < len; ++j)
    set(b, x + (j - static_cast<std::size_t>(xi.index)));  // po
  const event& e = ev(x);
  if (is_access(e)) {
    for (const std::size_t y : by_loc[e.loc])
      if (c.hb(xi, ids[y])) set(b, y);  // hb|loc
    if (is_write(e))
      mo_after(x, b, false);  // mo
    else
      mo_after(flat(e.rf), b, false);  // rb
  }
  po_hb_po(x, b);
  scb_memo[x] = std::move(b);
  scb_done[x] = true;
  return scb_memo[x];
}

const bits& psc_ctx::eco(std::size_t x) {
  if (eco_done[x]) return eco_memo[x];
  eco_done[x] = true;
  bits& b = eco_memo[x];
  b = empty();
  const event& e = ev(x);
  if (is_write(e)) {
    for (const std::size_t r : readers[x])
      set(b, r);
    mo_after(x, b, true);
  } else if (is_read(e)) {
    mo_after(flat(e.rf), b, true);
  }
  return b;
}

bool intersects(const bits& a, const bits& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] & b[i]) return true;
  return false;
}

bool acyclic(const std::vector<std::vector<std::size_t>>& succ) {
  const std::size_t m = succ.size();
  std::vector<int> state(m, 0);
  std::function<bool(std::size_t)> dfs = [&](std::size_t v) {
    state[v] = 1;
    for (const std::size_t w : succ[v]) {
      if (state[w] == 1) return false;
      if (state[w] == 0 && !dfs(w)) return false;
    }
    state[v] = 2;
    return true;
  };
  for (std::size_t v = 0; v < m; ++v)
    if (state[v] == 0 && !dfs(v)) return false;
  return true;
}

}  // namespace

bool psc_acyclic(const graph& g, const hb_clocks& c) {
  psc_ctx p(g, c);
  std::vector<std::size_t> sc;
  for (std::size_t f = 0; f < p.n; ++f)
    if (is_sc(p.ev(f))) sc.push_back(f);
  if (sc.size() < 2) return true;  // a cycle needs two sc events (psc is irreflexive here)
  const std::size_t s = sc.size();
  std::vector<bits> left(s), right(s), after(s);
  for (std::size_t k = 0; k < s; ++k) {
    const bool fence = p.ev(sc[k]).kind == event_kind::fence;
    left[k] = fence ? p.hb_after(sc[k]) : p.empty();
    after[k] = left[k];
    psc_ctx::set(left[k], sc[k]);
    right[k] = fence ? p.hb_before(sc[k]) : p.empty();
    psc_ctx::set(right[k], sc[k]);
  }
  std::vector<std::vector<std::size_t>> succ(s);
  for (std::size_t a = 0; a < s; ++a) {
    bits row = p.empty();
    for (std::size_t x = 0; x < p.n; ++x)
      if (psc_ctx::test(left[a], x)) {
        const bits& r = p.scb(x);
        for (std::size_t w = 0; w < p.words; ++w)
          row[w] |= r[w];
      }
    const bool fa = p.ev(sc[a]).kind == event_kind::fence;
    bits z = p.empty();
    if (fa)
      for (std::size_t x = 0; x < p.n; ++x)
        if (psc_ctx::test(after[a], x)) {
          const bits& e = p.eco(x);
          for (std::size_t w = 0; w < p.words; ++w)
            z[w] |= e[w];
        }
    for (std::size_t b = 0; b < s; ++b) {
      bool edge = intersects(row, right[b]);
      if (!edge && fa && p.ev(sc[b]).kind == event_kind::fence)
        edge = psc_ctx::test(after[a], sc[b]) || intersects(z, right[b]);
      if (edge) {
        if (a == b) return false;
        succ[a].push_back(b);
      }
    }
  }
  return acyclic(succ);
}

}  // namespace stealcheck::model
