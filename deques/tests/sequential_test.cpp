// Sequential behaviour of every variant (one thread): LIFO pop, FIFO steal, resize keeps order,
// empty results, destructors. Typed tests run the same cases over each correct variant; the
// spec tests check deques/spec.hpp itself, including the results it must reject.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/bwos.hpp"
#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/deques/split.hpp"
#include "stealcheck/detail/deques/steal_half.hpp"

namespace stealcheck {
namespace {

// Every variant, the split deque included (whose thieves see only what its owner shared).
template <class D>
class SpecTest : public ::testing::Test {};
using AllVariants = ::testing::Types<chase_lev<std::int64_t>, locked_deque<std::int64_t>,
                                     steal_half<std::int64_t>, split_deque<std::int64_t>>;
TYPED_TEST_SUITE(SpecTest, AllVariants);

// The variants whose every item can be stolen at once.
template <class D>
class SequentialTest : public ::testing::Test {};
using Variants =
    ::testing::Types<chase_lev<std::int64_t>, locked_deque<std::int64_t>, steal_half<std::int64_t>>;
TYPED_TEST_SUITE(SequentialTest, Variants);

TYPED_TEST(SpecTest, EmptyDequeReportsEmpty) {
  TypeParam d(4);
  EXPECT_EQ(d.pop(), std::nullopt);
  EXPECT_TRUE(d.steal().is_empty());
  EXPECT_EQ(d.size_hint(), 0);
  // pop on empty must not disturb a later push (the size_t bug of the paper's take).
  EXPECT_TRUE((d.push(7), true));
  EXPECT_EQ(d.size_hint(), 1);
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(7));
  EXPECT_EQ(d.pop(), std::nullopt);
}

TYPED_TEST(SequentialTest, PopIsLifoStealIsFifo) {
  TypeParam d(16);
  for (std::int64_t i = 0; i < 6; ++i)
    d.push(std::int64_t{i});
  auto s = d.steal();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 0);
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(5));
  EXPECT_EQ(*d.steal(), 1);
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(4));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(3));
  EXPECT_EQ(*d.steal(), 2);
  EXPECT_TRUE(d.steal().is_empty());
  EXPECT_EQ(d.pop(), std::nullopt);
}

TYPED_TEST(SpecTest, MatchesSpecOnALongMixedSequence) {
  TypeParam d(256);
  spec::sequential_deque<std::int64_t> model{spec::spec_kind::lifo_owner};
  std::uint64_t x = 12345;  // fixed LCG: deterministic, nothing to replay
  std::int64_t next = 0;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const unsigned pick = static_cast<unsigned>(x >> 60) % 3;
    if (pick == 0 && model.size() < 200) {
      d.push(std::int64_t{next});
      model.push(next++);
    } else if (pick == 1) {
      ASSERT_TRUE(model.pop(d.pop())) << "step " << i;
    } else {
      auto r = d.steal();
      const steal_status status = r.status();  // before take(): argument order is unspecified
      ASSERT_TRUE(model.steal(status, std::move(r).take())) << "step " << i;
    }
  }
}

TEST(Split, StealAsksTheOwnerWhichSharesTheOlderHalf) {
  split_deque<std::int64_t> d(16);
  for (std::int64_t i = 0; i < 6; ++i)
    ASSERT_TRUE(d.push(std::int64_t{i}));
  EXPECT_TRUE(d.steal().is_abort());     // all private: asks the owner
  EXPECT_TRUE(d.steal().is_abort());     // still nothing shared until the owner acts
  ASSERT_TRUE(d.push(std::int64_t{6}));  // shares ceil(7/2) = 4: values 0..3
  EXPECT_EQ(*d.steal(), 0);
  EXPECT_EQ(*d.steal(), 1);
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(6));  // private
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(5));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(4));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(3));  // reclaims 3, keeps 2 shared
  EXPECT_EQ(*d.steal(), 2);
  EXPECT_EQ(d.pop(), std::nullopt);
  EXPECT_TRUE(d.steal().is_empty());
}

