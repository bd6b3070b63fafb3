// oracle/axioms.cpp: RC11 and SC consistency of candidate executions (see axioms.hpp).
#include "stealcheck/detail/oracle/axioms.hpp"

namespace stealcheck::oracle {
namespace {

using mo_t = std::memory_order;

bool is_rel(const event& e) {
  return (e.w || e.fence) &&
         (e.ord == mo_t::release || e.ord == mo_t::acq_rel || e.ord == mo_t::seq_cst);
}
bool is_acq(const event& e) {
  return (e.r || e.fence) && (e.ord == mo_t::acquire || e.ord == mo_t::consume ||
                              e.ord == mo_t::acq_rel || e.ord == mo_t::seq_cst);
}
bool is_sc(const event& e) {
  return (e.r || e.w || e.fence) && e.ord == mo_t::seq_cst;
}

template <class P>
event_set select(const std::vector<event>& ev, P pred) {
  event_set s(ev.size());
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (pred(ev[i])) s.set(i);
  return s;
}

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

relation reads_from(const execution& x) {
  relation rf(x.ev.size());
  for (std::size_t r = 0; r < x.ev.size(); ++r)
    if (x.rf[r] >= 0) rf.set(at(x.rf[r]), r);
  return rf;
}

relation pairs(std::size_t n, const std::vector<std::pair<int, int>>& v) {
  relation a(n);
  for (const auto& [i, j] : v)
    a.set(at(i), at(j));
  return a;
}

/// Everything but rs, sw and hb.
relations base(const execution& x) {
  const std::size_t n = x.ev.size();
  relations d;
  d.sb = program_order(x.ev);
  d.rf = reads_from(x);
  d.mo = relation(n);
  for (const std::vector<int>& order : x.mo)
    for (std::size_t i = 0; i < order.size(); ++i)
      for (std::size_t j = i + 1; j < order.size(); ++j)
        d.mo.set(at(order[i]), at(order[j]));
  d.fr = irreflexive_part(compose(inverse(d.rf), d.mo));
  d.rmw = identity(select(x.ev, [](const event& e) { return e.r && e.w; })) | pairs(n, x.rmw);
  d.sync = pairs(n, x.sync);
  d.writes = select(x.ev, [](const event& e) { return e.w; });
  d.sc = select(x.ev, is_sc);
  d.sc_fences = select(x.ev, [](const event& e) { return e.fence && is_sc(e); });
  d.same_loc = relation(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (x.ev[i].loc >= 0 && x.ev[i].loc == x.ev[j].loc) d.same_loc.set(i, j);
  return d;
}

void happens_before(const execution& x, relations& d) {
  const event_set all = event_set::every(x.ev.size());
  // rs = [W ⊒ rlx]; (rf; rmw)*: a non-atomic write heads none
  const event_set atomic_writes = select(x.ev, [](const event& e) { return e.w && e.atomic; });
  d.rs = restrict(reflexive(closure(compose(d.rf, d.rmw))), atomic_writes, all);
  // [E_rel]; ([F]; sb)?; rs; rf; [R]
  const event_set rel = select(x.ev, is_rel);
  const event_set rel_fences = select(x.ev, [](const event& e) { return e.fence && is_rel(e); });
  const relation head = identity(rel) | restrict(d.sb, rel_fences, all);
  const event_set reads = select(x.ev, [](const event& e) { return e.r; });
  const relation to_read = restrict(compose(compose(head, d.rs), d.rf), all, reads);
  // ...; (sb; [F])?; [E_acq]
  const event_set acq = select(x.ev, is_acq);
  const event_set acq_fences = select(x.ev, [](const event& e) { return e.fence && is_acq(e); });
  d.sw = restrict(to_read, all, acq) | restrict(compose(to_read, d.sb), all, acq_fences);
  d.hb = closure(d.sb | d.sw | d.sync);
}

bool atomic_base(const relations& d) {
  const relation fr_mo = compose(d.fr, d.mo);
  return intersect(d.rmw, fr_mo) == relation(d.rmw.size());
}

}  // namespace

relations derive(const execution& x) {
  relations d = base(x);
  happens_before(x, d);
  return d;
}

relation eco(const relations& d) {
  return closure(d.rf | d.mo | d.fr);
}

relation psc_base(const relations& d) {
  const std::size_t n = d.sb.size();
  const event_set every = event_set::every(n);
  const relation sb_nl = minus(d.sb, d.same_loc);
  // ([E_sc] ∪ [F_sc]; hb?); only scb's rows of its range L are used: scb is computed as
  // [L]; scb, which is the same relation for left; scb.
  const relation left = identity(d.sc) | restrict(d.hb, d.sc_fences, every);
  event_set l(n);
  for (std::size_t i = 0; i < n; ++i)
    left.for_each_in_row(i, [&](std::size_t j) { l.set(j); });
  const relation scb = restrict(d.sb | intersect(d.hb, d.same_loc) | d.mo | d.fr, l, every) |
                       compose(compose(restrict(sb_nl, l, every), d.hb), sb_nl);
  const relation right = identity(d.sc) | restrict(d.hb, every, d.sc_fences);
  return compose(compose(left, scb), right);
}

relation psc_f(const relations& d) {
  const std::size_t n = d.sb.size();
  if (d.sc_fences.empty()) return relation(n);
  const event_set every = event_set::every(n);
  const relation from_f = restrict(d.hb, d.sc_fences, every);  // [F_sc]; hb
  const relation via_eco = compose(compose(from_f, eco(d)), d.hb);
  return restrict(from_f | via_eco, d.sc_fences, d.sc_fences);
}

relation psc(const relations& d) {
  return psc_base(d) | psc_f(d);
}

bool coherent(const relations& d) {
  const relation e = eco(d);
  return irreflexive(d.hb) && irreflexive(e) && irreflexive(compose(d.hb, e));
}

bool atomic(const relations& d) {
  return atomic_base(d);
}

bool no_thin_air(const relations& d) {
  return acyclic(d.sb | d.sync | d.rf);
}

bool psc_acyclic(const relations& d) {
  return acyclic(psc(d));
}

bool rc11_consistent(const execution& x) {
  const relations d = derive(x);
  return no_thin_air(d) && coherent(d) && atomic(d) && psc_acyclic(d);
}

bool sc_consistent(const execution& x) {
  const relations d = base(x);
  return atomic_base(d) && acyclic(d.sb | d.sync | d.rf | d.mo | d.fr);
}

bool consistent(const execution& x, model m) {
  return m == model::sc ? sc_consistent(x) : rc11_consistent(x);
}

bool sb_rf_acyclic(const execution& x, const relation& sb) {
  return acyclic(sb | pairs(x.ev.size(), x.sync) | reads_from(x));
}

std::vector<std::pair<int, int>> psc_edges(const execution& x) {
  const relation p = psc(derive(x));
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < p.size(); ++i)
    p.for_each_in_row(
        i, [&](std::size_t j) { out.emplace_back(static_cast<int>(i), static_cast<int>(j)); });
  return out;
}

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
