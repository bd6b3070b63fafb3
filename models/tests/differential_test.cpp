// Differential testing: on random small programs (2-3 threads, loads, stores, fences, RMWs,
// mixed orders) the explorer produces exactly the executions a brute-force enumerator finds
// (every candidate rf and mo, filtered by the same consistency predicate), each once.
//
// Seeded: the seed is printed; STEALCHECK_SEED=<n> replays one run. Program count scales with
// STEALCHECK_TEST_SCALE (100 = 300 programs per model, about 5 s in release).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "models/consistency.hpp"
#include "models/explore.hpp"
#include "models/tests/random_programs.hpp"

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

// ---- the brute-force side ----
struct brute {
  const program& p;
  memory_model m;
  std::set<std::string> found;

  // Layout of the explorer's graph: thread 0 = init x, init y, spawns, joins, end.
  graph skeleton() const {
    graph g;
    const std::size_t n = p.size();
    g.threads.resize(n + 1);
    g.info.resize(n + 1);
    add_init_writes(g, 2);
    for (std::size_t t = 1; t <= n; ++t) {
      event e;
      e.kind = event_kind::spawn;
      e.aux = static_cast<std::uint32_t>(t);
      g.info[t].created_by = g.append(0, e);
    }
    return g;
  }

  // rf choice per read instruction: index into the list of writers of its location
  // (0 = init, k = k-th writing instruction in (thread, instr) order).
  void run() {
    std::vector<std::pair<std::size_t, std::size_t>> reads, writers[2];
    for (std::size_t t = 0; t < p.size(); ++t)
      for (std::size_t i = 0; i < p[t].size(); ++i) {
        const ins& x = p[t][i];
        if (x.kind == ins_kind::load || x.kind == ins_kind::faa || x.kind == ins_kind::cas)
          reads.push_back({t, i});
        if (x.kind == ins_kind::store || x.kind == ins_kind::faa || x.kind == ins_kind::cas)
          writers[x.loc].push_back({t, i});
      }
    std::vector<std::size_t> choice(reads.size(), 0);
    std::function<void(std::size_t)> rec = [&](std::size_t k) {
      if (k == reads.size()) return build(reads, writers, choice);
      const ins& x = p[reads[k].first][reads[k].second];
      for (std::size_t c = 0; c <= writers[x.loc].size(); ++c) {
        choice[k] = c;
        rec(k + 1);
      }
    };
    rec(0);
  }

  void build(const std::vector<std::pair<std::size_t, std::size_t>>& reads,
             const std::vector<std::pair<std::size_t, std::size_t>> (&writers)[2],
             const std::vector<std::size_t>& choice);
  void permute_mo(graph& g, std::uint32_t loc);
};

