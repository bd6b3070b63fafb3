// models/tests/random_programs.hpp: small random programs (loads, stores, fences, FAA, CAS with
// mixed memory orders on a few atomic locations) and the model-checker client that runs one.
// Shared by the differential test and the psc test.
//
// Thread role: test code; run_program is a client body (runs inside model::explore).
// Complexity: O(instructions).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/runtime/memory.hpp"

namespace stealcheck::model::test_programs {

/// The seed of a randomized test run: STEALCHECK_SEED if set (a replay), else a fresh one.
/// Callers print it with the line that replays the run. Throws usage_error when
/// STEALCHECK_SEED is not a number.
inline std::uint64_t seed_from_env() {
  return harness::env_number("STEALCHECK_SEED").value_or(std::random_device{}());
}

/// Adds locations 0..n-1 to a hand-built graph, each with its init write (order `o`) appended
/// to thread 0 and put first in its mo. The graph-level tests build their skeletons with it.
inline void add_init_writes(graph& g, std::uint32_t n,
                            std::memory_order o = std::memory_order_relaxed) {
  for (std::uint32_t l = 0; l < n; ++l) {
    location loc;
    loc.key = l;
    g.locs.push_back(loc);
    g.mo.emplace_back();
    event e;
    e.kind = event_kind::init;
    e.order = o;
    e.loc = l;
    g.mo[l].push_back(g.append(0, e));
  }
}

enum class ins_kind { load, store, fence, faa, cas };
struct ins {
  ins_kind kind;
  std::uint32_t loc;
  std::memory_order order;
  std::memory_order fail = std::memory_order_relaxed;
  std::int64_t value = 0;     // store value / FAA operand / CAS desired
  std::int64_t expected = 0;  // CAS
};
using program = std::vector<std::vector<ins>>;

struct program_shape {
  std::size_t min_threads = 2, max_threads = 3;
  std::size_t max_per_thread = 3, max_total = 7;
  std::uint32_t locations = 2;  ///< at most 3 (x, y, z)
  bool favour_sc = false;       ///< draw seq_cst loads, stores and fences twice as often
};

inline program random_program(std::mt19937_64& rng, const program_shape& shape) {
  using mo = std::memory_order;
  const std::vector<mo> loads =
      shape.favour_sc ? std::vector<mo>{mo::relaxed, mo::acquire, mo::seq_cst, mo::seq_cst}
                      : std::vector<mo>{mo::relaxed, mo::acquire, mo::seq_cst};
  const std::vector<mo> stores =
      shape.favour_sc ? std::vector<mo>{mo::relaxed, mo::release, mo::seq_cst, mo::seq_cst}
                      : std::vector<mo>{mo::relaxed, mo::release, mo::seq_cst};
  const std::vector<mo> fences =
      shape.favour_sc
          ? std::vector<mo>{mo::acquire, mo::release, mo::acq_rel, mo::seq_cst, mo::seq_cst}
          : std::vector<mo>{mo::acquire, mo::release, mo::acq_rel, mo::seq_cst};
  const std::vector<mo> rmws = {mo::relaxed, mo::acquire, mo::release, mo::acq_rel, mo::seq_cst};
  auto pick = [&](const std::vector<mo>& v) { return v[rng() % v.size()]; };
  program p(shape.min_threads + rng() % (shape.max_threads - shape.min_threads + 1));
  std::int64_t next_value = 1;
  std::size_t total = 0;
  for (auto& th : p) {
    const std::size_t n = 1 + rng() % shape.max_per_thread;
    for (std::size_t k = 0; k < n && total < shape.max_total; ++k, ++total) {
      ins i{};
      i.kind = static_cast<ins_kind>(rng() % 5);
      i.loc = static_cast<std::uint32_t>(rng() % shape.locations);
      switch (i.kind) {
        case ins_kind::load:
          i.order = pick(loads);
          break;
        case ins_kind::store:
          i.order = pick(stores);
          i.value = next_value++;
          break;
        case ins_kind::fence:
          i.order = pick(fences);
          break;
        case ins_kind::faa:
          i.order = pick(rmws);
          i.value = 1;
          break;
        case ins_kind::cas:
          i.order = pick(rmws);
          i.fail = pick(loads);
          i.expected = static_cast<std::int64_t>(rng() % 3);
          i.value = next_value++;
          break;
      }
      th.push_back(i);
    }
  }
  return p;
}

inline std::string describe(const program& p) {
  static const char* k[] = {"R", "W", "F", "FAA", "CAS"};
  std::string s;
  for (std::size_t t = 0; t < p.size(); ++t) {
    s += "T" + std::to_string(t + 1) + ":";
    for (const ins& i : p[t])
      s += std::string(" ") + k[static_cast<int>(i.kind)] +
           (i.kind == ins_kind::fence ? "" : std::string(1, "xyz"[i.loc])) + "." +
           std::string(order_name(i.order)) + "=" + std::to_string(i.value);
    s += ";";
  }
  return s;
}

/// Runs p as a client: `locations` atomics (x, y, z in that order, all 0), one model thread
/// per program thread, then joins them.
inline void run_program(client& c, const program& p, std::uint32_t locations) {
  std::vector<std::unique_ptr<memory::atomic<std::int64_t>>> locs;
  for (std::uint32_t l = 0; l < locations; ++l)
    locs.push_back(std::make_unique<memory::atomic<std::int64_t>>(0));
  for (const auto& th : p)
    c.spawn([&] {
      for (const ins& i : th) {
        auto& a = *locs[i.loc];
        switch (i.kind) {
          case ins_kind::load:
            (void)a.load(i.order);
            break;
          case ins_kind::store:
            a.store(i.value, i.order);
            break;
          case ins_kind::fence:
            memory::fence(i.order);
            break;
          case ins_kind::faa:
            (void)a.fetch_add(i.value, i.order);
            break;
          case ins_kind::cas: {
            std::int64_t e = i.expected;
            (void)a.compare_exchange_strong(e, i.value, i.order, i.fail);
            break;
          }
        }
      }
    });
  c.join_all();
}

}  // namespace stealcheck::model::test_programs
// SPDX-License-Identifier: Apache-2.0
