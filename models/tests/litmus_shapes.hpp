// models/tests/litmus_shapes.hpp: the shapes of docs/rc11-oracle.md as model
// clients, each with the oracle's expected verdict and execution counts (data from the
// oracle file: GenMC v0.11.0, default -mo, one execution per (rf, mo) class).
#pragma once

#include <atomic>
#include <functional>
#include <string_view>
#include <vector>

#include "models/explore.hpp"

namespace stealcheck::model::litmus {

using mem = memory;
using a64 = mem::atomic<int>;
inline constexpr auto rlx = std::memory_order_relaxed;
inline constexpr auto rel = std::memory_order_release;
inline constexpr auto acq = std::memory_order_acquire;
inline constexpr auto sc = std::memory_order_seq_cst;

/// A litmus client: spawns its threads, joins them, and sets `weak` when this execution
/// shows the outcome SC forbids.
using shape_fn = std::function<void(client&, bool& weak)>;

struct shape {
  std::string_view name;
  bool weak_allowed_rc11;
  unsigned execs_rc11;
  unsigned execs_sc;
  shape_fn run;
};

// SB family: W x=1; R y || W y=1; R x, with orders (w1, r1, w2, r2) and optional sc fences.
inline shape_fn sb(std::memory_order w1, std::memory_order r1, std::memory_order w2,
                   std::memory_order r2, bool f1, bool f2) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    int a = -1, b = -1;
    c.spawn([&] {
      x.store(1, w1);
      if (f1) mem::fence(sc);
      a = y.load(r1);
    });
    c.spawn([&] {
      y.store(1, w2);
      if (f2) mem::fence(sc);
      b = x.load(r2);
    });
    c.join_all();
    weak = a == 0 && b == 0;
  };
}

inline shape_fn mp(std::memory_order wy, std::memory_order ry) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    int a = -1, b = -1;
    c.spawn([&] {
      x.store(1, rlx);
      y.store(1, wy);
    });
    c.spawn([&] {
      a = y.load(ry);
      b = x.load(rlx);
    });
    c.join_all();
    weak = a == 1 && b == 0;
  };
}

inline void lb(client& c, bool& weak) {
  a64 x{0}, y{0};
  int a = -1, b = -1;
  c.spawn([&] {
    a = x.load(rlx);
    y.store(1, rlx);
  });
  c.spawn([&] {
    b = y.load(rlx);
    x.store(1, rlx);
  });
  c.join_all();
  weak = a == 1 && b == 1;
}

// IRIW: W x=1 || R x; R y || R y; R x || W y=1; writes with order w, first reads r1, second r2.
inline shape_fn iriw(std::memory_order w, std::memory_order r1, std::memory_order r2) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    int a = -1, b = -1, d = -1, e = -1;
    c.spawn([&] { x.store(1, w); });
    c.spawn([&] {
      a = x.load(r1);
      b = y.load(r2);
    });
    c.spawn([&] {
      d = y.load(r1);
      e = x.load(r2);
    });
    c.spawn([&] { y.store(1, w); });
    c.join_all();
    weak = a == 1 && b == 0 && d == 1 && e == 0;
  };
}

inline shape_fn two_plus_two_w(std::memory_order o, bool fences) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    c.spawn([&] {
      x.store(1, o);
      if (fences) mem::fence(sc);
      y.store(2, o);
    });
    c.spawn([&] {
      y.store(1, o);
      if (fences) mem::fence(sc);
      x.store(2, o);
    });
    c.join_all();
    weak = x.load(rlx) == 1 && y.load(rlx) == 1;
  };
}

inline shape_fn r_shape(std::memory_order o) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    int a = -1;
    c.spawn([&] {
      x.store(1, o);
      y.store(1, o);
    });
    c.spawn([&] {
      y.store(2, o);
      a = x.load(o);
    });
    c.join_all();
    weak = y.load(rlx) == 2 && a == 0;
  };
}

inline shape_fn wrc(std::memory_order wy, std::memory_order ry) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0};
    int a = -1, b = -1, d = -1;
    c.spawn([&] { x.store(1, rlx); });
    c.spawn([&] {
      a = x.load(rlx);
      y.store(1, wy);
    });
    c.spawn([&] {
      b = y.load(ry);
      d = x.load(rlx);
    });
    c.join_all();
    weak = a == 1 && b == 1 && d == 0;
  };
}

