// models/report/cause.cpp: message passing and store buffering, found and explained (cause.hpp).
#include "stealcheck/detail/models/report/cause.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/graph/site_ids.hpp"
#include "stealcheck/detail/models/report/report.hpp"

namespace stealcheck::model {

namespace {

// The searches below look at every read of a large graph (a deadlock implicates no operation),
// so they share a budget of steps: past it they find nothing more and the report goes without a
// cause line, where an unbounded search of a sampled execution of thousands of events would
// take minutes.
constexpr std::uint64_t search_budget = 20'000'000;

struct context {
  context(const graph& graph_, const hb_clocks& hb, const std::vector<operation_span>& spans)
      : g(graph_), h(hb), ops(spans), pos(hb.base[graph_.threads.size()], -1) {
    for (const auto& m : g.mo)
      for (std::size_t k = 0; k < m.size(); ++k)
        pos[h.flat(m[k])] = static_cast<int>(k);
  }
  const graph& g;
  const hb_clocks& h;
  const std::vector<operation_span>& ops;
  std::vector<int> pos;  ///< per event (hb_clocks::flat): its mo position if a write, else -1
  mutable std::uint64_t steps = 0;
  /// Counts one step of a search; false once the budget is spent.
  bool step() const { return ++steps <= search_budget; }
};

const operation_span* op_of(const context& c, event_id e) {
  for (const operation_span& op : c.ops)
    if (e.thread == op.first.thread && e.index >= op.first.index && e.index <= op.last.index)
      return &op;
  return nullptr;
}

// "relaxed store of bottom (0, 22)", "acquire read of top (1, 0)", "seq_cst fence (1, 1)".
std::string what(const context& c, event_id id) {
  const event& e = c.g.at(id);
  std::string kind;
  switch (e.kind) {
    case event_kind::read:
      kind = e.op == rmw_op::cas ? "CAS" : e.rmw ? "RMW" : "read";
      break;
    case event_kind::write:
      kind = e.rmw ? "RMW" : "store";
      break;
    case event_kind::init:
      return fmt::format("initialisation of {} {}", location_name(c.g, e.loc), event_name(c.g, id));
    case event_kind::na_read:
      kind = "non-atomic read";
      break;
    case event_kind::na_write:
      kind = "non-atomic write";
      break;
    case event_kind::fence:
      return fmt::format("{} fence {}", order_name(e.order), event_name(c.g, id));
    case event_kind::free:
      return fmt::format("free {}", event_name(c.g, id));
    default:
      return fmt::format("{} {}", kind_name(e.kind), event_name(c.g, id));
  }
  const std::string order = is_na(e) ? "" : std::string(order_name(e.order)) + " ";
  return fmt::format("{}{} of {} {}", order, kind, location_name(c.g, e.loc), event_name(c.g, id));
}

// "pop -> 2's relaxed store of bottom (0, 22)" or "thread 1's ...".
std::string who(const context& c, event_id id) {
  if (c.g.at(id).kind == event_kind::init) return what(c, id);
  const operation_span* op = op_of(c, id);
  const std::string owner = op != nullptr ? op->label : fmt::format("thread {}", id.thread);
  return owner + "'s " + what(c, id);
}

// " [chase_lev::push.fence]" when the event's order came from a named site.
std::string site_of(const context& c, event_id id) {
  const site* s = site_at(c.g.at(id).src.site);
  return s != nullptr ? fmt::format(" ({})", s->name) : std::string();
}

std::string value_of(const event& e) {
  return value_text(e.value);
}

// Whether write a is mo-before write b (same location).
bool mo_before(const context& c, event_id a, event_id b) {
  const event& ea = c.g.at(a);
  if (ea.kind == event_kind::init) return !(a == b);
  const int pa = c.pos[c.h.flat(a)];
  const int pb = c.pos[c.h.flat(b)];
  return pa >= 0 && pb >= 0 && pa < pb;
}

// A fence of thread t strictly between indices lo and hi whose order satisfies `good`.
template <class Good>
event_id fence_between(const graph& g, std::int32_t t, std::int32_t lo, std::int32_t hi,
                       Good good) {
  for (std::int32_t i = lo + 1; i < hi; ++i) {
    const event& e = g.threads[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
    if (e.kind == event_kind::fence && good(e.order)) return {t, i};
  }
  return event_id::none();
}

struct message_passing {
  event_id w0;  ///< a write of a's thread at or after a
  event_id r0;  ///< the read of b's thread at or before b that reads it
  bool release_missing = false;
  bool acquire_missing = false;
};

// The rf edge that would order a before b if it synchronized (see cause.hpp).
std::optional<message_passing> find_message_passing(const context& c, event_id a, event_id b) {
  if (a.thread == b.thread) return std::nullopt;
  const graph& g = c.g;
  for (std::int32_t i = b.index; i >= 0; --i) {
    const event_id r0{b.thread, i};
    const event& er = g.at(r0);
    if (!c.step()) return std::nullopt;
    if (!is_read(er) || !g.contains(er.rf)) continue;
    const event_id w0 = er.rf;
    const event& ew = g.at(w0);
    if (w0.thread != a.thread || w0.index < a.index || ew.kind == event_kind::init) continue;
    message_passing m{w0, r0};
    const auto rel = [](std::memory_order o) { return is_release(o); };
    const auto acq = [](std::memory_order o) { return is_acquire(o); };
    m.release_missing =
        !is_release(ew.order) && !fence_between(g, a.thread, a.index, w0.index, rel).valid();
    m.acquire_missing =
        !is_acquire(er.order) && !fence_between(g, b.thread, r0.index, b.index, acq).valid();
    if (m.release_missing || m.acquire_missing) return m;
  }
  return std::nullopt;
}

// "it would be if ..." for a message-passing shape from a to b.
void explain_message_passing(const context& c, event_id a, event_id b, const message_passing& m,
                             cause& out) {
  out.lines.push_back(fmt::format("  it would be if {}, which reads {}, synchronized with it; but",
                                  who(c, m.r0), who(c, m.w0)));
  if (m.release_missing)
    out.lines.push_back(
        fmt::format("  {}{} is not a release, and no release fence lies between "
                    "{} and it in thread {}",
                    event_name(c.g, m.w0), site_of(c, m.w0), event_name(c.g, a), a.thread));
  if (m.acquire_missing)
    out.lines.push_back(
        fmt::format("  {}{} is not an acquire, and no acquire fence lies between "
                    "it and {} in thread {}",
                    event_name(c.g, m.r0), site_of(c, m.r0), event_name(c.g, b), b.thread));
  out.events.insert(out.events.end(), {m.w0, m.r0});
  out.edges.push_back({m.w0, m.r0, "no sw"});
}

struct store_buffering {
  event_id w1, r1;  ///< thread A: a write, then a read that misses what B saw
  event_id o, r2;   ///< thread B: an access that saw a value r1 misses, then a read missing w1
  event_id fence_a, fence_b;  ///< the seq_cst fences between them, if any
};

// Whether event o (a read or write of loc) saw a value mo-later than the write w.
bool saw_later(const context& c, const event& o, std::uint32_t loc, event_id w, event_id o_id) {
  if (o.loc != loc) return false;
  if (is_read(o) && c.g.contains(o.rf)) return mo_before(c, w, o.rf);
  if (o.kind == event_kind::write) return mo_before(c, w, o_id);
  return false;
}

std::optional<store_buffering> find_store_buffering(const context& c, event_id r1) {
  const graph& g = c.g;
  const event& e1 = g.at(r1);
  if (!is_read(e1) || !g.contains(e1.rf)) return std::nullopt;
  const auto sc = [](std::memory_order o) { return o == std::memory_order_seq_cst; };
  for (std::size_t bt = 0; bt < g.threads.size(); ++bt) {
    const auto b = static_cast<std::int32_t>(bt);
    if (b == r1.thread) continue;
    const auto& tb = g.threads[bt];
    for (std::size_t oi = 0; oi < tb.size(); ++oi) {
      const event_id o{b, static_cast<std::int32_t>(oi)};
      if (!c.step()) return std::nullopt;
      if (!saw_later(c, tb[oi], e1.loc, e1.rf, o)) continue;
      for (std::size_t ri = oi + 1; ri < tb.size(); ++ri) {
        const event& e2 = tb[ri];
        if (!c.step()) return std::nullopt;
        if (!is_read(e2) || e2.loc == e1.loc || !g.contains(e2.rf)) continue;
        for (std::int32_t wi = r1.index - 1; wi >= 0; --wi) {
          const event_id w1{r1.thread, wi};
          const event& ew = g.at(w1);
          if (!c.step()) return std::nullopt;
          if (ew.kind != event_kind::write || ew.loc != e2.loc || !mo_before(c, e2.rf, w1))
            continue;
          store_buffering s{
              w1, r1, o, {b, static_cast<std::int32_t>(ri)}, event_id::none(), event_id::none()};
          s.fence_a = fence_between(g, r1.thread, w1.index, r1.index, sc);
          s.fence_b = fence_between(g, b, o.index, s.r2.index, sc);
          const bool sc_a = s.fence_a.valid() || (is_sc(ew) && is_sc(e1));
          const bool sc_b = s.fence_b.valid() || (is_sc(tb[oi]) && is_sc(e2));
          if (!sc_a || !sc_b) return s;
        }
      }
    }
  }
  return std::nullopt;
}

void explain_store_buffering(const context& c, const store_buffering& s, cause& out) {
  const graph& g = c.g;
  const event& e1 = g.at(s.r1);
  const event& e2 = g.at(s.r2);
  const event& eo = g.at(s.o);
  const std::string seen = is_read(eo) ? value_of(g.at(eo.rf)) : value_of(eo);
  out.lines.push_back(fmt::format(
      "cause: store buffering between threads {} and {}: each one's read misses what the other "
      "wrote or saw before its own",
      s.r1.thread, s.r2.thread));
  out.lines.push_back(fmt::format("  {}, then its {} reads {}, older than the {} that {} {}",
                                  who(c, s.w1), what(c, s.r1), value_of(e1), seen,
                                  event_name(g, s.o), is_read(eo) ? "read" : "wrote"));
  out.lines.push_back(fmt::format("  {}, then its {} reads {}, older than {}", who(c, s.o),
                                  what(c, s.r2), value_of(e2), event_name(g, s.w1)));
  const auto side = [&](std::int32_t t, event_id from, event_id to, event_id fence) {
    if (fence.valid())
      return fmt::format("thread {} has one: {}{}", t, what(c, fence), site_of(c, fence));
    return fmt::format("thread {} has none between {} and {}", t, event_name(g, from),
                       event_name(g, to));
  };
  out.lines.push_back(
      "  missing: a seq_cst fence between the two accesses of each thread (psc then orders the "
      "fences, and one read must see the other's write):");
  out.lines.push_back(fmt::format("  {}; {}", side(s.r1.thread, s.w1, s.r1, s.fence_a),
                                  side(s.r2.thread, s.o, s.r2, s.fence_b)));
  out.events.insert(out.events.end(), {s.w1, s.r1, s.o, s.r2});
  if (s.fence_a.valid()) out.events.push_back(s.fence_a);
  if (s.fence_b.valid()) out.events.push_back(s.fence_b);
  if (!s.fence_a.valid()) out.edges.push_back({s.w1, s.r1, "needs seq_cst fence"});
  if (!s.fence_b.valid()) out.edges.push_back({s.o, s.r2, "needs seq_cst fence"});
}

// A read that misses a write of another thread, explained as message passing.
bool explain_stale_read(const context& c, event_id r, cause& out) {
  const graph& g = c.g;
  const event& e = g.at(r);
  if (!is_read(e) || !g.contains(e.rf) || e.loc >= g.mo.size()) return false;
  for (const event_id w : g.mo[e.loc]) {
    if (!c.step()) return false;
    if (w.thread == r.thread || !mo_before(c, e.rf, w) || c.h.hb(w, r)) continue;
    const std::optional<message_passing> m = find_message_passing(c, w, r);
    if (!m) continue;
    const std::string from = g.at(e.rf).kind == event_kind::init
                                 ? fmt::format("its initialisation {}", event_name(g, e.rf))
                                 : who(c, e.rf);
    out.lines.push_back(fmt::format("cause: {} reads {} from {};", who(c, r), value_of(e), from));
    out.lines.push_back(fmt::format("  {} is mo-later and not happens-before it", who(c, w)));
    out.events.insert(out.events.end(), {r, e.rf, w});
    explain_message_passing(c, w, r, *m, out);
    return true;
  }
  return false;
}

}  // namespace

cause explain(const graph& g, const std::vector<operation_span>& ops, error_kind kind,
              const std::vector<event_id>& focus) {
  cause out;
  hb_clocks cache;
  const hb_clocks* h = hb_of(g, cache);
  if (h == nullptr) return out;
  const context c{g, *h, ops};
  // A race, or an access racing with a free: the two events, and what would order them.
  if ((kind == error_kind::data_race || kind == error_kind::use_after_free) && focus.size() == 2) {
    const event_id a = focus[0];
    const event_id b = focus[1];
    out.lines.push_back(
        fmt::format("cause: {} and {} are not ordered by happens-before", who(c, a), who(c, b)));
    out.events.insert(out.events.end(), {a, b});
    if (const auto m = find_message_passing(c, a, b))
      explain_message_passing(c, a, b, *m, out);
    else if (const auto n = find_message_passing(c, b, a))
      explain_message_passing(c, b, a, *n, out);
    return out;
  }
  // Otherwise the reads at the heart: the focus, the implicated operations', or all.
  std::vector<event_id> reads;
  const auto add_reads = [&](event_id first, event_id last) {
    for (std::int32_t i = first.index; i <= last.index; ++i)
      if (const event_id r{first.thread, i}; g.contains(r) && is_read(g.at(r))) reads.push_back(r);
  };
  for (const event_id f : focus)
    add_reads(f, f);
  for (const operation_span& op : ops)
    if (op.implicated) add_reads(op.first, op.last);
  if (!std::any_of(ops.begin(), ops.end(), [](const operation_span& op) { return op.implicated; }))
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      if (!g.threads[t].empty())
        add_reads({static_cast<std::int32_t>(t), 0},
                  {static_cast<std::int32_t>(t), static_cast<std::int32_t>(g.size(t)) - 1});
  for (const event_id r : reads)
    if (explain_stale_read(c, r, out)) return out;
  for (const event_id r : reads)
    if (const auto s = find_store_buffering(c, r)) {
      explain_store_buffering(c, *s, out);
      return out;
    }
  return out;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
