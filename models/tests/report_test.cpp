// Bug reports: they open with the operations and the failed check, and by default list the
// slice (the implicated operations' events and the writes they read), which must be closed
// under reads-from. A slicer that drops the writes read from is caught by the same property.
#include "stealcheck/detail/models/report/report.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"

namespace stealcheck::model {
namespace {

// Whether every kept read's write is kept too.
bool closed_under_rf(const graph& g, const std::vector<std::vector<char>>& keep) {
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (keep[t][i] == 0 || !is_read(e) || !g.contains(e.rf)) continue;
      if (keep[static_cast<std::size_t>(e.rf.thread)][static_cast<std::size_t>(e.rf.index)] == 0)
        return false;
    }
  return true;
}

// A message-passing execution in which the reader reads the writer's 1, with one operation
// per thread: the writer's store, the reader's load (implicated).
struct mp_execution {
  graph g;
  std::vector<operation_span> ops;
};

mp_execution message_passing() {
  mp_execution out;
  options o;
  o.on_complete = [&](const graph& g, const consistency_checker&) {
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
        const event& e = g.threads[t][i];
        if (is_read(e) && e.value == 1 && out.ops.empty()) {
          out.g = g;
          const event_id r{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
          out.ops = {{e.rf, e.rf, "store(1)", false}, {r, r, "load -> 1", true}};
        }
      }
  };
  explore(o, [](client& c) {
    memory::atomic<int> x{0};
    c.spawn([&] { x.store(1, std::memory_order_release); });
    c.spawn([&] { static_cast<void>(x.load(std::memory_order_acquire)); });
    c.join_all();
  });
  return out;
}

TEST(Report, SliceKeepsTheWritesItsReadsReadFrom) {
  const mp_execution x = message_passing();
  ASSERT_EQ(x.ops.size(), 2u) << "no execution read 1";
  const auto keep = slice(x.g, x.ops);
  EXPECT_TRUE(closed_under_rf(x.g, keep));
  const event_id w = x.ops[0].first;
  EXPECT_EQ(keep[static_cast<std::size_t>(w.thread)][static_cast<std::size_t>(w.index)], 1);
  // a wrong slicer: the implicated operations' events only, without the writes they read
  std::vector<std::vector<char>> wrong(x.g.threads.size());
  for (std::size_t t = 0; t < x.g.threads.size(); ++t)
    wrong[t].assign(x.g.threads[t].size(), 0);
  const event_id r = x.ops[1].first;
  wrong[static_cast<std::size_t>(r.thread)][static_cast<std::size_t>(r.index)] = 1;
  EXPECT_FALSE(closed_under_rf(x.g, wrong)) << "the closure check cannot fail";
  // the listing: the operations first, the write under its operation, named by the read
  const std::string t = trace(x.g, x.ops, false);
  EXPECT_EQ(t.rfind("operations (* = the failed check is about it):", 0), 0u) << t;
  EXPECT_NE(t.find("*load -> 1"), std::string::npos) << t;
  EXPECT_NE(t.find("(written by store(1))"), std::string::npos) << t;
  EXPECT_NE(t.find("--full shows all"), std::string::npos) << t;
  EXPECT_EQ(trace(x.g, x.ops, true).find("--full shows all"), std::string::npos);
}

// The event id "(t, i)" that starts at `pos` of `line`, or "" when none does.
std::string event_id_at(const std::string& line, std::size_t pos) {
  if (pos >= line.size() || line[pos] != '(') return {};
  const std::size_t close = line.find(')', pos);
  if (close == std::string::npos) return {};
  std::string id = line.substr(pos, close + 1 - pos);
  const std::size_t comma = id.find(", ");
  const auto digits = [](const std::string& d) {
    return !d.empty() && d.find_first_not_of("0123456789") == std::string::npos;
  };
  if (comma == std::string::npos || !digits(id.substr(1, comma - 1)) ||
      !digits(id.substr(comma + 2, id.size() - comma - 3)))
    return {};
  return id;
}

// The report of a known-bad deque as a user sees it: its operations first with the ones the
// check is about marked, each event a read of the slice refers to listed, on one screen.
void expect_readable(const result& r, const std::string& value_phrase) {
  ASSERT_FALSE(r.ok());
  const std::string& t = r.bug->trace;
  EXPECT_NE(r.bug->message.find(value_phrase), std::string::npos) << r.bug->message;
  EXPECT_EQ(t.rfind("operations (* = the failed check is about it):", 0), 0u) << t;
  // an operation is marked (a thread's first, or a later one)
  EXPECT_TRUE(t.find(", *") != std::string::npos || t.find(": *") != std::string::npos) << t;
  std::set<std::string> listed, referenced, in_cause;
  std::istringstream in(t);
  std::size_t lines = 1;  // the message
  bool cause_section = false;
  for (std::string line; std::getline(in, line); ++lines) {
    if (line.rfind("cause: ", 0) == 0) cause_section = true;
    if (line.rfind("events of the ", 0) == 0) cause_section = false;
    if (cause_section)
      for (std::size_t p = line.find('('); p != std::string::npos; p = line.find('(', p + 1))
        if (const std::string id = event_id_at(line, p); !id.empty()) in_cause.insert(id);
    const std::size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && first > 0) {
      const std::string id = event_id_at(line, first);
      if (!id.empty() && line.compare(first + id.size(), 1, " ") == 0) listed.insert(id);
    }
    const std::size_t rf = line.find("[rf ");
    if (rf != std::string::npos) {
      const std::string id = event_id_at(line, rf + 4);
      if (!id.empty()) referenced.insert(id);
    }
  }
  EXPECT_FALSE(listed.empty()) << t;
  EXPECT_FALSE(referenced.empty()) << t;
  for (const std::string& e : referenced)
    EXPECT_TRUE(listed.count(e)) << e << " missing:\n" << t;
  for (const std::string& e : in_cause)
    EXPECT_TRUE(listed.count(e)) << "the cause names " << e << ", the slice leaves it out:\n" << t;
  EXPECT_LT(lines, 40u) << t;
}