TEST(Split, PopTakesTheLastSharedItemFromTheTop) {
  split_deque<std::int64_t> d(4);
  ASSERT_TRUE(d.push(std::int64_t{1}));
  EXPECT_TRUE(d.steal().is_abort());
  ASSERT_TRUE(d.push(std::int64_t{2}));  // shares 1
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(2));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(1));  // the one shared item, by CAS on top
  EXPECT_TRUE(d.steal().is_empty());
  EXPECT_EQ(d.size_hint(), 0);
}

TEST(Split, AFullRingStillSharesWhenAsked) {
  split_deque<std::int64_t> d(4);
  for (std::int64_t i = 0; i < 4; ++i)
    ASSERT_TRUE(d.push(std::int64_t{i}));
  EXPECT_TRUE(d.steal().is_abort());
  EXPECT_FALSE(d.push(std::int64_t{4}));  // full, but serves the request: shares 0, 1
  EXPECT_EQ(*d.steal(), 0);
  EXPECT_EQ(*d.steal(), 1);
  EXPECT_TRUE(d.push(std::int64_t{4}));  // room again (top moved)
}

// BWoS: thieves reach a block only when the owner has filled it and moved on (a grant); the
// owner's pop walks back into a granted block and takes over what no thief claimed.
TEST(Bwos, ThievesReachOnlyGrantedBlocksAndPopTakesOver) {
  bwos<std::int64_t> d(2, 2);  // 2 blocks of 2 slots
  EXPECT_TRUE(d.push(1));
  EXPECT_TRUE(d.push(2));
  EXPECT_TRUE(d.steal().is_abort());  // both in the owner's block: private, never "empty"
  EXPECT_EQ(d.size_hint(), 0);
  EXPECT_EQ(d.owner_size_hint(), 2);
  EXPECT_TRUE(d.push(3));  // block 0 is full: granted, the owner moves to block 1
  EXPECT_EQ(d.size_hint(), 2);
  EXPECT_EQ(d.owner_size_hint(), 1);
  EXPECT_EQ(*d.steal(), 1);
  EXPECT_TRUE(d.push(4));
  EXPECT_FALSE(d.push(5));  // block 0 is still granted (slot 1 unclaimed): full
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(4));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(3));
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(2));  // took block 0 over at slot 1
  EXPECT_TRUE(d.steal().is_abort());
  EXPECT_EQ(d.pop(), std::nullopt);
  EXPECT_TRUE(d.push(6));  // the owner starts again in block 0, after the claimed slot
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(6));
}

// A block comes back to the owner (the next lap) only when its thieves claimed and read every
// slot; its steal count then starts again.
TEST(Bwos, ABlockIsReusedWhenItsThievesAreDone) {
  bwos<std::int64_t> d(2, 1);  // 2 blocks of 1 slot
  EXPECT_TRUE(d.push(1));
  EXPECT_TRUE(d.push(2));   // grants block 0
  EXPECT_FALSE(d.push(3));  // block 0's slot is not yet claimed
  EXPECT_EQ(*d.steal(), 1);
  EXPECT_TRUE(d.push(3));  // block 0, second lap; block 1 granted
  EXPECT_EQ(*d.steal(), 2);
  EXPECT_TRUE(d.steal().is_abort());
  EXPECT_EQ(d.pop(), std::optional<std::int64_t>(3));
  EXPECT_EQ(d.pop(), std::nullopt);
  for (std::int64_t lap = 0; lap < 6; ++lap) {  // grant, steal, reuse around the ring
    EXPECT_TRUE(d.push(10 + lap));
    EXPECT_TRUE(d.push(20 + lap));
    EXPECT_EQ(*d.steal(), 10 + lap);
    EXPECT_EQ(d.pop(), std::optional<std::int64_t>(20 + lap));
    EXPECT_EQ(d.pop(), std::nullopt);
  }
}

