// The large client (owner push x4 from capacity 2, pop x4; two thieves stealing twice each)
// explored exhaustively on chase_lev: no bug, nothing blocked, every execution exactly once
// (a 64-bit hash of each complete graph's rf and mo choices is never seen twice), and the
// number of executions the explorer produced before its performance work (1,024,124, measured
// with the graph-copying explorer of commit aac29e6; the count is a property of TruSt's
// exploration under RC11, so any change of it is a bug in one of the two).
//
// Run time: about 30-60 s in release on this 2-core machine (each of the two tests); skipped in the
// sanitizer presets (STEALCHECK_TEST_SCALE < 100), which would take over 10 minutes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <unordered_set>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"

namespace stealcheck::model {
namespace {

// FNV-1a over the choices that identify an execution: each read's write and each location's
// mo order.
std::uint64_t choice_hash(const graph& g) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::uint64_t v) {
    h ^= v;
    h *= 1099511628211ULL;
  };
  for (const auto& th : g.threads) {
    mix(0xffff);
    for (const event& e : th)
      if (is_read(e))
        mix((static_cast<std::uint64_t>(e.rf.thread) << 32) ^ e.rf.index ^ e.spurious);
  }
  for (const auto& m : g.mo) {
    mix(0xfffe);
    for (const event_id w : m)
      mix((static_cast<std::uint64_t>(w.thread) << 32) ^ static_cast<std::uint64_t>(w.index));
  }
  return h;
}

// Explores the large client on `jobs` explorer threads and checks: no bug, nothing blocked,
// every execution once, the pre-optimisation count. Returns the result for more checks.
result explore_large_client_once_each(unsigned jobs) {
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(1u << 21);
  std::uint64_t repeats = 0;
  options o;
  o.jobs = jobs;
  o.on_complete = [&](const graph& g, const consistency_checker&) {  // serialized when jobs > 1
    if (!seen.insert(choice_hash(g)).second) ++repeats;
  };
  result r = explore(o, clients::push4_pop4_2thieves_steal2<chase_lev_tag::deque>);
  EXPECT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
  EXPECT_EQ(r.blocked, 0u);
  EXPECT_EQ(repeats, 0u) << "an execution was explored twice";
  EXPECT_EQ(r.complete, 1024124u);
  std::printf(
      "push4_pop4_2thieves_steal2, %u job(s): %llu complete in %.1f s (%.0f execs/s), "
      "%llu pieces\n",
      jobs, static_cast<unsigned long long>(r.complete), r.seconds, r.execs_per_second(),
      static_cast<unsigned long long>(r.pieces));
  return r;
}

TEST(LargeClient, ChaseLevExhaustiveEachExecutionOnce) {
  if (STEALCHECK_TEST_SCALE < 100) GTEST_SKIP() << "release preset only (minutes under sanitizers)";
  explore_large_client_once_each(1);
}

// The same on two explorer threads (options::jobs), and the work really was shared: pieces
// were given away and each job explored a good part (the even split is half; the jobs share
// two cores with whatever else runs, so only a gross imbalance fails).
TEST(LargeClient, ChaseLevParallelEachExecutionOnce) {
  if (STEALCHECK_TEST_SCALE < 100) GTEST_SKIP() << "release preset only (minutes under sanitizers)";
  const result r = explore_large_client_once_each(2);
  EXPECT_GE(r.pieces, 2u);
  EXPECT_LT(r.busiest_job, r.complete * 9 / 10);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
