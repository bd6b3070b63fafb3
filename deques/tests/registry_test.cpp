// The registry lists each variant once, with its sites; every registered deque satisfies the
// contract concept, and the known-bad ones differ from their variant in exactly the one site
// (abp_tag1, fjp_pop_no_rmw and others in none: their bugs are not an order).
#include "stealcheck/detail/deques/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

namespace stealcheck {
namespace {

TEST(Registry, NamesAreUniqueAndTheKnownBadAreMarked) {
  std::set<std::string> names;
  int bad = 0;
  for_each_variant([&](auto tag, const variant_info& info) {
    using D = typename decltype(tag)::template deque<std::int64_t, native_memory>;
    static_assert(builtin_deque<D>);
    EXPECT_EQ(D::variant_name, info.name);
    EXPECT_TRUE(names.insert(std::string(info.name)).second) << info.name;
    bad += info.known_bad ? 1 : 0;
    for (const site* s : info.sites)
      EXPECT_FALSE(s->why.empty()) << s->name;
  });
  EXPECT_EQ(names.size(), 36u);
  EXPECT_EQ(bad, 21);
  static_assert(batch_stealing_deque<steal_half<int>>);
  static_assert(batch_stealing_deque<tokio_queue<int>>);
  static_assert(batch_stealing_deque<go_runq<int>>);
  static_assert(batch_stealing_deque<tokio_lifo<int>>);
  static_assert(!batch_stealing_deque<bwos<int>> && owner_shares_v<bwos<int>>);
}

TEST(Registry, KnownBadVariantsWeakenExactlyOneSite) {
  auto diff = [](std::string_view good_name, std::string_view bad_name) {
    std::span<const site*const> good, bad;
    for_each_variant([&](auto, const variant_info& info) {
      if (info.name == good_name) good = info.sites;
      if (info.name == bad_name) bad = info.sites;
    });
    std::string changed;
    EXPECT_EQ(good.size(), bad.size());
    for (std::size_t i = 0; i < good.size() && i < bad.size(); ++i) {
      EXPECT_EQ(good[i]->name, bad[i]->name);
      if (good[i]->order != bad[i]->order) changed += std::string(bad[i]->name) + ";";
    }
    return changed;
  };
  EXPECT_EQ(diff("chase_lev", "chase_lev_no_pop_fence"), "chase_lev::pop.fence;");
  EXPECT_EQ(diff("chase_lev", "chase_lev_no_push_fence"), "chase_lev::push.fence;");
  EXPECT_EQ(diff("the", "the_no_pop_fence"), "the::pop.fence;");
  EXPECT_EQ(diff("dotnet", "dotnet_no_pop_fence"), "dotnet::pop.fence;");
  // abp_tag1 keeps every order: its bug is the tag's width, not a site
  EXPECT_EQ(diff("abp", "abp_tag1"), "");
  // fjp_pop_no_rmw keeps every order: its bug is a read and a store in place of an exchange
  EXPECT_EQ(diff("fjp", "fjp_pop_no_rmw"), "");
  // idempotent_no_tag keeps every order: its bug is a put that keeps the anchor's tag
  EXPECT_EQ(diff("idempotent", "idempotent_no_tag"), "");
  // tokio's known-bads keep every order: a room check against the wrong index, 2-bit indices
  EXPECT_EQ(diff("tokio", "tokio_push_checks_real"), "");
  EXPECT_EQ(diff("tokio", "tokio_narrow_index"), "");
  // go_pop_runnext_no_cas keeps every order: its bug is a store in place of a CAS
  EXPECT_EQ(diff("go", "go_pop_runnext_no_cas"), "");
  // tokio_lifo_push_load_store keeps every order: its bug is a load and a store for a swap
  EXPECT_EQ(diff("tokio_lifo", "tokio_lifo_push_load_store"), "");
  // bwos_reuse_unchecked keeps every order: its bug is a check (the thieves' count) left out
  EXPECT_EQ(diff("bwos", "bwos_reuse_unchecked"), "");
  // crossbeam_lifo_no_recheck keeps every order: its bug is a load (the re-check) left out
  EXPECT_EQ(diff("crossbeam_lifo", "crossbeam_lifo_no_recheck"), "");
  // the deep known-bads: one order weakened, or a tag or index narrowed
  EXPECT_EQ(diff("chase_lev", "chase_lev_grow_relaxed"), "chase_lev::resize.store_array;");
  EXPECT_EQ(diff("chase_lev", "chase_lev_steal_array_relaxed"), "chase_lev::steal.load_array;");
  EXPECT_EQ(diff("tokio", "tokio_wrap_relaxed_head"), "tokio::push.load_head;");
  EXPECT_EQ(diff("abp", "abp_tag2"), "");
  EXPECT_EQ(diff("tokio", "tokio_index3"), "");
}

// Every built-in known-bad says where it is fixed, one way or the other: a bug in an order by
// its broken sites (a reason that starts with KNOWN-BAD), a bug in its code by the correct
// built-in variant that is the same code with the fix (fixed_in), whose every site it keeps at
// the same order. (The fix's run passing and the known-bad's failing: the CLI test
// cli.known_bad_fixed_where_declared.)
TEST(Registry, EveryKnownBadSaysWhereItIsFixed) {
  int by_site = 0, by_code = 0;
  for_each_variant([&](auto, const variant_info& bad) {
    if (!bad.known_bad) {
      EXPECT_TRUE(bad.fixed_in.variant.empty()) << bad.name;
      return;
    }
    const bool broken_site = std::any_of(bad.sites.begin(), bad.sites.end(), [](const site* s) {
      return s->why.starts_with("KNOWN-BAD");
    });
    EXPECT_NE(broken_site, !bad.fixed_in.variant.empty()) << bad.name << ": one way, not both";
    if (broken_site) {
      ++by_site;
      return;
    }
    ++by_code;
    EXPECT_FALSE(bad.fixed_in.change.empty()) << bad.name;
    bool found = false;
    for_each_variant([&](auto, const variant_info& good) {
      if (good.name != bad.fixed_in.variant) return;
      found = true;
      EXPECT_FALSE(good.known_bad) << bad.name << " is fixed in a known-bad";
      for (const site* g : good.sites) {
        const auto same = std::find_if(bad.sites.begin(), bad.sites.end(),
                                       [&](const site* b) { return b->name == g->name; });
        ASSERT_NE(same, bad.sites.end()) << bad.name << " lacks " << g->name;
        EXPECT_EQ((*same)->order, g->order) << bad.name << ": " << g->name;
      }
    });
    EXPECT_TRUE(found) << bad.name << " is fixed in " << bad.fixed_in.variant << ", not built in";
  });
  EXPECT_EQ(by_site, 7);
  EXPECT_EQ(by_code, 14);
}

TEST(Registry, TheTicket2KeepsEveryOrderOfTheAndAddsItsLocksSites) {
  std::span<const site*const> good, bad;
  for_each_variant([&](auto, const variant_info& info) {
    if (info.name == "the") good = info.sites;
    if (info.name == "the_ticket2") bad = info.sites;
  });
  ASSERT_EQ(bad.size(), good.size() + 4);
  for (std::size_t i = 0; i < good.size(); ++i) {
    EXPECT_EQ(good[i]->name, bad[i]->name);
    EXPECT_EQ(good[i]->order, bad[i]->order) << bad[i]->name;
  }
  for (std::size_t i = good.size(); i < bad.size(); ++i)
    EXPECT_TRUE(std::string_view(bad[i]->name).starts_with("the::lock.") ||
                std::string_view(bad[i]->name).starts_with("the::unlock."))
        << bad[i]->name;
}

// Every built-in's batch_steal and owner_shares say what its type says, at compile time; and
// the check is not vacuous: a copy of split's info without owner_shares, or of steal_half's
// without batch_steal, does not match its type.
consteval bool every_builtin_info_matches_its_type() {
  bool ok = true;
  for_each_variant([&ok](auto tag, const variant_info& info) {
    ok = ok && info_matches_type<decltype(tag)>(info);
  });
  return ok;
}
static_assert(every_builtin_info_matches_its_type());

TEST(Registry, AnInfoThatDisagreesWithItsTypeIsCaught) {
  variant_info split = builtin::split;
  EXPECT_TRUE(info_matches_type<split_tag>(split));
  split.owner_shares = false;
  EXPECT_FALSE(info_matches_type<split_tag>(split));
  variant_info half = builtin::steal_half;
  EXPECT_TRUE(info_matches_type<steal_half_tag>(half));
  half.batch_steal = false;
  EXPECT_FALSE(info_matches_type<steal_half_tag>(half));
}

TEST(Registry, UnknownVariantIsReported) {
  EXPECT_FALSE(with_variant("no_such_deque", [](auto, const variant_info&) {}));
  EXPECT_TRUE(with_variant("locked", [](auto, const variant_info&) {}));
}

}  // namespace
}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