TEST(ChaseLev, ResizeKeepsOrder) {
  chase_lev<std::int64_t> d(1);
  EXPECT_EQ(d.capacity(), 1);
  for (std::int64_t i = 0; i < 100; ++i)
    d.push(std::int64_t{i});
  EXPECT_GE(d.capacity(), 100);
  EXPECT_EQ(*d.steal(), 0);
  EXPECT_EQ(*d.steal(), 1);
  for (std::int64_t i = 99; i >= 2; --i)
    EXPECT_EQ(d.pop(), std::optional<std::int64_t>(i));
  EXPECT_EQ(d.pop(), std::nullopt);
}

TEST(ChaseLev, ResizeAfterWrapAroundKeepsOrder) {
  chase_lev<std::int64_t> d(4);
  for (std::int64_t i = 0; i < 3; ++i)
    d.push(std::int64_t{i});
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(d.steal().has_value());  // top = 3: indices wrap
  for (std::int64_t i = 10; i < 20; ++i)
    d.push(std::int64_t{i});  // grows twice, wrapped
  for (std::int64_t i = 10; i < 20; ++i)
    EXPECT_EQ(*d.steal(), i);
}

TEST(StealHalf, PushReportsFullAndKeepsTheValue) {
  steal_half<std::string> d(2);
  EXPECT_TRUE(d.push(std::string("a")));
  EXPECT_TRUE(d.push(std::string("b")));
  std::string c = "c";
  EXPECT_FALSE(d.push(std::move(c)));
  EXPECT_EQ(c, "c");  // NOLINT(bugprone-use-after-move): a failed push leaves it unmoved
  EXPECT_EQ(*d.steal(), "a");
  EXPECT_TRUE(d.push(std::move(c)));
  EXPECT_EQ(d.pop(), std::optional<std::string>("c"));
}

TEST(StealHalf, StealIntoTakesHalfInOrder) {
  steal_half<std::int64_t> victim(16);
  steal_half<std::int64_t> mine(16);
  for (std::int64_t i = 0; i < 7; ++i)
    ASSERT_TRUE(victim.push(std::int64_t{i}));
  auto r = victim.steal_into(mine);  // ceil(7/2) = 4 items: 0 returned, 1..3 into mine
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, 0);
  EXPECT_EQ(victim.size_hint(), 3);
  EXPECT_EQ(mine.size_hint(), 3);
  EXPECT_EQ(*mine.steal(), 1);  // mine's top is the oldest stolen item
  EXPECT_EQ(mine.pop(), std::optional<std::int64_t>(3));
  EXPECT_EQ(victim.pop(), std::optional<std::int64_t>(6));
}

TEST(StealHalf, StealIntoRespectsDestinationRoom) {
  steal_half<std::int64_t> victim(16);
  steal_half<std::int64_t> mine(4);
  for (std::int64_t i = 0; i < 12; ++i)
    ASSERT_TRUE(victim.push(std::int64_t{i}));
  for (std::int64_t i = 100; i < 103; ++i)
    ASSERT_TRUE(mine.push(std::int64_t{i}));
  auto r = victim.steal_into(mine);  // half = 6, but mine has room for 1: takes 2
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, 0);
  EXPECT_EQ(mine.size_hint(), 4);
  EXPECT_EQ(victim.size_hint(), 10);
  EXPECT_EQ(mine.pop(), std::optional<std::int64_t>(1));
}

TEST(StealHalf, StealIntoOnEmptyVictim) {
  steal_half<std::int64_t> victim(4);
  steal_half<std::int64_t> mine(4);
  EXPECT_TRUE(victim.steal_into(mine).is_empty());
  EXPECT_EQ(mine.size_hint(), 0);
}

// Destructors: each value is destroyed exactly once, whether taken or left in the deque.
struct counted {
  explicit counted(int* live) : live_(live) { ++*live_; }
  counted(counted&& o) noexcept : live_(o.live_) { ++*live_; }
  counted& operator=(counted&&) = delete;
  ~counted() { --*live_; }
  int* live_;
};

template <class D>
class DestructorTest : public ::testing::Test {};
using BoxedVariants = ::testing::Types<chase_lev<counted>, locked_deque<counted>,
                                       steal_half<counted>, split_deque<counted>>;
