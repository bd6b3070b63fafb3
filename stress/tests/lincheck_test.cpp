// The linearizability checker on hand-made histories: linearizable ones must pass, and each
// kind of violation (duplicate, loss, FIFO broken at the steal end, LIFO broken at the owner
// end, empty while items were present, batch too large) must be caught.
#include "stealcheck/detail/stress/lincheck.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace stealcheck::stress::lincheck {
namespace {

constexpr spec::spec_kind lifo = spec::spec_kind::lifo_owner;

// Builds histories: each call appends one operation with explicit [invoke, response] stamps.
struct builder {
  history h;
  builder& add(std::uint32_t t, op_kind k, bool has, std::uint64_t v, steal_status s,
               std::vector<std::uint64_t> batch, std::uint64_t i, std::uint64_t r) {
    operation op;
    op.kind = k;
    op.has_value = has;
    op.value = v;
    op.status = s;
    op.batch = std::move(batch);
    op.thread = t;
    op.invoke = i;
    op.response = r;
    h.push_back(std::move(op));
    return *this;
  }
  builder& push(std::uint32_t t, std::uint64_t v, std::uint64_t i, std::uint64_t r) {
    return add(t, op_kind::push, true, v, steal_status::item, {}, i, r);
  }
  builder& pop(std::uint32_t t, std::optional<std::uint64_t> v, std::uint64_t i, std::uint64_t r) {
    return add(t, op_kind::pop, v.has_value(), v.value_or(0), steal_status::item, {}, i, r);
  }
  builder& steal(std::uint32_t t, steal_status s, std::uint64_t v, std::uint64_t i,
                 std::uint64_t r) {
    return add(t, op_kind::steal, s == steal_status::item, v, s, {}, i, r);
  }
  builder& batch(std::uint32_t t, std::vector<std::uint64_t> vs, std::uint64_t i, std::uint64_t r) {
    const bool found = !vs.empty();  // read before the call: `vs` is moved into it
    const std::uint64_t first = found ? vs[0] : 0;
    const steal_status s = found ? steal_status::item : steal_status::empty;
    return add(t, op_kind::steal_batch, found, first, s, std::move(vs), i, r);
  }
};
constexpr auto item = steal_status::item;
constexpr auto empty = steal_status::empty;
constexpr auto abort_ = steal_status::abort;

TEST(Lincheck, SequentialDequeRunIsLinearizable) {
  builder b;
  b.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 1, 4, 5).pop(0, 2, 6, 7).pop(0, {}, 8, 9);
  const auto r = check(b.h, lifo);
  EXPECT_TRUE(r.linearizable);
  EXPECT_EQ(r.order.size(), b.h.size());
}

TEST(Lincheck, OverlapAllowsReordering) {
  builder b;  // the steal overlaps the push, so "empty" may be linearized before it
  b.push(0, 1, 0, 3).steal(1, empty, 0, 1, 2).pop(0, 1, 4, 5);
  EXPECT_TRUE(check(b.h, lifo).linearizable);
  builder c;  // a pop and a steal racing for the last item: the steal won
  c.push(0, 7, 0, 1).pop(0, {}, 2, 5).steal(1, item, 7, 3, 4);
  EXPECT_TRUE(check(c.h, lifo).linearizable);
}

TEST(Lincheck, AbortIsAlwaysLegal) {
  builder b;
  b.steal(1, abort_, 0, 0, 1).push(0, 1, 2, 3).steal(2, abort_, 0, 4, 5).pop(0, 1, 6, 7);
  EXPECT_TRUE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, CatchesDuplicate) {
  builder b;
  b.push(0, 1, 0, 1).pop(0, 1, 2, 5).steal(1, item, 1, 3, 4);
  EXPECT_FALSE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, CatchesLostItemAsAnIllegalEmpty) {
  builder b;  // 1 was pushed and never taken, yet a later pop finds the deque empty
  b.push(0, 1, 0, 1).push(0, 2, 2, 3).pop(0, 2, 4, 5).pop(0, {}, 6, 7);
  EXPECT_FALSE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, CatchesStealFromTheWrongEnd) {
  builder b;  // steal must take the oldest (FIFO at the top)
  b.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 2, 4, 5);
  EXPECT_FALSE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, SpecStepNamesWhereEveryOrderGetsStuck) {
  builder bad;  // the steal took the newest item
  bad.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 2, 4, 5);
  EXPECT_EQ(spec_step(bad.h, lifo),
            "after push(1), push(2) (a legal order), nothing can come next: steal -> 2 (the "
            "spec's steal returns 1)");
  builder good;  // the same with the oldest item: linearizable, no dead end
  good.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 1, 4, 5);
  EXPECT_EQ(spec_step(good.h, lifo), "");
  builder first;  // an empty-deque pop that took a value: stuck before any operation
  first.pop(0, 7, 0, 1);
  EXPECT_EQ(spec_step(first.h, lifo),
            "from the start, nothing can come next: pop -> 7 (the spec's pop returns empty)");
}

