// models/graph/rc11.cpp: RC11 consistency (Lahav et al., PLDI 2017, section 3):
//   (1) no-thin-air: acyclic(po ∪ rf) (with thread edges), via hb_of;
//   (2) coherence: irreflexive(hb; eco?), checked per location with mo positions;
//   (3) atomicity: rmw ∩ (rb; mo) = ∅ (rmw_atomic, sc.cpp);
//   (4) SC: acyclic(psc), psc = psc_base ∪ psc_F (models/graph/psc.cpp).
#include "stealcheck/detail/models/graph/rc11.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <limits>
#include <vector>

#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/graph/psc.hpp"
#include "stealcheck/detail/models/graph/sc.hpp"

namespace stealcheck::model {

namespace {

// pos[c.flat(e)] = the mo position of write e; -1 for every other event.
void mo_positions(const graph& g, const hb_clocks& c, std::vector<int>& pos) {
  pos.assign(c.base[g.threads.size()], -1);
  for (const auto& m : g.mo)
    for (std::size_t k = 0; k < m.size(); ++k)
      pos[c.flat(m[k])] = static_cast<int>(k);
}

// Reused storage of coherent() (it runs for every backward revisit): no allocation per call
// once warm.
struct coherence_scratch {
  std::vector<int> pos;  // per event (flat numbering c.base): mo position of a write, else -1
  struct acc {
    std::int32_t index;
    int prefmax;  // the largest wpos among this and the earlier accesses of the list
  };
  std::vector<std::vector<acc>> by;  // per (location, thread): accesses in po order
};

// Coherence: for same-location accesses a hb b: if b is a write, wpos(a) < wpos(b); if b is
// a read, wpos(a) <= wpos(b), where wpos(e) is the mo position of e (write) or of the write
// it reads (read). This is exactly irreflexive(hb; eco) (eco = rf ∪ mo;rf? ∪ rb;rf?). Per
// location and thread, the accesses hb-before b form a po-prefix, so the prefix maximum of
// wpos suffices.
bool coherent(const graph& g, const hb_clocks& c) {
  static thread_local coherence_scratch s;
  const std::size_t nt = g.threads.size();
  mo_positions(g, c, s.pos);
  auto flat = [&](event_id e) { return c.flat(e); };
  auto wpos = [&](std::size_t t, std::size_t i) {
    const event& e = g.threads[t][i];
    return is_read(e) ? (g.contains(e.rf) ? s.pos[flat(e.rf)] : -1) : s.pos[c.base[t] + i];
  };
  const std::size_t lists = g.locs.size() * nt;
  if (s.by.size() < lists) s.by.resize(lists);
  for (std::size_t k = 0; k < lists; ++k)
    s.by[k].clear();
  for (std::size_t t = 0; t < nt; ++t) {
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (!is_access(e)) continue;
      auto& v = s.by[e.loc * nt + t];
      const int w = wpos(t, i);
      if (w < 0) return false;  // dangling rf: not a graph we can judge
      v.push_back({static_cast<std::int32_t>(i), v.empty() ? w : std::max(v.back().prefmax, w)});
    }
  }
  for (std::size_t t = 0; t < nt; ++t) {
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (!is_access(e)) continue;
      const int mine = wpos(t, i);
      const hb_clocks::clock* clk =
          c.of({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)});
      for (std::size_t u = 0; u < nt; ++u) {
        const auto& v = s.by[e.loc * nt + u];
        const std::int32_t limit = u == t ? static_cast<std::int32_t>(i) : clk[u];
        int best = -1;
        for (auto it = v.rbegin(); it != v.rend(); ++it)
          if (it->index < limit) {
            best = it->prefmax;
            break;
          }
        if (best < 0) continue;
        if (is_write(e) ? best >= mine : best > mine) return false;
      }
    }
  }
  return true;
}

}  // namespace