void brute::build(const std::vector<std::pair<std::size_t, std::size_t>>& reads,
                  const std::vector<std::pair<std::size_t, std::size_t>> (&writers)[2],
                  const std::vector<std::size_t>& choice) {
  // Evaluate values: a read's value needs its writer's value, which for an RMW needs that
  // RMW's own read. Iterate to a fixpoint; a cycle means po ∪ rf is cyclic (inconsistent).
  const std::size_t n = p.size();
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> rchoice;
  for (std::size_t k = 0; k < reads.size(); ++k)
    rchoice[reads[k]] = choice[k];
  std::map<std::pair<std::size_t, std::size_t>, std::int64_t> rval, wval;
  std::map<std::pair<std::size_t, std::size_t>, bool> wexists;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t t = 0; t < n; ++t)
      for (std::size_t i = 0; i < p[t].size(); ++i) {
        const ins& x = p[t][i];
        const auto key = std::make_pair(t, i);
        if (rchoice.count(key) && !rval.count(key)) {
          const std::size_t c = rchoice[key];
          if (c == 0) {
            rval[key] = 0;
            progress = true;
          } else {
            const auto w = writers[x.loc][c - 1];
            if (wexists.count(w)) {
              if (!wexists[w]) return;  // reads a CAS that failed: no such write
              rval[key] = wval[w];
              progress = true;
            }
          }
        }
        if (!wexists.count(key)) {
          if (x.kind == ins_kind::store) {
            wexists[key] = true, wval[key] = x.value, progress = true;
          } else if ((x.kind == ins_kind::faa || x.kind == ins_kind::cas) && rval.count(key)) {
            const bool ok = x.kind == ins_kind::faa || rval[key] == x.expected;
            wexists[key] = ok;
            wval[key] = x.kind == ins_kind::faa ? rval[key] + x.value : x.value;
            progress = true;
          }
        }
      }
  }
  for (const auto& r : reads)
    if (!rval.count(r)) return;  // cyclic
  graph g = skeleton();
  std::map<std::pair<std::size_t, std::size_t>, event_id> read_ev, write_ev;
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t i = 0; i < p[t].size(); ++i) {
      const ins& x = p[t][i];
      const auto key = std::make_pair(t, i);
      event e;
      e.loc = x.loc;
      if (x.kind == ins_kind::fence) {
        e.kind = event_kind::fence;
        e.order = x.order;
        g.append(t + 1, e);
        continue;
      }
      if (rchoice.count(key)) {
        e.kind = event_kind::read;
        e.value = rval[key];
        const bool ok = x.kind == ins_kind::faa || (x.kind == ins_kind::cas && wexists[key]);
        e.order = x.kind == ins_kind::load ? x.order : (ok ? read_part(x.order) : x.fail);
        read_ev[key] = g.append(t + 1, e);
      }
      if (wexists.count(key) && wexists[key]) {
        event w;
        w.kind = event_kind::write;
        w.loc = x.loc;
        w.rmw = x.kind != ins_kind::store;
        w.order = w.rmw ? write_part(x.order) : x.order;
        w.value = wval[key];
        write_ev[key] = g.append(t + 1, w);
        g.mo[x.loc].push_back(write_ev[key]);
      }
    }
    event end;
    end.kind = event_kind::end;
    g.append(t + 1, end);
  }
  for (const auto& [key, id] : read_ev) {
    const std::size_t c = rchoice[key];
    const ins& x = p[key.first][key.second];
    g.at(id).rf =
        c == 0 ? event_id{0, static_cast<std::int32_t>(x.loc)} : write_ev[writers[x.loc][c - 1]];
  }
  for (std::size_t t = 1; t <= n; ++t) {
    event j;
    j.kind = event_kind::join;
    j.aux = static_cast<std::uint32_t>(t);
    g.append(0, j);
  }
  event end;
  end.kind = event_kind::end;
  g.append(0, end);
  permute_mo(g, 0);
}

void brute::permute_mo(graph& g, std::uint32_t loc) {
  if (loc == 2) {
    if (consistency_checker(m).consistent(g)) found.insert(signature(g));
    return;
  }
  auto& v = g.mo[loc];
  std::sort(v.begin() + 1, v.end(), [](event_id a, event_id b) {
    return a.thread != b.thread ? a.thread < b.thread : a.index < b.index;
  });
  do {
    permute_mo(g, loc + 1);
  } while (std::next_permutation(v.begin() + 1, v.end(), [](event_id a, event_id b) {
    return a.thread != b.thread ? a.thread < b.thread : a.index < b.index;
  }));
}

void differential(memory_model m, std::uint64_t seed, int programs) {
  std::mt19937_64 rng(seed);
  for (int k = 0; k < programs; ++k) {
    const program p = random_program(rng, program_shape{});
    std::uint64_t count = 0;
    const auto mine = explored(p, m, count);
    brute b{p, m, {}};
    b.run();
    const std::set<std::string> uniq(mine.begin(), mine.end());
    ASSERT_EQ(mine.size(), uniq.size()) << "duplicate executions for program " << k << " "
                                        << describe(p) << " (seed " << seed << ")";
    ASSERT_EQ(uniq, b.found) << "program " << k << ": " << describe(p) << " model " << model_name(m)
                             << "; replay: STEALCHECK_SEED=" << seed;
    ASSERT_EQ(count, b.found.size());
  }
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
