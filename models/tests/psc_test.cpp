// Differential test of RC11's SC axiom: psc_acyclic (models/psc.cpp) must give exactly the
// answer of psc_acyclic_reference (models/psc_reference.cpp, the direct computation) on
//   (a) every complete execution graph of every deque client (default orders, and every site
//       overridden to seq_cst so that most events are sc) and of the litmus shapes;
//   (b) inconsistent graphs: those graphs mutated (a read's rf moved to another write of its
//       location, two mo-adjacent writes swapped, an event made sc or no longer sc), hb
//       recomputed; graphs whose po ∪ rf ∪ tc is cyclic are skipped (hb_of is nullptr);
//   (c) the same for random programs (2-4 threads, 3 locations, loads, stores, fences, RMWs).
// Each test requires that some compared graphs have a psc cycle and some do not.
//
// Seeded: the seed is printed; STEALCHECK_SEED=<n> replays one run. Random program count
// scales with STEALCHECK_TEST_SCALE (100 = 500 programs; the whole file takes about 5 s in
// release on one core).
#include "models/psc.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "deques/registry.hpp"
#include "models/clients.hpp"
#include "models/explore.hpp"
#include "models/hb.hpp"
#include "models/tests/litmus_shapes.hpp"

namespace stealcheck::model {
namespace {

std::uint64_t seed_from_env() {
  if (const char* s = std::getenv("STEALCHECK_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}

std::string dump(const graph& g) {
  std::string s;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    s += "  T" + std::to_string(t) + ":";
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      s += " " + std::to_string(i) + ":" + std::string(kind_name(e.kind));
      if (is_access(e) || e.kind == event_kind::fence)
        s += "." + std::string(order_name(e.order).substr(0, 3));
      if (is_access(e)) s += "@" + std::to_string(e.loc);
      if (e.rmw) s += "(rmw)";
      if (is_read(e)) s += "<-" + std::to_string(e.rf.thread) + "." + std::to_string(e.rf.index);
    }
    s += "\n";
  }
  for (std::size_t l = 0; l < g.mo.size(); ++l) {
    s += "  mo@" + std::to_string(l) + ":";
    for (const event_id w : g.mo[l])
      s += " " + std::to_string(w.thread) + "." + std::to_string(w.index);
    s += "\n";
  }
  return s;
}

struct checker {
  std::uint64_t seed;
  std::mt19937_64 rng;
  std::uint64_t explored = 0, mutated = 0, compared = 0, cycles = 0, skipped = 0, mismatches = 0;

  explicit checker(std::uint64_t s) : seed(s), rng(s) {}

  void compare(const graph& g, const char* what) {
    const hb_clocks* c = hb_of(g);
    if (c == nullptr) {
      ++skipped;
      return;
    }
    const bool ref = psc_acyclic_reference(g, *c);
    const bool fast = psc_acyclic(g, *c);
    ++compared;
    if (!ref) ++cycles;
    if (fast == ref) return;
    if (++mismatches <= 3)
      ADD_FAILURE() << what << ": psc_acyclic says " << fast << ", the reference " << ref << "\n"
                    << dump(g) << "replay: STEALCHECK_SEED=" << seed;
  }

  // One random change that keeps graph.hpp's invariants except consistency.
  void mutate(graph& g) {
    std::vector<event_id> reads, marks;
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
        const event& e = g.threads[t][i];
        const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
        if (is_read(e)) reads.push_back(id);
        if (is_access(e) || e.kind == event_kind::fence) marks.push_back(id);
      }
    switch (rng() % 4) {
      case 0: {  // rf: another write of the read's location
        if (reads.empty()) return;
        event& r = g.at(reads[rng() % reads.size()]);
        const auto& m = g.mo[r.loc];
        r.rf = m[rng() % m.size()];
        break;
      }
      case 1: {  // mo: swap two adjacent writes (the init write too)
        const std::size_t l = rng() % g.mo.size();
        auto& m = g.mo[l];
        if (m.size() < 2) return;
        const std::size_t k = rng() % (m.size() - 1);
        std::swap(m[k], m[k + 1]);
        break;
      }
      case 2:  // make an access or fence sc
        if (!marks.empty()) g.at(marks[rng() % marks.size()]).order = std::memory_order_seq_cst;
        break;
      default: {  // make an sc event not sc (a fence stays a fence: acq_rel)
        if (marks.empty()) return;
        event& e = g.at(marks[rng() % marks.size()]);
        if (e.order == std::memory_order_seq_cst)
          e.order =
              e.kind == event_kind::fence ? std::memory_order_acq_rel : std::memory_order_relaxed;
        break;
      }
    }
    g.hbc.drop();  // rf or orders changed
  }

  // The graph itself, then `variants` copies with 1-3 mutations each.
  void check(const graph& g0, const char* what, int variants) {
    graph g = g0;
    ++explored;
    compare(g, what);
    for (int k = 0; k < variants; ++k) {
      graph m = g0;
      const int changes = 1 + static_cast<int>(rng() % 3);
      for (int j = 0; j < changes; ++j)
        mutate(m);
      ++mutated;
      compare(m, what);
    }
  }

  void expect_both_answers(const char* name) {
    using ull = unsigned long long;
    std::printf(
        "%s: %llu explored graphs and %llu mutations of them; %llu compared, %llu of them "
        "with a psc cycle, %llu skipped (hb cyclic); seed %llu (replay: "
        "STEALCHECK_SEED=%llu)\n",
        name, ull{explored}, ull{mutated}, ull{compared}, ull{cycles}, ull{skipped}, ull{seed},
        ull{seed});
    EXPECT_EQ(mismatches, 0u) << "replay: STEALCHECK_SEED=" << seed;
    EXPECT_GT(cycles, 0u) << "no graph with a psc cycle: the test cannot fail";
    EXPECT_GT(compared, cycles) << "no acyclic graph";
  }
};

TEST(Psc, FastMatchesReferenceOnClientGraphs) {
  checker ck(seed_from_env());
  for_each_variant([&](auto tag, const variant_info& info) {
    for (const bool all_sc : {false, true}) {
      options o;
      if (all_sc)
        for (const site* s : info.sites)
          o.sites.emplace_back(std::string(s->name), std::memory_order_seq_cst);
      for (const auto& cl : clients::clients_for<decltype(tag)::template deque>(info)) {
        if (cl.large) continue;
        const std::string what = std::string(info.name) + "/" + std::string(cl.name) +
                                 (all_sc ? " (all sites seq_cst)" : "");
        o.on_complete = [&](const graph& g) { ck.check(g, what.c_str(), 2); };
        const result r = explore(o, cl.run);
        EXPECT_GT(r.complete, 0u) << what;  // known-bad variants may stop at a bug
      }
    }
  });
  ck.expect_both_answers("clients");
}

TEST(Psc, FastMatchesReferenceOnLitmusGraphs) {
  checker ck(seed_from_env());
  for (const auto& sh : litmus::oracle_shapes()) {
    options o;
    const std::string what(sh.name);
    o.on_complete = [&](const graph& g) { ck.check(g, what.c_str(), 20); };
    const result r = explore(o, [&](client& c) {
      bool weak = false;
      sh.run(c, weak);
    });
    EXPECT_TRUE(r.ok()) << what;
  }
  ck.expect_both_answers("litmus");
}

// Random programs, as in differential_test.cpp but larger and with 3 locations.
enum class ins_kind { load, store, fence, faa, cas };
struct ins {
  ins_kind kind;
  std::uint32_t loc;
  std::memory_order order;
  std::memory_order fail = std::memory_order_relaxed;
  std::int64_t value = 0;
  std::int64_t expected = 0;
};
using program = std::vector<std::vector<ins>>;

program random_program(std::mt19937_64& rng) {
  using mo = std::memory_order;
  // seq_cst is listed twice: programs with several sc events are the interesting ones.
  const mo loads[] = {mo::relaxed, mo::acquire, mo::seq_cst, mo::seq_cst};
  const mo stores[] = {mo::relaxed, mo::release, mo::seq_cst, mo::seq_cst};
  const mo fences[] = {mo::acquire, mo::release, mo::acq_rel, mo::seq_cst, mo::seq_cst};
  const mo rmws[] = {mo::relaxed, mo::acquire, mo::release, mo::acq_rel, mo::seq_cst};
  auto pick = [&](auto& arr) { return arr[rng() % std::size(arr)]; };
  program p(2 + rng() % 3);
  std::int64_t next_value = 1;
  std::size_t total = 0;
  for (auto& th : p) {
    const std::size_t n = 1 + rng() % 4;
    for (std::size_t k = 0; k < n && total < 10; ++k, ++total) {
      ins i{};
      i.kind = static_cast<ins_kind>(rng() % 5);
      i.loc = static_cast<std::uint32_t>(rng() % 3);
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

void run_program(client& c, const program& p) {
  memory::atomic<std::int64_t> x{0}, y{0}, z{0};
  memory::atomic<std::int64_t>* locs[] = {&x, &y, &z};
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

constexpr int programs = 5 * STEALCHECK_TEST_SCALE;

TEST(Psc, FastMatchesReferenceOnRandomPrograms) {
  checker ck(seed_from_env());
  std::mt19937_64 gen(ck.seed);
  for (int k = 0; k < programs; ++k) {
    const program p = random_program(gen);
    const std::string what = "random program " + std::to_string(k);
    options o;
    o.max_executions = 2000;
    o.on_complete = [&](const graph& g) { ck.check(g, what.c_str(), 8); };
    const result r = explore(o, [&](client& c) { run_program(c, p); });
    EXPECT_TRUE(r.ok()) << what;
  }
  ck.expect_both_answers("random programs");
}

}  // namespace
}  // namespace stealcheck::model
