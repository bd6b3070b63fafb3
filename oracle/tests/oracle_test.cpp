// The oracle decides the classic shapes as RC11 and SC do (verdicts and execution counts of
// docs/rc11-oracle.md), and variants of the axioms with one part missing decide some of them
// wrongly: the shapes tell the axioms apart.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stealcheck/detail/oracle/axioms.hpp"
#include "stealcheck/detail/oracle/enumerate.hpp"

namespace stealcheck::oracle {
namespace {

constexpr auto rlx = std::memory_order_relaxed;
constexpr auto rel = std::memory_order_release;
constexpr auto acq = std::memory_order_acquire;
constexpr auto sc = std::memory_order_seq_cst;

// A straight-line thread: loads, stores, fences, fetch_adds.
struct ins {
  enum kind_t { load, store, fence, faa } kind;
  int loc = -1;
  std::memory_order ord = rlx;
  value_t value = 0;
};
ins ld(int loc, std::memory_order o = rlx) {
  return {ins::load, loc, o, 0};
}
ins st(int loc, value_t v, std::memory_order o = rlx) {
  return {ins::store, loc, o, v};
}
ins fence(std::memory_order o = sc) {
  return {ins::fence, -1, o, 0};
}
ins faa(int loc, value_t v, std::memory_order o = rlx) {
  return {ins::faa, loc, o, v};
}

program make(const std::vector<std::vector<ins>>& threads, std::size_t locations) {
  program p;
  p.threads = threads.size();
  p.init.assign(locations, 0);
  p.run = [threads](std::size_t t, std::span<const value_t> values) {
    thread_run r;
    std::size_t next = 0;
    for (const ins& i : threads[t]) {
      event e;
      e.loc = i.loc;
      e.ord = i.ord;
      if (i.kind == ins::fence) {
        e.fence = true;
      } else if (i.kind == ins::store) {
        e.w = true;
        e.wval = i.value;
      } else {
        if (next == values.size()) {
          r.pending_loc = i.loc;
          return r;
        }
        e.r = true;
        e.rval = values[next++];
        e.w = i.kind == ins::faa;
        e.wval = e.rval + i.value;
      }
      r.events.push_back(e);
    }
    return r;
  };
  return p;
}

// Per thread, the values its reads returned.
using reads = std::vector<std::vector<value_t>>;

struct outcome {
  std::uint64_t execs = 0;
  bool weak = false;
};

outcome run(const program& p, const std::function<bool(const execution&)>& axioms,
            const std::function<bool(const reads&)>& weak) {
  outcome o;
  enumerate(p, axioms, [&](const candidate& c) {
    ++o.execs;
    reads r;
    for (const trace* t : c.traces)
      r.push_back(t->values);
    o.weak = o.weak || weak(r);
  });
  return o;
}

std::function<bool(const execution&)> axioms_of(model m) {
  return [m](const execution& x) { return consistent(x, m); };
}

// RC11 without psc_F (the SC axiom of fences).
bool rc11_without_psc_f(const execution& x) {
  const relations d = derive(x);
  return no_thin_air(d) && coherent(d) && atomic(d) && acyclic(psc_base(d));
}

// RC11 whose hb is sb only (no synchronisation).
bool rc11_without_sw(const execution& x) {
  relations d = derive(x);
  d.hb = closure(d.sb | d.sync);
  return no_thin_air(d) && coherent(d) && atomic(d) && psc_acyclic(d);
}

// SB: x = 1; r0 = y || y = 1; r0 = x; weak: both read 0.
program sb(std::memory_order w, std::memory_order r, bool fences) {
  std::vector<ins> t0{st(0, 1, w), ld(1, r)}, t1{st(1, 1, w), ld(0, r)};
  if (fences) {
    t0.insert(t0.begin() + 1, fence());
    t1.insert(t1.begin() + 1, fence());
  }
  return make({t0, t1}, 2);
}
bool sb_weak(const reads& r) {
  return r[0][0] == 0 && r[1][0] == 0;
}

// MP: x = 1; y = 1 || r0 = y; r1 = x; weak: 1, 0.
program mp(std::memory_order w, std::memory_order r) {
  return make({{st(0, 1), st(1, 1, w)}, {ld(1, r), ld(0)}}, 2);
}
bool mp_weak(const reads& r) {
  return r[1][0] == 1 && r[1][1] == 0;
}

// IRIW: x = 1 || r0 = x; r1 = y || r0 = y; r1 = x || y = 1; weak: 1, 0, 1, 0.
program iriw(std::memory_order w, std::memory_order r1, std::memory_order r2) {
  return make({{st(0, 1, w)}, {ld(0, r1), ld(1, r2)}, {ld(1, r1), ld(0, r2)}, {st(1, 1, w)}}, 2);
}
bool iriw_weak(const reads& r) {
  return r[1] == std::vector<value_t>{1, 0} && r[2] == std::vector<value_t>{1, 0};
}

// Runs p under m and expects the weak outcome (or not) and the execution count.
void expect(const program& p, model m, const std::function<bool(const reads&)>& weak, bool allowed,
            std::uint64_t execs) {
  const outcome o = run(p, axioms_of(m), weak);
  EXPECT_EQ(o.weak, allowed);
  EXPECT_EQ(o.execs, execs);
}

TEST(oracle, StoreBuffering) {
  expect(sb(rlx, rlx, false), model::rc11, sb_weak, true, 4);
  expect(sb(rlx, rlx, true), model::rc11, sb_weak, false, 3);
  expect(sb(sc, sc, false), model::rc11, sb_weak, false, 3);
  expect(sb(rlx, rlx, false), model::sc, sb_weak, false, 3);
}

TEST(oracle, MessagePassing) {
  expect(mp(rlx, rlx), model::rc11, mp_weak, true, 4);
  expect(mp(rel, acq), model::rc11, mp_weak, false, 3);
}

TEST(oracle, IndependentReadsOfIndependentWrites) {
  expect(iriw(sc, sc, sc), model::rc11, iriw_weak, false, 15);
  expect(iriw(rlx, acq, acq), model::rc11, iriw_weak, true, 16);
}

TEST(oracle, CoherenceOfReadReads) {
  const program corr = make({{st(0, 1)}, {ld(0), ld(0)}}, 1);
  const auto weak = [](const reads& r) { return r[1] == std::vector<value_t>{1, 0}; };
  expect(corr, model::rc11, weak, false, 3);
}

TEST(oracle, RmwAtomicity) {
  // inc2w: two fetch_adds and a release store; both fetch_adds reading 0 loses an update.
  const program inc2w = make({{faa(0, 1)}, {st(0, 4, rel)}, {faa(0, 2)}}, 1);
  const auto weak = [](const reads& r) { return r[0][0] == r[2][0]; };
  expect(inc2w, model::rc11, weak, false, 6);
  expect(inc2w, model::sc, weak, false, 6);
}

// The broken variants accept what RC11 forbids, and agree where the missing part plays no
// role: the shapes can tell a wrong axiom from a right one.
TEST(oracle, AxiomsWithoutPscFAllowReadToWriteCausalityWithFences) {
  // RWC+syncs: x = 1 || r0 = x; F sc; r1 = y || y = 1; F sc; r0 = x; weak: 1, 0, 0. The cycle
  // F2 -> F1 is hb; eco; hb (fr, then rf): psc_F only. SB with fences needs psc_base only.
  const program rwc = make({{st(0, 1)}, {ld(0), fence(), ld(1)}, {st(1, 1), fence(), ld(0)}}, 2);
  const auto weak = [](const reads& r) {
    return r[1] == std::vector<value_t>{1, 0} && r[2] == std::vector<value_t>{0};
  };
  expect(rwc, model::rc11, weak, false, 7);
  const outcome broken = run(rwc, rc11_without_psc_f, weak);
  EXPECT_TRUE(broken.weak);
  EXPECT_EQ(broken.execs, 8u);
  EXPECT_FALSE(run(sb(rlx, rlx, true), rc11_without_psc_f, sb_weak).weak);
  EXPECT_FALSE(run(sb(sc, sc, false), rc11_without_psc_f, sb_weak).weak);
}

TEST(oracle, AxiomsWithoutSwAllowReleaseAcquireMessagePassing) {
  EXPECT_FALSE(run(mp(rel, acq), axioms_of(model::rc11), mp_weak).weak);
  EXPECT_TRUE(run(mp(rel, acq), rc11_without_sw, mp_weak).weak);
  EXPECT_TRUE(run(mp(rlx, rlx), rc11_without_sw, mp_weak).weak);
}

// An RMW as RC11 writes it (a read and a write joined by rmw) is decided as the one-event form.
TEST(oracle, TwoEventRmwMatchesOneEvent) {
  std::uint64_t compared = 0, inconsistent = 0;
  const program p = make({{faa(0, 1, rel)}, {faa(0, 2, acq), ld(1)}, {st(1, 1, sc), ld(0, sc)}}, 2);
  enumerate(
      p, [](const execution&) { return true; },
      [&](const candidate& c) {
        const execution& one = c.x;
        execution two;
        std::vector<int> at(one.ev.size());  // one-event index -> index of its write (or self)
        std::vector<int> read_at(one.ev.size());
        for (std::size_t i = 0; i < one.ev.size(); ++i) {
          const event& e = one.ev[i];
          read_at[i] = static_cast<int>(two.ev.size());
          if (e.r && e.w) {
            event r = e, w = e;
            r.w = false;
            w.r = false;
            r.ord = e.ord == rel ? rlx : e.ord;
            w.ord = e.ord == acq ? rlx : e.ord;
            two.ev.push_back(r);
            two.rmw.emplace_back(read_at[i], read_at[i] + 1);
            two.ev.push_back(w);
          } else {
            two.ev.push_back(e);
          }
          at[i] = static_cast<int>(two.ev.size()) - 1;
        }
        two.rf.assign(two.ev.size(), -1);
        for (std::size_t i = 0; i < one.ev.size(); ++i)
          if (one.rf[i] >= 0)
            two.rf[static_cast<std::size_t>(read_at[i])] = at[static_cast<std::size_t>(one.rf[i])];
        for (const auto& order : one.mo) {
          two.mo.emplace_back();
          for (const int w : order)
            two.mo.back().push_back(at[static_cast<std::size_t>(w)]);
        }
        for (const model m : {model::rc11, model::sc}) {
          const bool a = consistent(one, m), b = consistent(two, m);
          EXPECT_EQ(a, b);
          ++compared;
          inconsistent += a ? 0 : 1;
        }
      });
  EXPECT_GT(compared, 50u);
  EXPECT_GT(inconsistent, 0u);
  EXPECT_LT(inconsistent, compared);
}

TEST(oracle, PscEdgesOfStoreBufferingWithScAccesses) {
  // The weak SB candidate with sc accesses: a psc cycle W x -> R y -> W y -> R x -> W x.
  const program p = sb(sc, sc, false);
  std::size_t cycles = 0;
  enumerate(
      p, [](const execution&) { return true; },
      [&](const candidate& c) {
        if (!sb_weak({c.traces[0]->values, c.traces[1]->values})) return;
        const auto edges = psc_edges(c.x);
        EXPECT_FALSE(psc_acyclic(derive(c.x)));
        EXPECT_EQ(edges.size(), 4u);  // sb, fr, sb, fr: psc is the cycle alone
        ++cycles;
      });
  EXPECT_EQ(cycles, 1u);
}

// A release fence, then a write the other thread's acquire read reads: sw from the fence when
// the write is atomic, none when it is a non-atomic write (a location's initialisation).
TEST(oracle, ReleaseFenceSynchronizesThroughAtomicWritesOnly) {
  for (const bool atomic_write : {true, false}) {
    execution x;
    event f;
    f.thread = 0;
    f.fence = true;
    f.ord = std::memory_order_release;
    event w;
    w.thread = 0;
    w.loc = 0;
    w.w = true;
    w.atomic = atomic_write;
    event r;
    r.thread = 1;
    r.loc = 0;
    r.r = true;
    r.ord = std::memory_order_acquire;
    x.ev = {f, w, r};
    x.rf = {-1, -1, 1};
    x.mo = {{1}};
    const relations d = derive(x);
    EXPECT_EQ(d.sw.test(0, 2), atomic_write);
    EXPECT_EQ(d.hb.test(0, 2), atomic_write);
    EXPECT_TRUE(d.hb.test(0, 1));  // sb either way
  }
}

TEST(oracle, LimitsAreErrors) {
  std::vector<ins> many;
  many.reserve(40);
  for (int k = 0; k < 40; ++k)
    many.push_back(st(0, 1));
  const program p = make({many, many}, 1);
  EXPECT_THROW(enumerate(p, model::rc11, [](const candidate&) {}), limit_error);
}

}  // namespace
}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
