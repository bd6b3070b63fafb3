// Differential testing: on random small programs (2-3 threads, loads, stores, fences, RMWs,
// mixed orders) the explorer produces exactly the executions the oracle's brute-force
// enumerator finds (oracle/enumerate.hpp: every candidate rf and mo, filtered by the
// relational axioms of oracle/axioms.hpp, not by the explorer's own consistency checks),
// each once, under RC11 and SC.
//
// Seeded: the seed is printed; STEALCHECK_SEED=<n> replays one run. Program count scales with
// STEALCHECK_TEST_SCALE (100 = 300 programs per model, about 5 s in release).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/tests/random_programs.hpp"
#include "stealcheck/detail/oracle/enumerate.hpp"

namespace stealcheck::model {
namespace {

using namespace test_programs;

// The (rf, mo) signature of a graph.
std::string signature(const graph& g) {
  std::string s;
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (is_read(e))
        s += "r" + std::to_string(t) + "." + std::to_string(i) + "<" + std::to_string(e.rf.thread) +
             "." + std::to_string(e.rf.index) + ";";
    }
  for (std::size_t l = 0; l < g.mo.size(); ++l) {
    s += "|";
    for (const event_id w : g.mo[l])
      s += std::to_string(w.thread) + "." + std::to_string(w.index) + ",";
  }
  return s;
}

// ---- the explorer side ----
std::multiset<std::string> explored(const program& p, memory_model m, std::uint64_t& count) {
  std::multiset<std::string> out;
  options o;
  o.model = m;
  o.on_complete = [&](const graph& g, const consistency_checker&) { out.insert(signature(g)); };
  const result r = explore(o, [&](client& c) { run_program(c, p, 2); });
  EXPECT_TRUE(r.ok()) << r.bug->message;
  count = r.complete;
  return out;
}

// ---- the brute-force side: oracle/enumerate.hpp with oracle/axioms.hpp ----
// p as the oracle's program: its reads return the given values; a CAS that reads another
// value than it expects is a read with its failure order.
oracle::program oracle_program(const program& p) {
  oracle::program op;
  op.threads = p.size();
  op.init.assign(2, 0);
  op.run = [&p](std::size_t t, std::span<const oracle::value_t> values) {
    oracle::thread_run r;
    std::size_t next = 0;
    for (const ins& x : p[t]) {
      oracle::event e;
      e.ord = x.order;
      if (x.kind == ins_kind::fence) {
        e.fence = true;
        r.events.push_back(e);
        continue;
      }
      e.loc = static_cast<int>(x.loc);
      if (x.kind == ins_kind::store) {
        e.w = true;
        e.wval = x.value;
        r.events.push_back(e);
        continue;
      }
      if (next == values.size()) {
        r.pending_loc = e.loc;
        return r;
      }
      e.r = true;
      e.rval = values[next++];
      e.w = x.kind == ins_kind::faa || (x.kind == ins_kind::cas && e.rval == x.expected);
      e.wval = x.kind == ins_kind::faa ? e.rval + x.value : x.value;
      if (x.kind == ins_kind::cas && !e.w) e.ord = x.fail;
      r.events.push_back(e);
    }
    return r;
  };
  return op;
}

// The signature of an oracle execution in the explorer's numbering: thread 0 holds the init
// writes (event l for location l); program thread t is model thread t + 1, where an RMW is two
// events (read part, write part).
std::string signature(const oracle::execution& x) {
  std::vector<std::string> read_id(x.ev.size()), write_id(x.ev.size());
  std::vector<std::int32_t> next;  // per program thread, its next event index
  for (std::size_t f = 0; f < x.ev.size(); ++f) {
    const oracle::event& e = x.ev[f];
    if (e.thread < 0) {
      write_id[f] = "0." + std::to_string(e.loc);
      continue;
    }
    const auto t = static_cast<std::size_t>(e.thread);
    if (next.size() <= t) next.resize(t + 1, 0);
    const std::string th = std::to_string(t + 1) + ".";
    if (e.r) read_id[f] = th + std::to_string(next[t]++);
    if (e.w) write_id[f] = th + std::to_string(next[t]++);
    if (!e.r && !e.w) ++next[t];
  }
  std::string s;
  for (std::size_t f = 0; f < x.ev.size(); ++f)
    if (x.ev[f].r) s += "r" + read_id[f] + "<" + write_id[static_cast<std::size_t>(x.rf[f])] + ";";
  for (const std::vector<int>& order : x.mo) {
    s += "|";
    for (const int w : order)
      s += write_id[static_cast<std::size_t>(w)] + ",";
  }
  return s;
}

// The oracle's consistent executions of p, or nothing when p has more candidates than the
// enumerator takes (oracle::limit_error: a rare random program; the caller skips it).
std::optional<std::set<std::string>> brute_force(const program& p, memory_model m) {
  std::set<std::string> found;
  try {
    oracle::enumerate(oracle_program(p),
                      m == memory_model::sc ? oracle::model::sc : oracle::model::rc11,
                      [&](const oracle::candidate& c) { found.insert(signature(c.x)); });
  } catch (const oracle::limit_error&) {
    return std::nullopt;
  }
  return found;
}

void differential(memory_model m, std::uint64_t seed, int programs) {
  std::mt19937_64 rng(seed);
  int skipped = 0;
  for (int k = 0; k < programs; ++k) {
    const program p = random_program(rng, program_shape{});
    const std::optional<std::set<std::string>> oracle_result = brute_force(p, m);
    if (!oracle_result) {
      ++skipped;
      continue;
    }
    const std::set<std::string>& found = *oracle_result;
    std::uint64_t count = 0;
    const auto mine = explored(p, m, count);
    const std::set<std::string> uniq(mine.begin(), mine.end());
    ASSERT_EQ(mine.size(), uniq.size()) << "duplicate executions for program " << k << " "
                                        << describe(p) << " (seed " << seed << ")";
    ASSERT_EQ(uniq, found) << "program " << k << ": " << describe(p) << " model " << model_name(m)
                           << "; replay: STEALCHECK_SEED=" << seed;
    ASSERT_EQ(count, found.size());
  }
  std::printf("%d of %d programs compared (%d over the oracle's candidate limit)\n",
              programs - skipped, programs, skipped);
  EXPECT_LE(skipped * 10, programs) << "the random programs outgrew the oracle";
}

constexpr int programs = 3 * STEALCHECK_TEST_SCALE;

TEST(Differential, ExplorerMatchesBruteForceRc11) {
  const std::uint64_t seed = seed_from_env();
  std::printf("differential rc11 seed %llu (replay: STEALCHECK_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  differential(memory_model::rc11, seed, programs);
}

TEST(Differential, ExplorerMatchesBruteForceSc) {
  const std::uint64_t seed = seed_from_env();
  std::printf("differential sc seed %llu (replay: STEALCHECK_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  differential(memory_model::sc, seed, programs);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
