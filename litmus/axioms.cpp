// litmus/axioms.cpp: RC11 and SC consistency of candidate executions (see axioms.hpp).
#include "litmus/axioms.hpp"

namespace stealcheck::litmus::detail {
namespace {

using bits = std::uint64_t;
constexpr bits bit(std::size_t i) {
  return bits{1} << i;
}

relation empty(std::size_t n) {
  return relation(n, 0);
}

relation unite(relation a, const relation& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] |= b[i];
  return a;
}

relation compose(const relation& a, const relation& b) {
  relation c = empty(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < a.size(); ++k)
      if ((a[i] & bit(k)) != 0) c[i] |= b[k];
  return c;
}

relation closure(relation a) {  // transitive closure (Warshall)
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i < a.size(); ++i)
      if ((a[i] & bit(k)) != 0) a[i] |= a[k];
  return a;
}

relation reflexive(relation a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] |= bit(i);
  return a;
}

bool acyclic(const relation& a) {
  const relation c = closure(a);
  for (std::size_t i = 0; i < c.size(); ++i)
    if ((c[i] & bit(i)) != 0) return false;
  return true;
}

/// [dom] ; a ; [range] with dom/range given as bitsets of events.
relation restrict(const relation& a, bits dom, bits range) {
  relation c = empty(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((dom & bit(i)) != 0) c[i] = a[i] & range;
  return c;
}

bool is_fence(const event& e) {
  return e.loc < 0;
}
bool is_sc(const event& e) {
  return e.thread >= 0 && e.ord == mem_order::seq_cst;
}
bool is_rel(const event& e) {
  return e.thread >= 0 && (e.w || is_fence(e)) &&
         (e.ord == mem_order::release || e.ord == mem_order::acq_rel ||
          e.ord == mem_order::seq_cst);
}
bool is_acq(const event& e) {
  return e.thread >= 0 && (e.r || is_fence(e)) &&
         (e.ord == mem_order::acquire || e.ord == mem_order::consume ||
          e.ord == mem_order::acq_rel || e.ord == mem_order::seq_cst);
}

template <class P>
bits select(const std::vector<event>& ev, P pred) {
  bits b = 0;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (pred(ev[i])) b |= bit(i);
  return b;
}

/// The basic relations of a candidate.
struct base {
  relation rf, mo, fr;
};

base base_relations(const graph& g) {
  const std::size_t n = g.ev.size();
  base b{empty(n), empty(n), empty(n)};
  for (std::size_t r = 0; r < n; ++r)
    if (g.rf[r] >= 0) b.rf[static_cast<std::size_t>(g.rf[r])] |= bit(r);
  for (const std::vector<int>& order : g.mo)
    for (std::size_t i = 0; i < order.size(); ++i)
      for (std::size_t j = i + 1; j < order.size(); ++j)
        b.mo[static_cast<std::size_t>(order[i])] |= bit(static_cast<std::size_t>(order[j]));
  for (std::size_t r = 0; r < n; ++r)  // fr = (rf^-1; mo) \ id
    if (g.rf[r] >= 0) b.fr[r] = b.mo[static_cast<std::size_t>(g.rf[r])] & ~bit(r);
  return b;
}

/// hb = (sb U sw)+ with C++20 release sequences.
relation happens_before(const graph& g, const relation& sb, const base& b) {
  const std::size_t n = g.ev.size();
  const bits writes = select(g.ev, [](const event& e) { return e.w; });
  const bits updates = select(g.ev, [](const event& e) { return e.r && e.w; });
  // rs = [W]; (rf; [U])*
  relation rs = closure(restrict(b.rf, ~bits{0}, updates));
  rs = restrict(reflexive(rs), writes, writes);
  // [E rel]; ([F]; sb)?; rs
  relation head = empty(n);
  for (std::size_t a = 0; a < n; ++a) {
    if (!is_rel(g.ev[a])) continue;
    head[a] = is_fence(g.ev[a]) ? sb[a] & writes : bit(a);
  }
  const relation to_read = compose(compose(head, rs), b.rf);
  const bits acq_reads = select(g.ev, [](const event& e) { return e.r && is_acq(e); });
  const bits acq_fences = select(g.ev, [](const event& e) { return is_fence(e) && is_acq(e); });
  const relation sw = unite(restrict(to_read, ~bits{0}, acq_reads),
                            restrict(compose(to_read, sb), ~bits{0}, acq_fences));
  return closure(unite(sb, sw));
}

bool rc11_psc_acyclic(const graph& g, const relation& sb, const relation& hb, const base& b) {
  const std::size_t n = g.ev.size();
  relation same_loc = empty(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (g.ev[i].loc >= 0 && g.ev[i].loc == g.ev[j].loc) same_loc[i] |= bit(j);
  relation sb_nl = sb, hb_l = hb;
  for (std::size_t i = 0; i < n; ++i) {
    sb_nl[i] &= ~same_loc[i];
    hb_l[i] &= same_loc[i];
  }
  relation scb = unite(unite(sb, compose(compose(sb_nl, hb), sb_nl)), hb_l);
  scb = unite(unite(scb, b.mo), b.fr);
  const bits sc = select(g.ev, is_sc);
  const bits sc_fences = select(g.ev, [](const event& e) { return is_fence(e) && is_sc(e); });
  const relation hb_opt = reflexive(hb);
  relation id_sc = empty(n);
  for (std::size_t i = 0; i < n; ++i)
    if ((sc & bit(i)) != 0) id_sc[i] = bit(i);
  const relation left = unite(id_sc, restrict(hb_opt, sc_fences, ~bits{0}));
  const relation right = unite(id_sc, restrict(hb_opt, ~bits{0}, sc_fences));
  const relation psc_base = compose(compose(left, scb), right);
  const relation eco = closure(unite(unite(b.rf, b.mo), b.fr));
  const relation psc_f = restrict(unite(hb, compose(compose(hb, eco), hb)), sc_fences, sc_fences);
  return acyclic(unite(psc_base, psc_f));
}

bool rc11_consistent(const graph& g, const relation& sb, const base& b) {
  const std::size_t n = g.ev.size();
  const relation hb = happens_before(g, sb, b);
  const relation eco = closure(unite(unite(b.rf, b.mo), b.fr));
  const relation hb_eco = compose(hb, eco);
  // Coherence: hb; eco? irreflexive. An RMW is one event here, standing for RC11's read and
  // write joined by sb, so eco from an RMW back to itself (it reads a write mo-after itself)
  // is the cycle R -sb-> W -eco-> R of the two-event form: eco is required irreflexive too.
  for (std::size_t i = 0; i < n; ++i)
    if (((hb[i] | hb_eco[i] | eco[i]) & bit(i)) != 0) return false;
  const relation fr_mo = compose(b.fr, b.mo);
  for (std::size_t u = 0; u < n; ++u)  // atomicity: rmw and (fr; mo) disjoint
    if (g.ev[u].r && g.ev[u].w && (fr_mo[u] & bit(u)) != 0) return false;
  return rc11_psc_acyclic(g, sb, hb, b);
}

}  // namespace

relation program_order(const std::vector<event>& ev) {
  relation sb = empty(ev.size());
  for (std::size_t i = 0; i < ev.size(); ++i)
    for (std::size_t j = 0; j < ev.size(); ++j) {
      const bool init_first = ev[i].thread < 0 && ev[j].thread >= 0;
      const bool same_thread = ev[i].thread >= 0 && ev[i].thread == ev[j].thread && i < j;
      if (init_first || same_thread) sb[i] |= bit(j);
    }
  return sb;
}

bool sb_rf_acyclic(const graph& g, const relation& sb) {
  relation a = sb;
  for (std::size_t r = 0; r < g.ev.size(); ++r)
    if (g.rf[r] >= 0) a[static_cast<std::size_t>(g.rf[r])] |= bit(r);
  return acyclic(a);
}

bool consistent(const graph& g, const relation& sb, model_kind m) {
  const base b = base_relations(g);
  if (m == model_kind::sc) return acyclic(unite(unite(unite(sb, b.rf), b.mo), b.fr));
  return rc11_consistent(g, sb, b);
}

}  // namespace stealcheck::litmus::detail