// The cause section of a report, and whether the picture draws its missing edge.
std::string cause_of(const result& r) {
  const std::string& t = r.bug->trace;
  const std::size_t from = t.find("cause: ");
  if (from == std::string::npos) return {};
  return t.substr(from, t.find("events of the ", from) - from);
}

TEST(Report, MissingPushFenceIsExplainedAsMessagePassing) {
  const result r = explore({}, clients::push2_pop_steal2<chase_lev_no_push_fence>);
  ASSERT_FALSE(r.ok());
  const std::string c = cause_of(r);
  // a steal reads a slot's old value; the push's store of it is not happens-before the read
  EXPECT_NE(c.find("cause: steal -> "), std::string::npos) << r.bug->trace;
  EXPECT_NE(c.find("read of ring#"), std::string::npos) << c;
  EXPECT_NE(c.find("'s relaxed store of ring#"), std::string::npos) << c;
  EXPECT_NE(c.find("is mo-later and not happens-before it"), std::string::npos) << c;
  // the synchronization that would order them, and which half is missing: the release
  EXPECT_NE(c.find("read of bottom"), std::string::npos) << c;
  EXPECT_NE(c.find("is not a release, and no release fence lies between"), std::string::npos) << c;
  EXPECT_EQ(c.find("is not an acquire"), std::string::npos) << c;
  EXPECT_NE(r.bug->dot.find("label=\"no sw\", color=red"), std::string::npos) << r.bug->dot;
}

TEST(Report, MissingPopFenceIsExplainedAsStoreBuffering) {
  const result r = explore({}, clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  ASSERT_FALSE(r.ok());
  const std::string c = cause_of(r);
  EXPECT_NE(c.find("cause: store buffering between threads 0 and 1"), std::string::npos)
      << r.bug->trace;
  EXPECT_NE(c.find("store of bottom"), std::string::npos) << c;
  EXPECT_NE(c.find("read of top"), std::string::npos) << c;
  // the owner lacks the seq_cst fence, the thief has its own
  EXPECT_NE(c.find("thread 0 has none between"), std::string::npos) << c;
  EXPECT_NE(c.find("thread 1 has one: seq_cst fence"), std::string::npos) << c;
  EXPECT_NE(c.find("(chase_lev::steal.fence)"), std::string::npos) << c;
  EXPECT_NE(r.bug->dot.find("label=\"needs seq_cst fence\""), std::string::npos);
}

// Message passing through a flag: `release` decides whether the data race exists.
void flag_client(client& c, std::memory_order publish) {
  memory::nonatomic<int> data{named{"data"}, 0};
  memory::atomic<int> flag{0, "flag"};
  c.spawn([&] {
    data.write() = 1;
    flag.store(1, publish);
  });
  c.spawn([&] {
    if (flag.load(std::memory_order_acquire) == 1) static_cast<void>(data.read());
  });
  c.join_all();
}

TEST(Report, RaceIsExplainedByTheFlagStoreThatIsNotARelease) {
  const result good = explore({}, [](client& c) { flag_client(c, std::memory_order_release); });
  EXPECT_TRUE(good.ok()) << good.bug->message;
  const result r = explore({}, [](client& c) { flag_client(c, std::memory_order_relaxed); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::data_race);
  const std::string c = cause_of(r);
  EXPECT_NE(c.find("non-atomic write of data"), std::string::npos) << r.bug->trace;
  EXPECT_NE(c.find("non-atomic read of data"), std::string::npos) << c;
  EXPECT_NE(c.find("are not ordered by happens-before"), std::string::npos) << c;
  EXPECT_NE(c.find("acquire read of flag"), std::string::npos) << c;
  EXPECT_NE(c.find("relaxed store of flag"), std::string::npos) << c;
  EXPECT_NE(c.find("is not a release"), std::string::npos) << c;
}

TEST(Report, NonLinearizableHistoryNamesTheSpecStepThatFails) {
  const result r = explore({}, clients::push2_pop_steal2<locked_steal_bottom>);
  ASSERT_FALSE(r.ok());
  const std::string& m = r.bug->message;
  // a steal that took the bottom item: the spec's steal takes the top one
  const std::size_t spec = m.find("  spec: ");
  ASSERT_NE(spec, std::string::npos) << m;
  EXPECT_NE(m.find("nothing can come next: ", spec), std::string::npos) << m;
  EXPECT_NE(m.find("(the spec's steal returns ", spec), std::string::npos) << m;
}

TEST(Report, KnownBadReportsLeadWithTheOperationsAndFitOnAScreen) {
  expect_readable(explore({}, clients::push2_pop_steal2<chase_lev_no_pop_fence>),
                  "value 2 was taken twice");
  expect_readable(explore({}, clients::push2_pop_steal2<chase_lev_no_push_fence>),
                  "was never pushed");
  expect_readable(explore({}, clients::push2_pop_steal2<locked_steal_bottom>),
                  "no linearization respecting happens-before");
  // the longest reports: three threads, a resize, two full rings
  expect_readable(explore({}, clients::push3_pop2_2thieves<chase_lev_no_pop_fence>),
                  "was taken twice");
  expect_readable(
      explore(
          {},
          clients::scripted<chase_lev_no_pop_fence, clients::scripts::full_ring_push_pop_steal3>),
      "was taken twice");
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
