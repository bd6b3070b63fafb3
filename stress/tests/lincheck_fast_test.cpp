// The direct decision (stress/lincheck_fast.hpp) against the general search on widened
// histories (stress/widened.hpp), legal and broken, and on small hand-made histories whose
// proofs it must find.
#include "stealcheck/detail/stress/lincheck_fast.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <tuple>

#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/stress/lincheck.hpp"
#include "stealcheck/detail/stress/widened.hpp"

namespace stealcheck::stress::lincheck {
namespace {

constexpr auto lifo = spec::spec_kind::lifo_owner;

// Owner (thread 0) and thief operations with explicit stamps.
operation op(std::uint32_t thread, op_kind kind, std::uint64_t invoke, std::uint64_t response,
             std::optional<std::uint64_t> value = std::nullopt) {
  operation o;
  o.thread = thread;
  o.kind = kind;
  o.invoke = invoke;
  o.response = response;
  if (kind == op_kind::push) {
    o.value = *value;
    o.has_value = true;
  } else {
    o.set_taken(value);
    if (kind == op_kind::steal) o.status = value ? steal_status::item : steal_status::empty;
  }
  return o;
}

// One result changed at random: to empty, to abort (steals), or to another value.
history changed_at_random(history h, std::uint64_t seed) {
  std::uint64_t s = seed;
  std::vector<std::size_t> takers;
  std::uint64_t values = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i].kind == op_kind::push) ++values;
    if (h[i].kind != op_kind::push) takers.push_back(i);
  }
  if (takers.empty() || values == 0) return h;
  operation& o = h[takers[splitmix64_next(s) % takers.size()]];
  switch (splitmix64_next(s) % 3) {
    case 0:
      o.set_taken(std::nullopt);
      if (o.kind == op_kind::steal) o.status = steal_status::empty;
      break;
    case 1:
      if (o.kind == op_kind::steal) {
        o.set_taken(std::nullopt);
        o.status = steal_status::abort;
        break;
      }
      [[fallthrough]];
    default:
      o.set_taken(splitmix64_next(s) % values);
      if (o.kind == op_kind::steal) o.status = steal_status::item;
  }
  return h;
}

// Every widened history, legal, broken for certain, or changed at random: where the direct
// decision decides, it agrees with the search; it decides every legal and every broken one.
TEST(LincheckFast, AgreesWithTheSearchOnEveryGeneratedHistory) {
  std::size_t histories = 0, direct = 0, legal = 0;
  for (const std::size_t threads : {2, 3, 4, 8}) {
    for (const std::size_t ops : {12, 40, 120, 400}) {
      for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        for (const auto change : {widened_change::none, widened_change::duplicate,
                                  widened_change::empty_steal, widened_change::empty_pop}) {
          const auto h = widened_history({ops, threads, seed, change});
          if (!h) continue;
          for (const bool at_random : {false, true}) {
            if (at_random && change != widened_change::none) continue;
            const history g = at_random ? changed_at_random(*h, seed) : *h;
            const fast_result f = fast_check(g, lifo);
            const check_result s = search(g, lifo);
            ++histories;
            const std::string replay = testing::PrintToString(
                std::make_tuple(ops, threads, seed, change_name(change), at_random));
            if (!at_random) {
              EXPECT_NE(f.verdict, fast_verdict::undecided) << replay << ": " << f.reason;
              EXPECT_EQ(s.linearizable, change == widened_change::none) << replay;
            }
            if (f.verdict == fast_verdict::undecided) continue;
            ++direct;
            legal += s.linearizable ? 1 : 0;
            EXPECT_EQ(f.verdict == fast_verdict::linearizable, s.linearizable)
                << replay << ": " << f.reason;
          }
        }
      }
    }
  }
  std::printf("%zu histories (%zu linearizable), %zu decided directly\n", histories, legal, direct);
  EXPECT_GE(direct * 10, histories * 9);  // the search is the fallback, not the rule
}

// A witness is a legal order that respects real time, at sizes the search needs seconds for.
TEST(LincheckFast, DecidesLargeWidenedHistoriesWithAWitness) {
  for (const std::size_t threads : {2, 8}) {
    const auto h = widened_history({20000, threads, 7, widened_change::none});
    ASSERT_TRUE(h);
    const check_result r = check(*h, lifo);
    ASSERT_TRUE(r.linearizable);
    EXPECT_TRUE(r.direct);
    ASSERT_EQ(r.order.size(), h->size());
    spec::sequential_deque<std::uint64_t> s(lifo);
    std::uint64_t earliest_response = ~0ULL;
    for (std::size_t q = r.order.size(); q > 0; --q) {  // nothing later returned before it began
      EXPECT_LE((*h)[r.order[q - 1]].invoke, earliest_response);
      earliest_response = std::min(earliest_response, (*h)[r.order[q - 1]].response);
    }
    for (const std::size_t i : r.order)
      ASSERT_TRUE(apply(s, static_cast<const spec::operation<std::uint64_t>&>((*h)[i])));
  }
}

