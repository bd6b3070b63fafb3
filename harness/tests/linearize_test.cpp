// The linearizability core (deques/linearize.hpp) on hand-made histories under each order
// (real time, an explicit precedence order), known-bad orders and specs that must give the
// wrong answer, the minimizer keeping a failing core, and the shared timelines
// (harness/timeline.hpp) for stamps and for event positions.
#include "stealcheck/detail/deques/linearize.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/harness/timeline.hpp"

namespace stealcheck::linearize {
namespace {

using op = spec::operation<std::uint64_t>;
// The LIFO-owner deque spec, default-constructible for the searches below.
struct deque_spec : spec::sequential_deque<std::uint64_t> {
  deque_spec() : sequential_deque(spec::spec_kind::lifo_owner) {}
};

op push(std::uint64_t v) {
  op o;
  o.kind = spec::op_kind::push;
  o.has_value = true;
  o.value = v;
  return o;
}
op pop(std::optional<std::uint64_t> v) {
  op o;
  o.kind = spec::op_kind::pop;
  o.set_taken(v);
  return o;
}
op steal(std::optional<std::uint64_t> v) {
  op o;
  o.kind = spec::op_kind::steal;
  o.status = v ? steal_status::item : steal_status::empty;
  o.set_taken(v);
  return o;
}

// A history with real-time intervals, one per operation.
struct timed {
  std::vector<op> ops;
  std::vector<real_time_order::interval> when;
  timed& add(op o, std::uint64_t invoke, std::uint64_t response) {
    ops.push_back(std::move(o));
    when.push_back({invoke, response});
    return *this;
  }
};

template <class O, class S = deque_spec>
bool holds(const std::vector<op>& ops, O& order, std::vector<std::size_t>* witness = nullptr) {
  S s;
  search<O> run;
  const bool ok = run.run(s, std::span<const op>(ops), order);
  if (ok && witness) *witness = run.witness();
  return ok;
}

bool real_time(const timed& h, std::vector<std::size_t>* witness = nullptr) {
  real_time_order order(h.when, splitmix64_next);
  return holds(h.ops, order, witness);
}

TEST(LinearizeRealTime, SequentialRunIsLinearizableWithItsOwnOrderAsWitness) {
  timed h;
  h.add(push(1), 0, 1).add(push(2), 2, 3).add(steal(1), 4, 5).add(pop(2), 6, 7).add(pop({}), 8, 9);
  std::vector<std::size_t> w;
  ASSERT_TRUE(real_time(h, &w));
  EXPECT_EQ(w, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(LinearizeRealTime, OverlapAllowsReorderingButOrderForbidsIt) {
  timed racing;  // the steal overlaps the push: "empty" may come first
  racing.add(push(1), 0, 3).add(steal({}), 1, 2).add(pop(1), 4, 5);
  std::vector<std::size_t> w;
  ASSERT_TRUE(real_time(racing, &w));
  EXPECT_EQ(w, (std::vector<std::size_t>{1, 0, 2}));
  timed after;  // the same results with the steal invoked after the push returned
  after.add(push(1), 0, 1).add(steal({}), 2, 3).add(pop(1), 4, 5);
  EXPECT_FALSE(real_time(after));
}

TEST(LinearizeRealTime, PopFromTheWrongEndIsNotLinearizable) {
  timed h;
  h.add(push(1), 0, 1).add(push(2), 2, 3).add(pop(1), 4, 5);
  EXPECT_FALSE(real_time(h));
}

// thread 0: push(1), pop -> 1; thread 1: steal -> empty. Without a predecessor the steal may
// come first; after push(1) it must see 1.
std::vector<op> push_pop_and_empty_steal() {
  return {push(1), pop(1), steal({})};
}
constexpr std::uint32_t thread_of_push_pop_steal[] = {0, 0, 1};

TEST(LinearizePrecedence, UnorderedEmptyStealIsLinearizable) {
  const auto ops = push_pop_and_empty_steal();
  precedence_order<4> order(ops.size(), [](std::size_t i) { return thread_of_push_pop_steal[i]; });
  std::vector<std::size_t> w;
  ASSERT_TRUE(holds(ops, order, &w));
  EXPECT_EQ(w, (std::vector<std::size_t>{0, 1, 2}));  // the steal after the pop took 1
}

TEST(LinearizePrecedence, EmptyStealBetweenPushAndPopIsNot) {
  const auto ops = push_pop_and_empty_steal();
  precedence_order<4> order(ops.size(), [](std::size_t i) { return thread_of_push_pop_steal[i]; });
  order.require(2, 1u << 0);  // push(1) before the steal: it may still come after the pop
  std::vector<std::size_t> w;
  ASSERT_TRUE(holds(ops, order, &w));
  EXPECT_EQ(w, (std::vector<std::size_t>{0, 1, 2}));
  precedence_order<4> between(ops.size(),
                              [](std::size_t i) { return thread_of_push_pop_steal[i]; });
  between.require(2, 1u << 0);
  between.require(1, 1u << 2);  // and the steal before the pop: it must see 1
  EXPECT_FALSE(holds(ops, between));
}

TEST(LinearizePrecedence, ProgramOrderAloneOrdersAThread) {
  const std::vector<op> ops = {push(1), push(2), pop(1)};  // one thread: pop must take 2
  precedence_order<4> order(ops.size(), [](std::size_t) { return 0u; });
  EXPECT_FALSE(holds(ops, order));
  EXPECT_EQ(order.lanes(), 1u);
  EXPECT_EQ(order.lane_size(0), 3u);
}

// Known-bad: an order that lets any remaining operation come next, whatever the history says.
class any_order {
 public:
  explicit any_order(std::size_t n) : done_(n, false) {}
  using cursor = std::size_t;
  std::size_t size() const { return done_.size(); }
  static cursor start() { return 0; }
  std::size_t next(cursor& c) const {
    while (c < done_.size())
      if (!done_[c++]) return c - 1;
    return none;
  }
  void take(std::size_t i) { done_[i] = true; }
  void give_back(std::size_t i) { done_[i] = false; }
  static bool fresh() { return true; }

 private:
  std::vector<bool> done_;
};

TEST(LinearizeKnownBad, AnOrderThatIgnoresRealTimeAcceptsAWrongEndPop) {
  timed h;  // push(1); push(2); pop -> 1, one after the other: not linearizable
  h.add(push(1), 0, 1).add(push(2), 2, 3).add(pop(1), 4, 5);
  ASSERT_FALSE(real_time(h));
  any_order order(h.ops.size());
  EXPECT_TRUE(holds(h.ops, order)) << "push(2) push(1) pop -> 1 explains it, ignoring time";
}

// Known-bad: a spec whose pop takes any value present.
struct any_pop_spec {
  std::vector<std::uint64_t> items;
  std::vector<std::size_t> where;  // per successful pop: where its value was
};
bool apply(any_pop_spec& s, const op& o) {
  if (o.kind == spec::op_kind::push) {
    s.items.push_back(o.value);
    return true;
  }
  if (!o.has_value) return s.items.empty();
  const auto it = std::find(s.items.begin(), s.items.end(), o.value);
  if (it == s.items.end()) return false;
  s.where.push_back(static_cast<std::size_t>(it - s.items.begin()));
  s.items.erase(it);
  return true;
}
void undo(any_pop_spec& s, const op& o) {
  if (o.kind == spec::op_kind::push) {
    s.items.pop_back();
  } else if (o.has_value) {
    s.items.insert(s.items.begin() + static_cast<std::ptrdiff_t>(s.where.back()), o.value);
    s.where.pop_back();
  }
}

TEST(LinearizeKnownBad, ASpecThatAcceptsAnyPopAcceptsAWrongEndPop) {
  timed h;
  h.add(push(1), 0, 1).add(push(2), 2, 3).add(pop(1), 4, 5);
  real_time_order order(h.when, splitmix64_next);
  EXPECT_TRUE((holds<real_time_order, any_pop_spec>(h.ops, order)));
}

TEST(LinearizeMinimize, KeepsTheFailingCoreUnderBothOrders) {
  timed h;  // noise: legal push/steal pairs, then a value taken twice
  std::uint64_t t = 0;
  for (std::uint64_t v = 0; v < 10; ++v) {
    h.add(push(v), t, t + 1).add(steal(v), t + 2, t + 3);
    t += 4;
  }
  h.add(push(99), t, t + 1).add(pop(99), t + 2, t + 5).add(steal(99), t + 3, t + 4);
  ASSERT_FALSE(real_time(h));
  const auto kept = minimize(std::span<const op>(h.ops), [&](std::span<const std::size_t> k) {
    timed rest;
    for (const std::size_t i : k)
      rest.add(h.ops[i], h.when[i].invoke, h.when[i].response);
    return !real_time(rest);
  });
  EXPECT_EQ(kept, (std::vector<std::size_t>{20, 21, 22}));

  // the same operations with thread 0 = pushes and pops, thread 1 = steals, no other order
  const auto thread = [&](std::size_t i) {
    return h.ops[i].kind == spec::op_kind::steal ? 1u : 0u;
  };
  const auto kept_po = minimize(std::span<const op>(h.ops), [&](std::span<const std::size_t> k) {
    const auto rest = subset(std::span<const op>(h.ops), k);
    precedence_order<4> order(rest.size(), [&](std::size_t i) { return thread(k[i]); });
    return !holds(rest, order);
  });
  EXPECT_EQ(kept_po, (std::vector<std::size_t>{20, 21, 22}));
}

TEST(LinearizeMinimize, UnitsJoinAPushWithTheBatchThatTookIt) {
  op batch;
  batch.kind = spec::op_kind::steal_batch;
  batch.status = steal_status::item;
  batch.has_value = true;
  batch.value = 1;
  batch.batch = {1, 2};
  const std::vector<op> ops = {push(1), push(2), batch, pop({})};
  const auto u = units(std::span<const op>(ops));
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0], (std::vector<std::size_t>{3}));
  EXPECT_EQ(u[1], (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Timeline, RendersStampsAndEventPositionsAlike) {
  const std::vector<timeline::item> native = {
      {0, 0, 1, timeline::label(push(7))},
      {1, 2, 5, timeline::label(steal(7))},
      {0, 3, 4, timeline::label(pop(7))},
  };
  EXPECT_EQ(timeline::text(native),
            "  owner   :  [0..1] push(7)  [3..4] pop -> 7\n"
            "  thief 1 :  [2..5] steal -> 7\n");
  const std::vector<timeline::item> model = {
      {2, 1, 3, timeline::label(steal({}))},
      {0, 0, 0, timeline::label(push(7))},
  };
  EXPECT_EQ(timeline::text(model, timeline::thread_number),
            "  T0      :  [0..0] push(7)\n"
            "  T2      :  [1..3] steal -> empty\n");
  const std::string svg = timeline::svg(native, "a <title>");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("a &lt;title&gt;"), std::string::npos);
  EXPECT_NE(svg.find("steal -&gt; 7"), std::string::npos);
  EXPECT_NE(svg.find(">thief 1<"), std::string::npos);
}

}  // namespace
}  // namespace stealcheck::linearize
// SPDX-License-Identifier: Apache-2.0