inline void corr(client& c, bool& weak) {
  a64 x{0};
  int a = -1, b = -1;
  c.spawn([&] { x.store(1, rlx); });
  c.spawn([&] {
    a = x.load(rlx);
    b = x.load(rlx);
  });
  c.join_all();
  weak = a == 1 && b == 0;
}

// W+RWC: W x=1; W z=1 rel || R z acq; F sc; R y || W y=1; F sc; R x.
// RWC+syncs: W x=1 || R x; F sc; R y || W y=1; F sc; R x.
inline shape_fn rwc(bool via_z) {
  return [=](client& c, bool& weak) {
    a64 x{0}, y{0}, z{0};
    int a = -1, b = -1, d = -1;
    c.spawn([&] {
      x.store(1, rlx);
      if (via_z) z.store(1, rel);
    });
    c.spawn([&] {
      a = via_z ? z.load(acq) : x.load(rlx);
      mem::fence(sc);
      b = y.load(rlx);
    });
    c.spawn([&] {
      y.store(1, rlx);
      mem::fence(sc);
      d = x.load(rlx);
    });
    c.join_all();
    weak = a == 1 && b == 0 && d == 0;
  };
}

inline void cowr(client& c, bool& weak) {
  a64 x{0};
  int a = -1;
  c.spawn([&] {
    x.store(1, rlx);
    a = x.load(rlx);
  });
  c.spawn([&] { x.store(2, rlx); });
  c.join_all();
  weak = a == 0 || (a == 2 && x.load(rlx) == 1);
}

inline void corw(client& c, bool& weak) {
  a64 x{0};
  int a = -1;
  c.spawn([&] {
    a = x.load(rlx);
    x.store(1, rlx);
  });
  c.spawn([&] { x.store(2, rlx); });
  c.join_all();
  weak = a == 2 && x.load(rlx) == 2;
}

inline void inc2w(client& c, bool& weak) {
  a64 x{0};
  int a = -1, b = -1;
  c.spawn([&] { a = x.fetch_add(1, rlx); });
  c.spawn([&] { x.store(4, rel); });
  c.spawn([&] { b = x.fetch_add(2, rlx); });
  c.join_all();
  weak = a == b;  // both increments read the same write: a lost update
}

inline std::vector<shape> oracle_shapes() {
  return {
      {"SB", true, 4, 3, sb(rlx, rlx, rlx, rlx, false, false)},
      {"SB+scfs", false, 3, 3, sb(rlx, rlx, rlx, rlx, true, true)},
      {"SB+sc", false, 3, 3, sb(sc, sc, sc, sc, false, false)},
      {"SB+rel+acq", true, 4, 3, sb(rel, acq, rel, acq, false, false)},
      {"MP", true, 4, 3, mp(rlx, rlx)},
      {"MP+rel+acq", false, 3, 3, mp(rel, acq)},
      {"LB", false, 3, 3, lb},
      {"IRIW+acqs", true, 16, 15, iriw(rlx, acq, acq)},
      {"IRIW+sc", false, 15, 15, iriw(sc, sc, sc)},
      {"2+2W", true, 4, 3, two_plus_two_w(rlx, false)},
      {"2+2W+sc", false, 3, 3, two_plus_two_w(sc, false)},
      {"R", true, 4, 3, r_shape(rlx)},
      {"R+sc", false, 3, 3, r_shape(sc)},
      {"WRC", true, 8, 7, wrc(rlx, rlx)},
      {"WRC+rel+acq", false, 7, 7, wrc(rel, acq)},
      {"CoRR", false, 3, 3, corr},
      {"SB+2sc+scf", false, 3, 3, sb(sc, sc, rlx, rlx, false, true)},
      {"SB+3sc+rel", true, 4, 3, sb(sc, sc, rel, sc, false, false)},
      {"2+2W+scfs", false, 3, 3, two_plus_two_w(rlx, true)},
      {"IRIW-acq-sc", true, 16, 15, iriw(sc, acq, sc)},
      {"W+RWC", false, 7, 7, rwc(true)},
      {"RWC+syncs", false, 7, 7, rwc(false)},
      {"CoWR", false, 3, 3, cowr},
      {"CoRW", false, 3, 3, corw},
      {"inc2w", false, 6, 6, inc2w},
  };
}

}  // namespace stealcheck::model::litmus