TEST(Lincheck, CatchesPopFromTheWrongEnd) {
  builder b;  // pop must take the newest (LIFO at the bottom)
  b.push(0, 1, 0, 1).push(0, 2, 2, 3).pop(0, 1, 4, 5);
  EXPECT_FALSE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, CatchesEmptyWhileItemsPresent) {
  builder b;
  b.push(0, 1, 0, 1).steal(1, empty, 0, 2, 3);
  EXPECT_FALSE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, BatchStealBoundAndValues) {
  builder ok;
  ok.push(0, 1, 0, 1).push(0, 2, 2, 3).push(0, 3, 4, 5).batch(1, {1, 2}, 6, 7);
  EXPECT_TRUE(check(ok.h, lifo).linearizable);
  builder newest_first;  // the two oldest, the newer one returned (crossbeam's LIFO thief)
  newest_first.push(0, 1, 0, 1).push(0, 2, 2, 3).push(0, 3, 4, 5).batch(1, {2, 1}, 6, 7);
  EXPECT_TRUE(check(newest_first.h, lifo).linearizable);
  builder too_many;  // ceil(3/2) = 2
  too_many.push(0, 1, 0, 1).push(0, 2, 2, 3).push(0, 3, 4, 5).batch(1, {1, 2, 3}, 6, 7);
  EXPECT_FALSE(check(too_many.h, lifo).linearizable);
  builder not_the_oldest;
  not_the_oldest.push(0, 1, 0, 1).push(0, 2, 2, 3).push(0, 3, 4, 5).batch(1, {1, 3}, 6, 7);
  EXPECT_FALSE(check(not_the_oldest.h, lifo).linearizable);
}

TEST(Lincheck, LongHistoryNeedsNoRecursion) {
  builder b;  // 200k sequential operations: the search is iterative
  std::uint64_t t = 0;
  for (std::uint64_t v = 0; v < 100000; ++v) {
    b.push(0, v, t, t + 1);
    b.steal(1, item, v, t + 2, t + 3);
    t += 4;
  }
  EXPECT_TRUE(check(b.h, lifo).linearizable);
}

TEST(Lincheck, MinimizeKeepsOnlyTheViolation) {
  builder b;
  std::uint64_t t = 0;
  for (std::uint64_t v = 0; v < 50; ++v) {  // noise: a legal push/steal per value
    b.push(0, v, t, t + 1);
    b.steal(1, item, v, t + 2, t + 3);
    t += 4;
  }
  b.push(0, 99, t, t + 1).pop(0, 99, t + 2, t + 5).steal(2, item, 99, t + 3, t + 4);  // dup
  ASSERT_FALSE(check(b.h, lifo).linearizable);
  const history m = minimize(b.h, lifo);
  EXPECT_FALSE(check(m, lifo).linearizable);
  EXPECT_EQ(m.size(), 3u) << timeline_text(m);
  const std::string text = timeline_text(m);
  EXPECT_NE(text.find("pop -> 99"), std::string::npos) << text;
  EXPECT_NE(text.find("steal -> 99"), std::string::npos) << text;
  EXPECT_NE(timeline_svg(m, "dup").find("<svg"), std::string::npos);
}

// The declared spec decides: the same history is legal under one kind and not under another.
constexpr spec::spec_kind fifo = spec::spec_kind::fifo_owner;
constexpr spec::spec_kind any = spec::spec_kind::at_least_once;

TEST(Lincheck, FifoOwnerPopsTheOldest) {
  builder oldest;
  oldest.push(0, 1, 0, 1).push(0, 2, 2, 3).pop(0, 1, 4, 5).steal(1, item, 2, 6, 7);
  EXPECT_TRUE(check(oldest.h, fifo).linearizable);
  EXPECT_FALSE(check(oldest.h, lifo).linearizable);
  builder newest;
  newest.push(0, 1, 0, 1).push(0, 2, 2, 3).pop(0, 2, 4, 5);
  EXPECT_FALSE(check(newest.h, fifo).linearizable);
  EXPECT_TRUE(check(newest.h, lifo).linearizable);
  EXPECT_EQ(spec_step(newest.h, fifo),
            "after push(1), push(2) (a legal order), nothing can come next: pop -> 2 (the "
            "spec's pop returns 1)");
}

TEST(Lincheck, AtLeastOnceAllowsDuplicatesNotLossOrInvention) {
  builder dup;  // a thief and the owner both take 1, in any order
  dup.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 1, 4, 5).pop(0, 1, 6, 7).pop(0, 2, 8, 9);
  EXPECT_TRUE(check(dup.h, any).linearizable);
  EXPECT_FALSE(check(dup.h, lifo).linearizable);
  builder lost;  // 2 was never taken, yet the owner finds the deque empty
  lost.push(0, 1, 0, 1).push(0, 2, 2, 3).steal(1, item, 1, 4, 5).pop(0, 1, 6, 7).pop(0, {}, 8, 9);
  EXPECT_FALSE(check(lost.h, any).linearizable);
  builder invented;  // 7 was never pushed
  invented.push(0, 1, 0, 1).steal(1, item, 7, 2, 3).pop(0, 1, 4, 5);
  EXPECT_FALSE(check(invented.h, any).linearizable);
  builder early;  // 2 taken before its push was invoked
  early.push(0, 1, 0, 1).steal(1, item, 2, 2, 3).push(0, 2, 4, 5).pop(0, 2, 6, 7).pop(0, 1, 8, 9);
  EXPECT_FALSE(check(early.h, any).linearizable);
  EXPECT_EQ(spec_step(lost.h, any),
            "after push(1), push(2), steal -> 1, pop -> 1 (a legal order), nothing can come next: "
            "pop -> empty (the spec's pop returns a value pushed before it)");
}

}  // namespace
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