// Each certain break is refuted directly, and the minimizer takes its proof's operations.
TEST(LincheckFast, RefutesEachBreakOfALargeHistoryAndMinimizesFromItsProof) {
  for (const auto change :
       {widened_change::duplicate, widened_change::empty_steal, widened_change::empty_pop}) {
    const auto h = widened_history({20000, 8, 3, change});
    ASSERT_TRUE(h);
    const check_result r = check(*h, lifo);
    EXPECT_FALSE(r.linearizable) << change_name(change);
    EXPECT_TRUE(r.direct);
    EXPECT_FALSE(r.proof.empty());
    const history m = minimize(*h, lifo);
    EXPECT_LE(m.size(), 6U) << change_name(change) << ": " << r.proof;
    EXPECT_FALSE(search(m, lifo).linearizable) << change_name(change);
  }
}

// Steals take values in push order: a steal of 1 that returned before the steal of 0 began.
TEST(LincheckFast, RefutesStealsOutOfPushOrderByTheirEarliestPoints) {
  const history h{op(0, op_kind::push, 0, 1, 0), op(0, op_kind::push, 2, 3, 1),
                  op(1, op_kind::steal, 4, 5, 1), op(2, op_kind::steal, 6, 7, 0)};
  const fast_result f = fast_check(h, lifo);
  ASSERT_EQ(f.verdict, fast_verdict::not_linearizable);
  EXPECT_NE(f.reason.find("the steal of an older value"), std::string::npos) << f.reason;
  EXPECT_FALSE(search(h, lifo).linearizable);
  history fixed = h;  // the same steals overlapping: linearizable
  fixed[2].response = 7;
  fixed[3].invoke = 4;
  EXPECT_EQ(fast_check(fixed, lifo).verdict, fast_verdict::linearizable);
  EXPECT_TRUE(search(fixed, lifo).linearizable);
}

// A steal returns empty while the owner's value is present at every point of it.
TEST(LincheckFast, RefutesAnEmptyStealWithNoEmptyPointAndPlacesOneThatHasIt) {
  const history h{op(0, op_kind::push, 0, 1, 0), op(1, op_kind::steal, 2, 3),
                  op(0, op_kind::pop, 4, 5, 0)};
  const fast_result f = fast_check(h, lifo);
  ASSERT_EQ(f.verdict, fast_verdict::not_linearizable);
  EXPECT_NE(f.reason.find("holds a value at every point"), std::string::npos) << f.reason;
  history early = h;  // the empty steal overlaps the push: it can come first
  early[1].invoke = 0;
  early[0].invoke = 1;
  early[0].response = 2;
  early[1].response = 3;
  const fast_result g = fast_check(early, lifo);
  ASSERT_EQ(g.verdict, fast_verdict::linearizable) << g.reason;
  EXPECT_EQ(g.order.front(), 1U);
}

// The only empty point is after a steal that ends late: the owner's next push moves after it.
TEST(LincheckFast, MovesTheOwnersNextOperationForAnEmptySteal) {
  const history h{op(0, op_kind::push, 0, 1, 0), op(0, op_kind::push, 2, 10, 1),
                  op(1, op_kind::steal, 3, 5, 0), op(2, op_kind::steal, 4, 6)};
  const fast_result f = fast_check(h, lifo);
  ASSERT_EQ(f.verdict, fast_verdict::linearizable) << f.reason;
  EXPECT_EQ(f.order, (std::vector<std::size_t>{0, 2, 3, 1}));
  history late = h;  // the push returns before the steal begins: no empty point is left
  late[1].response = 3;
  late[2].invoke = 4;
  late[3].invoke = 5;
  EXPECT_EQ(fast_check(late, lifo).verdict, fast_verdict::not_linearizable);
  EXPECT_FALSE(search(late, lifo).linearizable);
}

// The owner's pop must take its newest value not yet taken by itself.
TEST(LincheckFast, RefutesAnOwnerPopOfAnOlderValue) {
  const history h{op(0, op_kind::push, 0, 1, 0), op(0, op_kind::push, 2, 3, 1),
                  op(0, op_kind::pop, 4, 5, 0), op(1, op_kind::steal, 0, 9, 1)};
  const fast_result f = fast_check(h, lifo);
  ASSERT_EQ(f.verdict, fast_verdict::not_linearizable);
  EXPECT_NE(f.reason.find("is not the newest value"), std::string::npos) << f.reason;
  EXPECT_EQ(f.core.size(), 4U);
  EXPECT_FALSE(search(h, lifo).linearizable);
}

// What the direct decision does not cover goes to the search.
TEST(LincheckFast, LeavesOtherSpecsAndBatchStealsToTheSearch) {
  const history h{op(0, op_kind::push, 0, 1, 0), op(1, op_kind::steal, 2, 3, 0)};
  EXPECT_EQ(fast_check(h, spec::spec_kind::fifo_owner).verdict, fast_verdict::undecided);
  history batch = h;
  batch[1].kind = op_kind::steal_batch;
  batch[1].batch = {0};
  EXPECT_EQ(fast_check(batch, lifo).verdict, fast_verdict::undecided);
  EXPECT_TRUE(check(batch, lifo).linearizable);
  EXPECT_FALSE(check(batch, lifo).direct);
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
