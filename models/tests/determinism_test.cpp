// Exploration is deterministic (same order, same counts), produces each execution once on real
// deque clients, and every SC execution of a client is also an RC11 execution.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/report/token.hpp"

namespace stealcheck::model {
namespace {

std::vector<std::string> tokens(void (*fn)(client&), memory_model m) {
  std::vector<std::string> out;
  options o;
  o.model = m;
  o.on_complete = [&](const graph& g, const consistency_checker&) {
    out.push_back(encode_token(g));
  };
  const result r = explore(o, fn);
  EXPECT_TRUE(r.ok()) << r.bug->message;
  EXPECT_EQ(r.complete, out.size());
  return out;
}

TEST(Determinism, SameOrderSameCountsNoDuplicates) {
  for (auto fn : {clients::push2_pop_steal2<chase_lev_tag::deque>,
                  clients::push3_pop2_2thieves<chase_lev_tag::deque>,
                  clients::push2_pop_steal2<locked_tag::deque>}) {
    const auto a = tokens(fn, memory_model::rc11);
    const auto b = tokens(fn, memory_model::rc11);
    EXPECT_EQ(a, b);
    const std::set<std::string> uniq(a.begin(), a.end());
    EXPECT_EQ(uniq.size(), a.size()) << "an execution was explored twice";
  }
}

TEST(Determinism, ScExecutionsAreRc11Executions) {
  for (auto fn : {clients::push2_pop_steal2<chase_lev_tag::deque>,
                  clients::push_pop_steal2<chase_lev_tag::deque>}) {
    const auto rc = tokens(fn, memory_model::rc11);
    const auto sc = tokens(fn, memory_model::sc);
    const std::set<std::string> rcs(rc.begin(), rc.end());
    EXPECT_LE(sc.size(), rc.size());
    for (const auto& t : sc)
      EXPECT_TRUE(rcs.count(t)) << "SC execution not in RC11: " << t;
  }
}

TEST(Determinism, PopFenceBugIsWeakMemoryOnly) {
  // Without pop's fence the double take needs store->load reordering: SC never shows it.
  options sc;
  sc.model = memory_model::sc;
  const result under_sc = explore(sc, clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  EXPECT_TRUE(under_sc.ok()) << under_sc.bug->message;
  const result under_rc11 = explore(options{}, clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  EXPECT_FALSE(under_rc11.ok());
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