namespace {
// The existing writes that the new event `id` puts mo-after itself (a write not placed
// mo-last) or rb-after itself (a read of a write that is not mo-maximal), other than this
// RMW's own write part: a new event is po- and hb-maximal with no readers, so these are its
// only possible scb successors, and its eco successors are these and their readers.
template <class F>
void for_each_new_scb_target(const graph& g, event_id id, F&& f) {
  const event& e = g.at(id);
  if (!is_access(e)) return;
  const auto& m = g.mo[e.loc];
  const event_id from = is_read(e) ? e.rf : id;
  for (std::size_t k = m.size(); k-- > 0 && !(m[k] == from);)  // usually none: from is mo-last
    if (!(m[k].thread == id.thread && m[k].index == id.index + 1)) f(m[k]);
}

// Whether `id` has no new scb target (the usual case), without building a list.
bool no_new_scb_targets(const graph& g, event_id id) {
  bool none = true;
  for_each_new_scb_target(g, id, [&](event_id) { none = false; });
  return none;
}

// The highest psc rank among the possible psc-predecessors of the sc event s, or the least
// int32 if there are none. What it looks at is a superset of the predecessors: an edge a -> s
// is psc_base (a = x sc, or an sc fence hb-before x; x scb y; y = s or y hb s) or psc_F (a an
// sc fence, a hb x, x eco z, z hb s). With B the events hb?-before s (a po-prefix of each
// thread): an x in B gives an a in B (fences hb-before x are in B); an x outside B can only
// reach B by mo, rb or eco, so it accesses a location l at a write mo-before-or-equal the
// mo-latest write that an access of B to l writes or reads (Mw_l), or reads one mo-before it.
// So: the sc events of B other than s, the sc events of that set X, and the sc fences
// hb-before an event of X (per thread, hb-before its po-last event of X). O(E + F * T).
std::int32_t max_pred_rank(const graph& g, const hb_clocks& c, event_id s,
                           const boost::container::small_vector<event_id, 16>& fences) {
  static thread_local std::vector<int> pos;  // mo positions (mo_positions)
  const std::size_t nt = g.threads.size();
  mo_positions(g, c, pos);
  auto flat = [&](event_id e) { return c.flat(e); };
  boost::container::small_vector<int, 16> mw(g.locs.size(), -1);  // Mw_l
  std::int32_t best = std::numeric_limits<std::int32_t>::min();
  const hb_clocks::clock* clk = c.of(s);
  for (std::size_t u = 0; u < nt; ++u) {
    const std::size_t lim = std::min(static_cast<std::size_t>(clk[u]), g.threads[u].size());
    for (std::size_t i = 0; i < lim; ++i) {
      const event& e = g.threads[u][i];
      const event_id id{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
      if (is_sc(e) && !(id == s)) best = std::max(best, c.rank(id));
      if (is_access(e)) mw[e.loc] = std::max(mw[e.loc], pos[is_read(e) ? flat(e.rf) : flat(id)]);
    }
  }
  std::int32_t last_x[hb_clocks::width];  // per thread: the po-last event of X, or -1
  for (std::size_t u = 0; u < nt; ++u) {
    last_x[u] = -1;
    for (std::size_t i = static_cast<std::size_t>(clk[u]); i < g.threads[u].size(); ++i) {
      const event& e = g.threads[u][i];
      if (!is_access(e) || mw[e.loc] < 0) continue;
      const event_id id{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
      if (is_read(e) ? pos[flat(e.rf)] >= mw[e.loc] : pos[flat(id)] > mw[e.loc]) continue;
      if (is_sc(e)) best = std::max(best, c.rank(id));
      last_x[u] = id.index;
    }
  }
  for (const event_id f : fences) {
    if (f.index < clk[f.thread]) continue;  // in B: counted above
    for (std::size_t u = 0; u < nt; ++u)
      if (last_x[u] >= 0 && c.hb_eq(f, {static_cast<std::int32_t>(u), last_x[u]})) {
        best = std::max(best, c.rank(f));
        break;
      }
  }
  return best;
}

// The SC axiom after adding `added` (and its read part, for an RMW's write part) to a graph
// whose psc was acyclic. A new cycle needs a new psc edge on it, and every new edge that can
// lie on a cycle goes from a *source*, a new event that is sc or an sc fence hb-before
// `added`, to an *end*: an sc event among the new scb targets y, an sc fence hb-after such a
// y, or an sc fence hb-after a reader of one (RC11's psc_base [F_sc]; hb?; scb; hb?; [F_sc]
// and psc_F = [F_sc]; hb; eco; hb; [F_sc]). Edges *into* a new event close nothing without
// one going out, and hb between existing events is unchanged (the new event is hb-maximal).
// So with no source or no end the graph stays acyclic. When the graph's psc ranks are valid
// (hb_clocks, psc_certify: each old edge goes up in rank) and every source ranks below every
// end, each new edge goes up too: the ranks stay a topological order, psc stays acyclic and
// is not computed. A source ranked too high (typically a new sc fence, ranked by its stamp
// above everything) is first lowered to halfway between its possible predecessors
// (max_pred_rank) and the lowest end, which orders the new edges unless an end may reach
// it. Only otherwise does psc_certify decide, and rank the graph afresh.
bool sc_axiom_after(const graph& g, hb_clocks& cache, event_id added) {
  const event& e = g.at(added);
  const bool rmw_write = e.kind == event_kind::write && e.rmw && added.index > 0;
  const event_id read_part{added.thread, added.index - 1};
  // the usual case, decided before any list is built: no new scb target, so no new psc edge
  // out of the new events (and a new event closes no po ∪ rf cycle either: no clocks needed)
  if (no_new_scb_targets(g, added) && (!rmw_write || no_new_scb_targets(g, read_part))) return true;
  boost::container::small_vector<event_id, 8> y;
  auto add = [&](event_id w) { y.push_back(w); };
  for_each_new_scb_target(g, added, add);
  if (rmw_write) for_each_new_scb_target(g, read_part, add);
  if (y.empty()) return true;
  const hb_clocks* h = hb_of(g, cache);
  if (h == nullptr) return false;
  const hb_clocks& c = *h;
  boost::container::small_vector<event_id, 16> fences;  // the sc fences
  for (std::size_t u = 0; u < g.threads.size(); ++u)
    if (!g.threads[u].empty())  // the chain of u's sc fences kept in the hb entries
      for (std::int32_t k = c.ev[u][g.threads[u].size() - 1].scf; k >= 0;
           k = k > 0 ? c.ev[u][static_cast<std::size_t>(k) - 1].scf : -1)
        fences.push_back({static_cast<std::int32_t>(u), k});
  boost::container::small_vector<event_id, 16> sources;
  bool end = false;
  std::int32_t hi = std::numeric_limits<std::int32_t>::min();
  std::int32_t lo = std::numeric_limits<std::int32_t>::max();
  auto add_source = [&](event_id x) {
    sources.push_back(x);
    hi = std::max(hi, c.rank(x));
  };
  auto add_end = [&](event_id z) {
    end = true;
    lo = std::min(lo, c.rank(z));
  };
  if (is_sc(e)) add_source(added);
  if (rmw_write && is_sc(g.at(read_part))) add_source(read_part);
  for (const event_id f : fences)
    if (c.hb(f, added)) add_source(f);
  if (sources.empty()) return true;
  auto fences_after = [&](event_id z) {
    for (const event_id f : fences)
      if (c.hb(z, f)) add_end(f);
  };
  for (const event_id w : y) {
    if (is_sc(g.at(w))) add_end(w);
    fences_after(w);
  }
  // The readers' fences add ends; with ranks not valid, one end already decides. Only a
  // fence that would be the first end or rank below the lowest end so far can change what
  // follows, so only readers hb-before such a fence are looked for.
  if (!fences.empty() && (c.ranks_valid || !end)) {
    std::int32_t reach[hb_clocks::width] = {};  // per thread: events hb-before such a fence
    for (const event_id f : fences)
      if (!end || c.rank(f) < lo)
        for (std::size_t u = 0; u < g.threads.size(); ++u)
          reach[u] = std::max<std::int32_t>(reach[u], c.of(f)[u]);
    for (std::size_t u = 0; u < g.threads.size(); ++u)
      for (std::size_t i = 0; i < static_cast<std::size_t>(reach[u]); ++i) {
        const event& r = g.threads[u][i];
        if (is_read(r) && r.loc == e.loc && std::find(y.begin(), y.end(), r.rf) != y.end())
          fences_after({static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
      }
  }
  if (!end) return true;
  if (!c.ranks_valid) return psc_certify(g, cache);
  if (hi < lo) return true;
  // Sink each source at or above an end to below the ends and above its possible
  // psc-predecessors: the ranks stay a topological order (the source's successors rank above
  // it already), and they may now order the new edges too. The explorer re-checks choices made
  // under older ranks.
  hi = std::numeric_limits<std::int32_t>::min();
  for (const event_id x : sources) {
    std::int32_t& r =
        cache.ev[static_cast<std::size_t>(x.thread)][static_cast<std::size_t>(x.index)].rank;
    if (r >= lo) {
      const std::int32_t p = max_pred_rank(g, c, x, fences);
      if (std::int64_t{p} < std::int64_t{lo} - 1) {
        // halfway between: a later source with the same predecessors and an edge into
        // this one still finds room below it (p + 1 used the room up in one step)
        r = static_cast<std::int32_t>(p + (std::int64_t{lo} - p) / 2);
        ++cache.rank_epoch;
      }
    }
    hi = std::max(hi, r);
  }
  if (hi < lo) return true;
  return psc_certify(g, cache);
}
}  // namespace

namespace {
// Coherence for the pairs that end in the new event b (the only new pairs: b is hb-maximal,
// and inserting a write into mo keeps the order of the other writes).
bool coherent_at(const graph& g, const hb_clocks& c, event_id b) {
  const event& eb = g.at(b);
  if (!is_access(eb)) return true;
  const int mine = g.mo_pos(is_read(eb) ? eb.rf : b);
  if (mine < 0) return false;
  // The writes a violating access may see: mo-after-or-equal b (b a write), mo-after b's
  // write (b a read). Usually none or one, so membership replaces a mo_pos per access.
  const auto& m = g.mo[eb.loc];
  const std::size_t from = static_cast<std::size_t>(mine) + (is_write(eb) ? 0 : 1);
  if (from >= m.size()) return true;
  auto late = [&](event_id w) {
    for (std::size_t k = from; k < m.size(); ++k)
      if (m[k] == w) return true;
    return false;
  };
  const hb_clocks::clock* clk = c.of(b);
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const auto& th = g.threads[u];
    const std::int32_t lim = static_cast<std::int32_t>(u) == b.thread ? b.index : clk[u];
    for (std::int32_t i = 0; i < lim && static_cast<std::size_t>(i) < th.size(); ++i) {
      const event& a = th[static_cast<std::size_t>(i)];
      if (!is_access(a) || a.loc != eb.loc) continue;
      if (late(is_read(a) ? a.rf : event_id{static_cast<std::int32_t>(u), i})) return false;
    }
  }
  return true;
}
}  // namespace

bool rc11_consistent_after(const graph& g, hb_clocks& cache, event_id added) {
  const hb_clocks* h = hb_of(g, cache);
  if (h == nullptr) return false;
  const hb_clocks& c = *h;
  const event& ea = g.at(added);
  if (ea.kind == event_kind::write && ea.rmw && added.index > 0 &&
      !coherent_at(g, c, {added.thread, added.index - 1}))
    return false;
  if (!coherent_at(g, c, added)) return false;
  return rmw_atomic(g) && sc_axiom_after(g, cache, added);
}

bool rc11_consistent_revisit(graph& g, hb_clocks& cache, event_id r, event_id w,
                             const std::vector<event_id>& repaired) {
  if (!cache.ranks_valid) return rc11_consistent(g, cache);
  const hb_clocks* h = hb_of(g, cache);
  if (h == nullptr) return false;
  const hb_clocks& c = *h;
  const bool rmw_w = g.at(w).rmw && w.index > 0;
  const event_id rp{w.thread, w.index - 1};
  // coherence: the only pairs that can be new end in r, w or its read part (a repaired read
  // reads the mo-maximal write, which no access can see a write mo-after)
  if (!coherent_at(g, c, r) || !coherent_at(g, c, w) || (rmw_w && !coherent_at(g, c, rp)) ||
      !rmw_atomic(g))
    return false;
  // The new events, ranked above every other event in the order they are checked (edges
  // into a new event then go up), as if they had just been added: each check sees the
  // events before it as already checked.
  auto lift = [&](event_id e) {
    cache.ev[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)].rank =
        static_cast<std::int32_t>(g.next_stamp++);
  };
  if (rmw_w) lift(rp);
  lift(w);
  lift(r);
  for (const event_id x : repaired)
    lift(x);
  return sc_axiom_after(g, cache, w) && sc_axiom_after(g, cache, r);
}

int coherence_floor(const graph& g, hb_clocks& cache, std::size_t t, std::uint32_t loc) {
  return coherence_floor_at(g, cache, t, g.threads[t].size(), loc);
}

int coherence_floor_at(const graph& g, hb_clocks& cache, std::size_t t, std::size_t index,
                       std::uint32_t loc) {
  const hb_clocks* h = hb_of(g, cache);
  const hb_clocks::clock* clk = nullptr;
  if (h == nullptr) return -1;
  if (index > 0)
    clk = h->of({static_cast<std::int32_t>(t), static_cast<std::int32_t>(index - 1)});
  else if (g.info[t].created_by.valid() && g.contains(g.info[t].created_by))
    clk = h->of(g.info[t].created_by);
  if (clk == nullptr) return -1;
  // The usual case in one look: the mo-maximal write is hb-before the event, so its thread's
  // po-last access to loc there reads or writes it or a write mo-after it: none is after it.
  const auto& m = g.mo[loc];
  if (!m.empty()) {
    const event_id top = m.back();
    const auto u = static_cast<std::size_t>(top.thread);
    const std::size_t lim = u == t ? index : static_cast<std::size_t>(clk[u]);
    if (static_cast<std::size_t>(top.index) < lim) return static_cast<int>(m.size()) - 1;
  }
  // per thread, the write of the po-last access to loc in its hb-prefix (it bounds the
  // earlier ones); the floor is the mo-last of them, found in one backward pass over mo
  // (packed into one word each: an event_id array would be initialized on every call)
  auto pack = [](event_id x) {
    return std::uint64_t{static_cast<std::uint32_t>(x.thread)} << 32 |
           static_cast<std::uint32_t>(x.index);
  };
  std::uint64_t w[hb_clocks::width];
  std::size_t nw = 0;
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const auto& tu = g.threads[u];
    const std::size_t lim = u == t ? index : static_cast<std::size_t>(clk[u]);
    for (std::size_t i = std::min(lim, tu.size()); i-- > 0;) {
      const event& a = tu[i];
      if (!is_access(a) || a.loc != loc) continue;
      w[nw++] = pack(
          is_read(a) ? a.rf : event_id{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
      break;
    }
  }
  if (nw == 0) return -1;
  for (std::size_t k = m.size(); k-- > 0;)
    if (std::find(w, w + nw, pack(m[k])) != w + nw) return static_cast<int>(k);
  return -1;
}

namespace {
// Whether the write at position pos of loc's mo is the write part of an RMW reading from the
// write at pos - 1.
bool rmw_reading_previous(const graph& g, std::uint32_t loc, std::size_t pos) {
  const auto& m = g.mo[loc];
  if (pos == 0 || pos >= m.size()) return false;
  const event& w = g.at(m[pos]);
  if (!w.rmw || m[pos].index == 0) return false;
  const event& r = g.threads[static_cast<std::size_t>(m[pos].thread)]
                            [static_cast<std::size_t>(m[pos].index - 1)];
  return r.rf == m[pos - 1];
}
}  // namespace

bool mo_insert_keeps_atomicity(const graph& g, std::uint32_t loc, std::size_t pos) {
  return !rmw_reading_previous(g, loc, pos);
}

bool rmw_may_read(const graph& g, std::uint32_t loc, std::size_t pos) {
  return !rmw_reading_previous(g, loc, pos + 1);
}

bool rc11_sc_axiom_after(const graph& g, hb_clocks& cache, event_id added) {
  return sc_axiom_after(g, cache, added);
}

bool rc11_consistent(const graph& g, hb_clocks& cache) {
  const hb_clocks* h = hb_of(g, cache);
  if (h == nullptr) return false;
  const hb_clocks& c = *h;
  if (!coherent(g, c)) return false;
  if (!rmw_atomic(g)) return false;
  return psc_certify(g, cache);
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
