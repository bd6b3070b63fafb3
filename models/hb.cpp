// models/hb.cpp: happens-before clocks (see hb.hpp).
#include "models/hb.hpp"

#include <algorithm>

namespace stealcheck::model {

namespace {
template <class F>
void tc_rf_preds(const graph& g, std::size_t t, std::size_t i, F&& f) {
  const event& e = g.threads[t][i];
  if (i == 0 && g.info[t].created_by.valid()) f(g.info[t].created_by);
  if (is_read(e) && e.rf.valid()) f(e.rf);
  if (e.kind == event_kind::join) {
    const auto& jt = g.threads[e.aux];
    if (!jt.empty())
      f(event_id{static_cast<std::int32_t>(e.aux), static_cast<std::int32_t>(jt.size() - 1)});
  }
}

void join_into(std::int32_t* dst, const std::int32_t* src, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u)
    dst[u] = std::max(dst[u], src[u]);
}
}  // namespace

bool porf_order(const graph& g, std::vector<event_id>& out) {
  const std::size_t nt = g.threads.size();
  out.clear();
  thread_local std::vector<std::size_t> done;
  done.assign(nt, 0);
  const std::size_t total = g.event_count();
  while (out.size() < total) {
    bool progress = false;
    for (std::size_t t = 0; t < nt; ++t) {
      while (done[t] < g.threads[t].size()) {
        bool ready = true;
        tc_rf_preds(g, t, done[t], [&](event_id p) {
          if (g.contains(p) &&
              static_cast<std::size_t>(p.index) >= done[static_cast<std::size_t>(p.thread)])
            ready = false;
        });
        if (!ready) break;
        out.push_back({static_cast<std::int32_t>(t), static_cast<std::int32_t>(done[t])});
        ++done[t];
        progress = true;
      }
    }
    if (!progress) return false;
  }
  return true;
}

bool compute_hb(const graph& g, hb_clocks& c) {
  const std::size_t nt = g.threads.size();
  c.threads = nt;
  c.base.assign(nt + 1, 0);
  for (std::size_t t = 0; t < nt; ++t)
    c.base[t + 1] = c.base[t] + g.threads[t].size();
  c.data.assign(c.base[nt] * nt, 0);
  if (!porf_order(g, c.topo)) return false;
  // rel[e]: the clock an acquire reading from write e synchronizes with (flat, per event).
  thread_local std::vector<std::int32_t> rel, acc, fence_rel;
  rel.assign(c.base[nt] * nt, 0);
  acc.assign(nt * nt, 0);        // per thread: rel of everything read so far
  fence_rel.assign(nt * nt, 0);  // per thread: clock of last release fence
  // The topological order visits each thread's events in po order, so the per-thread
  // accumulators are exact at the time an event is processed.
  for (const event_id id : c.topo) {
    const auto t = static_cast<std::size_t>(id.thread);
    const event& e = g.at(id);
    std::int32_t* v = c.of(id);
    if (id.index > 0) std::copy_n(c.of({id.thread, id.index - 1}), nt, v);
    v[t] = id.index + 1;
    tc_rf_preds(g, t, static_cast<std::size_t>(id.index), [&](event_id p) {
      if (!g.contains(p)) return;
      if (is_read(e) && p == e.rf) return;  // rf alone is not hb
      join_into(v, c.of(p), nt);
    });
    const std::size_t flat = c.base[t] + static_cast<std::size_t>(id.index);
    if (is_read(e) && e.rf.valid() && g.contains(e.rf)) {
      const event_id w = e.rf;
      const std::int32_t* wr =
          &rel[(c.base[static_cast<std::size_t>(w.thread)] + static_cast<std::size_t>(w.index)) *
               nt];
      if (is_acquire(e.order)) join_into(v, wr, nt);
      join_into(&acc[t * nt], wr, nt);
    }
    if (e.kind == event_kind::fence && is_acquire(e.order)) join_into(v, &acc[t * nt], nt);
    if (e.kind == event_kind::fence && is_release(e.order)) std::copy_n(v, nt, &fence_rel[t * nt]);
    if (e.kind == event_kind::write) {
      std::int32_t* r = &rel[flat * nt];
      if (is_release(e.order)) std::copy_n(v, nt, r);
      join_into(r, &fence_rel[t * nt], nt);
      if (e.rmw && id.index > 0) {  // the release sequence continues through RMWs
        const event& rp = g.threads[t][static_cast<std::size_t>(id.index - 1)];
        if (rp.rf.valid() && g.contains(rp.rf)) {
          const event_id w0 = rp.rf;
          join_into(r,
                    &rel[(c.base[static_cast<std::size_t>(w0.thread)] +
                          static_cast<std::size_t>(w0.index)) *
                         nt],
                    nt);
        }
      }
    }
  }
  return true;
}

}  // namespace stealcheck::model