TYPED_TEST_SUITE(DestructorTest, BoxedVariants);

TYPED_TEST(DestructorTest, EveryValueDestroyedOnce) {
  int live = 0;
  {
    TypeParam d(2);
    for (int i = 0; i < 2; ++i)
      d.push(counted(&live));
    EXPECT_EQ(live, 2);
    { auto v = d.pop(); }
    EXPECT_EQ(live, 1);
    d.push(counted(&live));
    // An owner_shares deque (split) holds both privately: its steal aborts and takes nothing.
    constexpr bool shares = owner_shares_v<TypeParam>;
    { EXPECT_EQ(d.steal().has_value(), !shares); }
    EXPECT_EQ(live, shares ? 2 : 1);
  }
  EXPECT_EQ(live, 0);  // the one left in the deque was destroyed with it
}

// BWoS with boxed values: the ones left in granted blocks and in the owner's block are
// destroyed with the deque, the stolen and popped ones by their takers.
TEST(Bwos, EveryValueDestroyedOnce) {
  int live = 0;
  {
    bwos<counted> d(4, 2);
    for (int i = 0; i < 7; ++i)
      EXPECT_TRUE(d.push(counted(&live)));
    EXPECT_EQ(live, 7);
    { EXPECT_TRUE(d.steal().has_value()); }
    { EXPECT_TRUE(d.pop().has_value()); }
    EXPECT_EQ(live, 5);
  }
  EXPECT_EQ(live, 0);
}

// The spec itself: legal results accepted, illegal ones rejected.
TEST(Spec, AcceptsLegalAndRejectsIllegalResults) {
  spec::sequential_deque<int> s{spec::spec_kind::lifo_owner};
  EXPECT_TRUE(s.pop(std::nullopt));
  EXPECT_TRUE(s.steal(steal_status::empty, std::nullopt));
  s.push(1);
  s.push(2);
  s.push(3);
  EXPECT_FALSE(s.pop(std::nullopt));  // empty while items present
  EXPECT_FALSE(s.steal(steal_status::empty, std::nullopt));
  EXPECT_FALSE(s.pop(1));                         // pop must take the bottom (3)
  EXPECT_FALSE(s.steal(steal_status::item, 3));   // steal must take the top (1)
  EXPECT_FALSE(s.steal(steal_status::item, 42));  // invented value
  EXPECT_TRUE(s.steal(steal_status::abort, std::nullopt));
  EXPECT_TRUE(s.pop(3));
  EXPECT_TRUE(s.steal(steal_status::item, 1));
  EXPECT_FALSE(s.steal(steal_status::item, 1));  // taken twice
  EXPECT_TRUE(s.pop(2));
}

TEST(Spec, BatchStealBound) {
  spec::sequential_deque<int> s{spec::spec_kind::lifo_owner};
  for (int i = 0; i < 5; ++i)
    s.push(i);
  const int too_many[] = {0, 1, 2, 3};  // ceil(5/2) = 3
  EXPECT_FALSE(s.steal_batch(too_many));
  const int not_the_top[] = {0, 2};  // 1 is above 2
  EXPECT_FALSE(s.steal_batch(not_the_top));
  const int any_order[] = {2, 0, 1};  // the thief's choice: the top three, the newest returned
  EXPECT_TRUE(s.steal_batch(any_order));
  EXPECT_EQ(s.size(), 2u);
  s.undo_steal_batch(any_order);
  EXPECT_EQ(s.items(), (std::deque<int>{0, 1, 2, 3, 4}));  // in the order they were
  EXPECT_FALSE(s.steal_batch({}));
}

