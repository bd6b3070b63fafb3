// Mutation analysis reproduces what the literature and the checker's own runs say about
// chase_lev's orders, and the order lattice it walks is the C++ one.
#include "stealcheck/detail/models/front/mutate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"

namespace stealcheck::model {
namespace {

using mo = std::memory_order;

const harness::variant& chase_lev_variant() {
  static const harness::variant v = [] {
    harness::variant x(builtin::chase_lev);
    bind<chase_lev_tag::deque>(x);
    return x;
  }();
  return v;
}

const mutant& find(const mutate_report& r, std::string_view site, mo order) {
  const auto it = std::find_if(r.mutants.begin(), r.mutants.end(), [&](const mutant& m) {
    return m.s->name == site && m.order == order;
  });
  EXPECT_NE(it, r.mutants.end()) << site;
  return *it;
}

TEST(Mutate, WeakerOrdersFollowTheKinds) {
  EXPECT_EQ(weaker_orders(site_kind::fence, mo::seq_cst),
            (std::vector<mo>{mo::acq_rel, mo::acquire, mo::release, mo::relaxed}));
  EXPECT_EQ(weaker_orders(site_kind::load, mo::seq_cst),
            (std::vector<mo>{mo::acquire, mo::relaxed}));
  EXPECT_EQ(weaker_orders(site_kind::store, mo::seq_cst),
            (std::vector<mo>{mo::release, mo::relaxed}));
  EXPECT_EQ(weaker_orders(site_kind::rmw, mo::release), (std::vector<mo>{mo::relaxed}));
  EXPECT_TRUE(weaker_orders(site_kind::cas_failure, mo::relaxed).empty());
}

TEST(Mutate, ChaseLevKnownFacts) {
  // A full mutation run (460 s under tsan): release only. Under the sanitizers the engine runs
  // in Mutate.TheSameWithOneJobAndChosenClients and Mutate.ATextContradictingTheVerdictFails.
  if (STEALCHECK_TEST_SCALE < 100) GTEST_SKIP() << "release preset only (minutes under sanitizers)";
  mutate_options o;
  o.jobs = 2;
  const mutate_report r = mutate(chase_lev_variant(), o);
  std::vector<std::string> all;
  for (const auto& cl : clients::clients_for<chase_lev_tag::deque>(builtin::chase_lev))
    if (!cl.large) all.emplace_back(cl.name);
  ASSERT_EQ(r.baseline.size(), all.size());
  // push's release fence (MP) and steal's acquire load of bottom: killed by every client
  for (auto [site, order] : {std::pair{"chase_lev::push.fence", mo::relaxed},
                             std::pair{"chase_lev::steal.load_bottom", mo::relaxed}}) {
    const mutant& m = find(r, site, order);
    EXPECT_EQ(m.verdict, mutant_verdict::killed) << site;
    EXPECT_EQ(m.killers, all) << site;
    EXPECT_NE(m.bug.find("never pushed"), std::string::npos) << m.bug;
  }
  // the two seq_cst fences (SB+scfs): every weakening killed, but only by the clients with
  // two removers racing the owner's pop; push_pop_steal2's single race never shows it
  for (const char* site : {"chase_lev::pop.fence", "chase_lev::steal.fence"}) {
    for (mo w : {mo::acq_rel, mo::acquire, mo::release, mo::relaxed}) {
      const mutant& m = find(r, site, w);
      EXPECT_EQ(m.verdict, mutant_verdict::killed) << site;
      EXPECT_EQ(std::count(m.killers.begin(), m.killers.end(), "push_pop_steal2"), 0) << site;
      EXPECT_NE(m.bug.find("taken twice"), std::string::npos) << m.bug;
      ASSERT_TRUE(m.replay.has_value());
      EXPECT_NE(m.replay->str().find(std::string("--site ") + site + "="), std::string::npos);
    }
  }
  // the relaxed publish of a grown array is CDSChecker's bug: the resizing client kills it
  const mutant& resize = find(r, "chase_lev::resize.store_array", mo::relaxed);
  EXPECT_EQ(resize.verdict, mutant_verdict::killed);
  EXPECT_EQ(resize.killers,
            (std::vector<std::string>{"push3_pop2_2thieves", "full_ring_push_pop_steal3",
                                      "push3_steal_destroy"}));
  // AutoMO's findings: take's CAS need not be seq_cst; steal's acquire load of top is
  // redundant before its seq_cst fence (the same executions, exactly)
  EXPECT_EQ(find(r, "chase_lev::pop.cas", mo::relaxed).verdict, mutant_verdict::equivalent);
  EXPECT_EQ(find(r, "chase_lev::steal.load_top", mo::relaxed).verdict, mutant_verdict::equivalent);
  // steal's CAS without its release half admits more executions, still no bug
  EXPECT_EQ(find(r, "chase_lev::steal.cas", mo::relaxed).verdict,
            mutant_verdict::weaker_not_killed);
}

// The headers agree with the verdicts: every needed order of a built-in variant names a client
// that kills its weakening, and no text says "not needed" of an order whose every weakening
// is killed.
TEST(Mutate, BuiltinSiteTextsNameTheirKillers) {
  // Two full mutation runs of pure model checking (240 s under tsan): release only, where
  // cli.mutate_<variant> runs them for every variant too (and checks proofs/ is current).
  if (STEALCHECK_TEST_SCALE < 100) GTEST_SKIP() << "release preset only (minutes under sanitizers)";
  harness::variant steal_half_variant(builtin::steal_half);
  bind<steal_half_tag::deque>(steal_half_variant);
  for (const harness::variant* v :
       {&chase_lev_variant(), static_cast<const harness::variant*>(&steal_half_variant)}) {
    const std::string_view name = v->name();
    mutate_options o;
    o.jobs = 2;
    const mutate_report r = mutate(*v, o);
    EXPECT_TRUE(r.ok()) << name;
    std::size_t needed = 0;
    for (const site_summary& s : r.sites) {
      EXPECT_FALSE(s.contradicted) << s.s->name;
      if (!s.justified || weaker_orders(s.s->kind, s.s->order).empty()) continue;
      ++needed;
      EXPECT_TRUE(s.names_killer) << s.s->name << ": " << s.s->why;
    }
    EXPECT_GT(needed, 0u) << name;
  }
}

// A text that says "not needed" of an order the checker finds needed fails mutate.
// A variant that declares no sites has nothing to weaken: that is no evidence, so not OK.
TEST(Mutate, NoSitesIsNotOk) {
  harness::variant locked_variant(builtin::locked);
  bind<locked_tag::deque>(locked_variant);
  mutate_options o;
  o.clients = {"push_pop_steal2"};
  const mutate_report r = mutate(locked_variant, o);
  EXPECT_TRUE(r.sites.empty());
  EXPECT_TRUE(r.mutants.empty());
  EXPECT_FALSE(r.ok());
}

TEST(Mutate, ATextContradictingTheVerdictFails) {
  variant_info info = builtin::chase_lev;
  std::vector<site> edited;
  for (const site* s : info.sites)
    edited.push_back(*s);
  for (site& s : edited)
    if (s.name == "chase_lev::push.fence") s.why = "not needed (a wrong claim)";
  std::vector<const site*> ptrs;
  ptrs.reserve(edited.size());
  for (const site& s : edited)
    ptrs.push_back(&s);
  info.sites = ptrs;
  harness::variant v(info);
  bind<chase_lev_tag::deque>(v);
  mutate_options o;
  o.jobs = 2;
  o.clients = {"push_pop_steal2"};
  const mutate_report r = mutate(v, o);
  EXPECT_FALSE(r.ok());
  const auto it = std::find_if(r.sites.begin(), r.sites.end(), [](const site_summary& s) {
    return s.s->name == "chase_lev::push.fence";
  });
  ASSERT_NE(it, r.sites.end());
  EXPECT_TRUE(it->contradicted);
}

TEST(Mutate, TheSameWithOneJobAndChosenClients) {
  mutate_options one;
  one.clients = {"push_pop_steal2"};
  const mutate_report r = mutate(chase_lev_variant(), one);
  ASSERT_EQ(r.baseline.size(), 1u);
  // one steal against push, pop: more executions without the pop fence, never a bug
  EXPECT_EQ(find(r, "chase_lev::pop.fence", mo::relaxed).verdict,
            mutant_verdict::weaker_not_killed);
  EXPECT_EQ(find(r, "chase_lev::push.fence", mo::relaxed).verdict, mutant_verdict::killed);
  one.clients = {"no_such_client"};
  EXPECT_THROW(mutate(chase_lev_variant(), one), harness::usage_error);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
