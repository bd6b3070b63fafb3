// Location names in reports (deques/memory.hpp, "Location names"): the built-in deques' names
// appear in a known-bad variant's trace, unnamed locations print as their construction line,
// and each name is bound to its own location (checked through the values written there).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/report/report.hpp"

namespace stealcheck::model {
namespace {

using mem = memory;
constexpr auto rlx = std::memory_order_relaxed;

// Whether the trace names a location the old way, "loc<digits>" at the start of a word.
bool has_unnamed_marker(const std::string& trace) {
  for (std::size_t p = trace.find("loc"); p != std::string::npos; p = trace.find("loc", p + 1)) {
    const bool word_start =
        p == 0 || !(std::isalnum(static_cast<unsigned char>(trace[p - 1])) || trace[p - 1] == '_');
    if (word_start && p + 3 < trace.size() &&
        std::isdigit(static_cast<unsigned char>(trace[p + 3])))
      return true;
  }
  return false;
}

TEST(Names, KnownBadTraceNamesTopBottomAndRingSlots) {
  options o;
  o.full_trace = true;  // the alloc event is outside the slice
  const result r =
      explore(o, clients::scripted<chase_lev_no_push_fence, clients::scripts::push_pop_steal2>);
  ASSERT_FALSE(r.ok());
  const std::string& t = r.bug->trace;
  EXPECT_NE(t.find(" top "), std::string::npos) << t;
  EXPECT_NE(t.find(" bottom "), std::string::npos) << t;
  EXPECT_NE(t.find(" array "), std::string::npos) << t;
  EXPECT_NE(t.find(" ring#1[0] "), std::string::npos) << t;
  const std::size_t alloc = t.find("alloc ring#1 (");
  ASSERT_NE(alloc, std::string::npos) << t;
  EXPECT_NE(t.find(" elements) chase_lev.hpp:", alloc), std::string::npos) << t;
  EXPECT_FALSE(has_unnamed_marker(t)) << t;
  EXPECT_NE(r.bug->dot.find(" top "), std::string::npos);
}

TEST(Names, LockedDequeNamesItsMutexAndItems) {
  const result r = explore(options{}, [](client& c) {
    locked_deque<std::int64_t, mem> d;
    d.push(1);
    c.spawn([&] { (void)d.steal(); });
    c.join_all();
    c.check(false, "stop");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.bug->trace.find(" mutex "), std::string::npos) << r.bug->trace;
  EXPECT_NE(r.bug->trace.find(" items"), std::string::npos) << r.bug->trace;
}

// The documented default: an unnamed location prints as the file and line of its
// construction; an unnamed array's elements as that line, the array's ordinal and the index;
// two unnamed locations made on one line each get their ordinal.
TEST(Names, UnnamedLocationsPrintTheirConstructionLine) {
  int line_x = 0;
  int line_pair = 0;
  int line_array = 0;
  const result r = explore(options{}, [&](client& c) {
    // clang-format off
    mem::atomic<int> x{0}; line_x = __LINE__;
    mem::atomic<int> p{0}, q{0}; line_pair = __LINE__;
    auto* a = mem::create_array<mem::atomic<int>>(2); line_array = __LINE__;
    // clang-format on
    x.store(1, rlx);
    p.store(2, rlx);
    q.store(3, rlx);
    a[1].store(4, rlx);
    mem::destroy_array(a, 2);
    c.check(false, "stop");
  });
  ASSERT_FALSE(r.ok());
  const std::string& t = r.bug->trace;
  const std::string f = "names_test.cpp:";
  EXPECT_NE(t.find("W " + f + std::to_string(line_x) + " 1 "), std::string::npos) << t;
  EXPECT_NE(t.find("W " + f + std::to_string(line_pair) + "#1 2 "), std::string::npos) << t;
  EXPECT_NE(t.find("W " + f + std::to_string(line_pair) + "#2 3 "), std::string::npos) << t;
  EXPECT_NE(t.find("W " + f + std::to_string(line_array) + "#1[1] 4 "), std::string::npos) << t;
  EXPECT_FALSE(has_unnamed_marker(t)) << t;
}

// A plain array element's construction is reported at the create_array call that made it,
// not inside the backend: a thread that reads an element of an array it has no
// happens-before with races with that construction, and the report names the caller's line.
TEST(Names, ARaceWithAnArrayElementsConstructionNamesTheCreateArrayLine) {
  int line_array = 0;
  const result r = explore(options{}, [&](client& c) {
    mem::atomic<mem::nonatomic<int>*> published{nullptr, "published"};
    c.spawn([&] {
      // clang-format off
      auto* a = mem::create_array<mem::nonatomic<int>>(1, "plain"); line_array = __LINE__;
      // clang-format on
      published.store(a, rlx);  // relaxed: the construction is not published (the race)
    });
    mem::nonatomic<int>* a = nullptr;
    while ((a = published.load(rlx)) == nullptr)
      mem::retry_read_only();
    (void)a[0].read();
    c.join_all();
    mem::destroy_array(a, 1);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::data_race) << r.bug->message;
  const std::string at = "names_test.cpp:" + std::to_string(line_array);
  EXPECT_NE(r.bug->message.find("Wna plain#1[0] " + at), std::string::npos) << r.bug->message;
  EXPECT_EQ(r.bug->message.find("memory.hpp"), std::string::npos) << r.bug->message;
}

// Every write of every complete execution, grouped by the name its location prints as.
using writes_by_name = std::map<std::string, std::vector<std::int64_t>>;
writes_by_name writes(const graph& g) {
  writes_by_name out;
  for (std::uint32_t l = 0; l < g.mo.size(); ++l)
    for (const event_id w : g.mo[l])
      out[location_name(g, l)].push_back(static_cast<std::int64_t>(g.at(w).value));
  return out;
}

// What chase_lev's locations hold, whatever the interleaving: top only grows (CASes t -> t+1),
// bottom is a small index that pop lowers, array a pointer, a ring slot a pushed value.
// Returns "" when every name holds what its location must, else what does not.
std::string chase_lev_binding(const graph& g, std::int64_t pushes) {
  for (const auto& [name, vals] : writes(g)) {
    for (std::size_t k = 0; k < vals.size(); ++k) {
      const std::int64_t v = vals[k];
      if (name == "top" && k > 0 && v <= vals[k - 1]) return "top decreased in mo";
      if ((name == "top" || name == "bottom") && (v < 0 || v > pushes))
        return name + " holds " + std::to_string(v);
      if (name == "array" && v < (std::int64_t{1} << 12)) return "array holds no pointer";
      if (name.starts_with("ring#") && k > 0 && (v < 1 || v > pushes))
        return name + " holds " + std::to_string(v);
    }
    if (name == "bottom" && vals.size() > 1 &&
        std::is_sorted(vals.begin(), vals.end(), std::less_equal<>{}))
      return "bottom never lowered";
  }
  return "";
}

// Runs push2_pop_steal2 (pop lowers bottom in every execution) on deque D and returns the
// first binding violation of any complete execution.
template <template <class, class> class D>
std::string first_violation(std::uint64_t& executions) {
  std::string found;
  options o;
  o.on_complete = [&](const graph& g, const consistency_checker&) {
    ++executions;
    if (found.empty()) found = chase_lev_binding(g, 2);
  };
  const result r = explore(o, clients::scripted<D, clients::scripts::push2_pop_steal2>);
  EXPECT_TRUE(r.ok()) << r.bug->message;
  return found;
}

// A backend that gives top's name to bottom and bottom's to top: the binding check must see it.
struct swapped_names_memory : memory {
  template <class U>
  class atomic : public memory::atomic<U> {
   public:
    using memory::atomic<U>::atomic;
    atomic(U v, const char* label, source_loc s = source_loc::current())
        : memory::atomic<U>(v, swap(label), s) {}

   private:
    static const char* swap(const char* n) {
      const std::string_view v = n;
      return v == "top" ? "bottom" : v == "bottom" ? "top" : n;
    }
  };
};
template <class T, class Mem>
using chase_lev_as_built = chase_lev<T, Mem>;
template <class T, class /*Mem*/>
using chase_lev_swapped_names = chase_lev<T, swapped_names_memory>;

TEST(Names, EachNameIsBoundToItsOwnLocation) {
  std::uint64_t n = 0;
  EXPECT_EQ(first_violation<chase_lev_as_built>(n), "");
  EXPECT_GT(n, 0u);
}

TEST(Names, SwappedNamesAreCaughtByTheBindingCheck) {
  std::uint64_t n = 0;
  EXPECT_NE(first_violation<chase_lev_swapped_names>(n), "");
  EXPECT_GT(n, 0u);
}

// A name given to a single atomic shows where its values are: x's writes are 1, y's 2.
TEST(Names, NamedScalarsCarryTheirOwnValues) {
  const result r = explore(options{}, [](client& c) {
    mem::atomic<int> x{0, "x"};
    mem::atomic<int> y{0, "y"};
    c.spawn([&] { x.store(1, rlx); });
    c.spawn([&] { y.store(2, rlx); });
    c.join_all();
    c.check(false, "stop");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.bug->trace.find("W x 1 rlx"), std::string::npos) << r.bug->trace;
  EXPECT_NE(r.bug->trace.find("W y 2 rlx"), std::string::npos) << r.bug->trace;
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