// A batch taken in steps (crossbeam's LIFO thief): [6, 1, 2] returned 6 after taking 1 and 2;
// the owner popped 5, 4, 3 and pushed 6 between the steps. No single batch explains it; the
// three steals, in the order taken, do.
TEST(Spec, BatchTakenInStepsIsOneStealPerValue) {
  using op = spec::operation<int>;
  auto make = [](spec::op_kind k, int v, bool has) {
    op o;
    o.kind = k;
    o.value = v;
    o.has_value = has;
    o.status = steal_status::item;
    return o;
  };
  op batch = make(spec::op_kind::steal_batch, 6, true);
  batch.batch = {6, 1, 2};
  {
    spec::sequential_deque<int> s{spec::spec_kind::lifo_owner};
    for (int v = 1; v <= 5; ++v)
      s.push(v);
    for (int v = 5; v >= 3; --v)
      ASSERT_TRUE(s.pop(v));
    s.push(6);
    EXPECT_FALSE(spec::apply(s, batch));  // as one batch: 6 is not among the oldest two
  }
  std::vector<op> ops{make(spec::op_kind::push, 9, true), batch};
  spec::split_batch(ops, 1);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].value, 9);  // the others untouched
  std::vector<int> taken;
  for (std::size_t i = 1; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].kind, spec::op_kind::steal);
    EXPECT_TRUE(ops[i].batch.empty());
    taken.push_back(ops[i].value);
  }
  EXPECT_EQ(taken, (std::vector<int>{1, 2, 6}));  // in the order taken, the returned one last
  spec::sequential_deque<int> s{spec::spec_kind::lifo_owner};
  for (int v = 1; v <= 5; ++v)
    s.push(v);
  EXPECT_TRUE(spec::apply(s, ops[1]));  // steal -> 1
  for (int v = 5; v >= 3; --v)
    ASSERT_TRUE(s.pop(v));
  s.push(6);
  EXPECT_TRUE(spec::apply(s, ops[2]));  // steal -> 2
  EXPECT_TRUE(spec::apply(s, ops[3]));  // steal -> 6
  EXPECT_TRUE(s.empty());
  // a batch completed after its thread recorded more: its steps come before the later ones
  std::vector<op> later{batch, make(spec::op_kind::steal, 7, true)};
  spec::split_batch(later, 0, /*after_it=*/true);
  ASSERT_EQ(later.size(), 4u);
  EXPECT_EQ(later[1].value, 2);
  EXPECT_EQ(later[2].value, 6);
  EXPECT_EQ(later[3].value, 7);
  std::vector<op> single{make(spec::op_kind::steal_batch, 4, true)};
  single[0].batch = {4};
  spec::split_batch(single, 0);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].kind, spec::op_kind::steal);
  EXPECT_EQ(single[0].value, 4);
}

TEST(Spec, FifoOwnerPopsTheTop) {
  spec::sequential_deque<int> s{spec::spec_kind::fifo_owner};
  s.push(1);
  s.push(2);
  EXPECT_FALSE(s.pop(2));  // the owner takes the oldest
  EXPECT_TRUE(s.pop(1));
  EXPECT_TRUE(s.steal(steal_status::item, 2));
  EXPECT_TRUE(s.pop(std::nullopt));
}

TEST(Spec, AtLeastOnceAndItsUndo) {
  spec::sequential_deque<int> s{spec::spec_kind::at_least_once};
  s.push(1);
  s.push(2);
  s.push(3);
  EXPECT_FALSE(s.pop(42));                      // invented
  EXPECT_TRUE(s.steal(steal_status::item, 2));  // any order
  EXPECT_TRUE(s.pop(2));                        // a duplicate
  EXPECT_FALSE(s.pop(std::nullopt));            // 1 and 3 were never taken: lost
  // undo in reverse: the duplicate first, then the first take puts 2 back
  s.undo_pop(2);
  s.undo_steal(2);
  EXPECT_EQ(s.size(), 3u);
  s.undo_push(3);  // removes 3 itself though 2 went back behind it
  EXPECT_EQ(s.items(), (std::deque<int>{1, 2}));
  const int batch[] = {1, 2};
  EXPECT_TRUE(s.steal_batch(batch));
  EXPECT_TRUE(s.steal(steal_status::empty, std::nullopt));
  const int bad[] = {1, 9};  // 9 invented: nothing applied
  EXPECT_FALSE(s.steal_batch(bad));
  s.undo_steal_batch(batch);
  EXPECT_EQ(s.size(), 2u);
}

}  // namespace
}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
