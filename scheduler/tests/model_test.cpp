// scheduler/tests/model_test.cpp: the scheduler's own synchronization under the model checker
// (scheduler/model_clients.hpp). The correct event count, join protocol, injection queue and
// outside wait pass every client on every correct built-in deque, and with the search limit
// (scheduler/search.hpp) on chase_lev, with exactly the recorded
// execution counts (a change of a count means the protocol or the checker changed: look before
// updating the table); each known-bad order or wake-up (scheduler/known_bad.hpp) is caught with
// its exact failure kind. About 15 s in release.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "scheduler/known_bad.hpp"
#include "scheduler/model_clients.hpp"
#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"

namespace stealcheck::scheduler {
namespace {

using model::clients::client_entry;

std::vector<client_entry> correct_clients() {
  std::vector<client_entry> out;
  model_clients::add_clients<stealcheck::detail::chase_lev_default>(out, "chase_lev");
  model_clients::add_clients<stealcheck::detail::chase_lev_default, event_count_sites, join_sites,
                             inject_sites, inject_wake_strict, search_limit::half>(out,
                                                                                   "chase_lev");
  model_clients::add_clients<stealcheck::detail::steal_half_default>(out, "steal_half");
  model_clients::add_clients<stealcheck::detail::locked_default>(out, "locked");
  model_clients::add_clients<stealcheck::detail::split_default>(out, "split");
  return out;
}

struct expected_counts {
  std::string_view client;
  std::uint64_t complete, blocked;
};

// RC11, exhaustive (also `stealcheck model sched`).
constexpr expected_counts rc11_counts[] = {
    {"fork2_join.chase_lev", 2998, 476},
    {"steal_while_join.chase_lev", 2998, 476},
    {"park_while_push.chase_lev", 224949, 34111},
    {"stolen_exception.chase_lev", 2998, 476},
    {"shutdown_parking.chase_lev", 8, 1},
    {"run_from_outside.chase_lev", 282, 50},
    {"group_from_outside.chase_lev", 7704, 1419},
    // search_limit::half: worker 1 alone searches, so the clients that only it idles in explore
    // what they explored without the limit; the count changes where the main thread, outside
    // the pool, injects while worker 1 takes and gives back its slot
    {"fork2_join.chase_lev.search_half", 2998, 476},
    {"steal_while_join.chase_lev.search_half", 2998, 476},
    {"park_while_push.chase_lev.search_half", 224949, 34111},
    {"stolen_exception.chase_lev.search_half", 2998, 476},
    {"shutdown_parking.chase_lev.search_half", 8, 1},
    {"run_from_outside.chase_lev.search_half", 330, 58},
    {"group_from_outside.chase_lev.search_half", 12228, 2196},
    {"refused_from_outside.chase_lev.search_half", 159, 32},
    {"fork2_join.steal_half", 8161, 1246},
    {"steal_while_join.steal_half", 8161, 1246},
    {"park_while_push.steal_half", 1310583, 185235},
    {"stolen_exception.steal_half", 8161, 1246},
    {"shutdown_parking.steal_half", 9, 1},
    {"run_from_outside.steal_half", 333, 50},
    {"group_from_outside.steal_half", 8772, 1419},
    {"fork2_join.locked", 825, 349},
    {"steal_while_join.locked", 825, 349},
    {"park_while_push.locked", 23109, 8279},
    {"stolen_exception.locked", 825, 349},
    {"shutdown_parking.locked", 9, 1},
    {"run_from_outside.locked", 333, 50},
    {"group_from_outside.locked", 8772, 1419},
    {"fork2_join.split", 940, 110},
    {"steal_while_join.split", 940, 110},
    {"park_while_push.split", 183280, 24122},
    {"stolen_exception.split", 940, 110},
    {"shutdown_parking.split", 9, 1},
    {"run_from_outside.split", 333, 50},
    {"group_from_outside.split", 8772, 1419},
};

TEST(SchedModel, CorrectProtocolPassesEveryClientWithItsCounts) {
  const auto clients = correct_clients();
  ASSERT_EQ(clients.size(), std::size(rc11_counts));
  for (std::size_t i = 0; i < clients.size(); ++i) {
    SCOPED_TRACE(std::string(clients[i].name));
    ASSERT_EQ(clients[i].name, rc11_counts[i].client);
    // sanitizer builds (scaled-down tests) leave out the clients of more than 2,000 executions:
    // under TSan the checker explores about 60 executions per second here (those up to 5,000
    // took 260 s), so the rest would take over ten minutes; the release build runs them all
    if (STEALCHECK_TEST_SCALE < 100 && rc11_counts[i].complete + rc11_counts[i].blocked > 2'000)
      continue;
    const model::result r = model::explore(model::options{}, clients[i].run);
    ASSERT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
    EXPECT_EQ(r.complete, rc11_counts[i].complete);
    EXPECT_EQ(r.blocked, rc11_counts[i].blocked);
    EXPECT_EQ(r.bound_hits, 0u);
  }
}

// Runs the named client ("<client>.chase_lev", "<client>.chase_lev.search_half" or
// "<client>.split") of the pool with the given orders and wake-up policy.
template <class Ec, class Js, class Is = inject_sites, class Wake = inject_wake_strict>
model::result run_bad(std::string_view name) {
  std::vector<client_entry> clients;
  model_clients::add_clients<stealcheck::detail::chase_lev_default, Ec, Js, Is, Wake>(clients,
                                                                                      "chase_lev");
  model_clients::add_clients<stealcheck::detail::chase_lev_default, Ec, Js, Is, Wake,
                             search_limit::half>(clients, "chase_lev");
  model_clients::add_clients<stealcheck::detail::split_default, Ec, Js, Is, Wake>(clients, "split");
  for (const client_entry& c : clients)
    if (c.name == name) return model::explore(model::options{}, c.run);
  ADD_FAILURE() << "no client " << name;
  return {};
}

TEST(SchedModel, RelaxedEventCountLosesTheShutdownWakeUp) {
  const model::result r =
      run_bad<event_count_sites_relaxed, join_sites>("shutdown_parking.chase_lev");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, model::error_kind::deadlock) << r.bug->message;
  EXPECT_NE(r.bug->message.find("lost wake-up"), std::string::npos) << r.bug->message;
  EXPECT_NE(r.bug->message.find("waits forever on event_count,"), std::string::npos)
      << r.bug->message;
  // the cause: the sleeper's re-check of `stopping` misses the shutdown store, because the
  // RMWs that would carry it (notify's and prepare_wait's) are relaxed
  const std::string& t = r.bug->trace;
  EXPECT_EQ(t.rfind("cause: ", 0), 0u) << t;
  EXPECT_NE(t.find("read of stopping"), std::string::npos) << t;
  EXPECT_NE(t.find("release store of stopping"), std::string::npos) << t;
  EXPECT_NE(t.find("(event_count::notify.rmw) is not a release"), std::string::npos) << t;
  EXPECT_NE(t.find("(event_count::prepare_wait.rmw) is not an acquire"), std::string::npos) << t;
}

TEST(SchedModel, RelaxedDoneFlagLetsTheJoinerRaceWithTheThief) {
  for (std::string_view client : {"fork2_join.chase_lev", "stolen_exception.chase_lev"}) {
    SCOPED_TRACE(std::string(client));
    const model::result r = run_bad<event_count_sites, join_sites_relaxed_done>(client);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.bug->kind, model::error_kind::data_race) << r.bug->message;
    // the cause: the joiner's read of the done flag reads the thief's relaxed store of it
    const std::string& t = r.bug->trace;
    EXPECT_NE(t.find("are not ordered by happens-before"), std::string::npos) << t;
    EXPECT_NE(t.find("read of done"), std::string::npos) << t;
    EXPECT_NE(t.find("(join::flag.store_done) is not a release"), std::string::npos) << t;
  }
}

// A task spawned in a group and stolen decrements the count with a relaxed RMW: the spawner,
// which ran the other task itself (no atomic access), reads the stolen one's result unordered.
TEST(SchedModel, RelaxedArriveLetsTheSpawnerRaceWithTheThief) {
  const model::result r =
      run_bad<event_count_sites, join_sites_relaxed_arrive>("park_while_push.chase_lev");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, model::error_kind::data_race) << r.bug->message;
  const std::string& t = r.bug->trace;
  EXPECT_NE(t.find("are not ordered by happens-before"), std::string::npos) << t;
  EXPECT_NE(t.find("read of pending"), std::string::npos) << t;
  EXPECT_NE(t.find("(join::counter.arrive) is not a release"), std::string::npos) << t;
}

// The mark of a spawner outside the pool relaxed: when it finds every task done it does not
// wait, and reads a task's result without synchronizing with the worker that wrote it.
struct join_sites_relaxed_mark : join_sites {
  static constexpr site counter_mark{"join::counter.mark_external", std::memory_order_relaxed,
                                     site_kind::rmw, "broken on purpose: relaxed (no acquire)"};
};

TEST(SchedModel, RelaxedMarkLetsTheOutsideWaiterRaceWithTheWorker) {
  const model::result r =
      run_bad<event_count_sites, join_sites_relaxed_mark>("group_from_outside.chase_lev");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, model::error_kind::data_race) << r.bug->message;
  EXPECT_NE(r.bug->trace.find("(join::counter.mark_external) is not an acquire"), std::string::npos)
      << r.bug->trace;
}

// The deque a thief can only take shared items from: the known-bad orders are caught there too
// (a worker that sees only private items parks instead of retrying, and the clients still reach
// the steals).
TEST(SchedModel, KnownBadOrdersAreCaughtOnTheSplitDeque) {
  const model::result done =
      run_bad<event_count_sites, join_sites_relaxed_done>("fork2_join.split");
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.bug->kind, model::error_kind::data_race) << done.bug->message;
  const model::result arrive =
      run_bad<event_count_sites, join_sites_relaxed_arrive>("park_while_push.split");
  ASSERT_FALSE(arrive.ok());
  EXPECT_EQ(arrive.bug->kind, model::error_kind::data_race) << arrive.bug->message;
  const model::result ec = run_bad<event_count_sites_relaxed, join_sites>("shutdown_parking.split");
  ASSERT_FALSE(ec.ok());
  EXPECT_EQ(ec.bug->kind, model::error_kind::deadlock) << ec.bug->message;
}

// The caller of run() waits forever for its task: checks the failure kind and message, returns
// the report's trace (empty if the bug was not caught).
std::string outside_deadlock(const model::result& r) {
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.bug->kind, model::error_kind::deadlock) << r.bug->message;
  EXPECT_NE(r.bug->message.find("waits forever on external_done,"), std::string::npos)
      << r.bug->message;
  return r.bug->trace;
}

// Injected work announced with hint_one(): the parking worker and the injector each miss the
// other's write (store buffering), the worker sleeps and the caller waits for its task forever.
// The same client passes with notify_one() (CorrectProtocolPassesEveryClientWithItsCounts).
TEST(SchedModel, InjectionWithTheNonStrictHintLosesTheWakeUp) {
  const std::string t =
      outside_deadlock(run_bad<event_count_sites, join_sites, inject_sites, inject_wake_hint>(
          "run_from_outside.chase_lev"));
  EXPECT_EQ(t.rfind("cause: store buffering", 0), 0u) << t;
  EXPECT_NE(t.find("relaxed store of inject_size"), std::string::npos) << t;
  EXPECT_NE(t.find("relaxed read of event_count"), std::string::npos) << t;
}

// Injected work announced only when nobody searches (Tokio's and Go's rule) on the pool's relaxed
// count of searchers: the injector reads worker 1's slot still taken, worker 1 gives it back,
// parks and misses the queued task (store buffering), and the caller waits forever. The same
// rule cannot go wrong without a limit (nobody is counted, every injection wakes), and under
// sequential consistency the parking worker sees the task: the bug is the relaxed count.
TEST(SchedModel, SkippingTheWakeUpWhileSomebodySearchesLosesIt) {
  const std::string t = outside_deadlock(
      run_bad<event_count_sites, join_sites, inject_sites, inject_wake_unless_searching>(
          "run_from_outside.chase_lev.search_half"));
  EXPECT_EQ(t.rfind("cause: store buffering", 0), 0u) << t;
  EXPECT_NE(t.find("search::leave.rmw"), std::string::npos) << t;
  EXPECT_NE(t.find("search::searching.load"), std::string::npos) << t;
  // a searcher that stalls while holding its slot: the injector never wakes anybody
  outside_deadlock(
      run_bad<event_count_sites, join_sites, inject_sites, inject_wake_unless_searching>(
          "refused_from_outside.chase_lev.search_half"));
  const model::result any =
      run_bad<event_count_sites, join_sites, inject_sites, inject_wake_unless_searching>(
          "run_from_outside.chase_lev");
  EXPECT_TRUE(any.ok()) << any.bug->message;
  model::options sc;
  sc.model = model::memory_model::sc;
  std::vector<client_entry> clients;
  model_clients::add_clients<stealcheck::detail::chase_lev_default, event_count_sites, join_sites,
                             inject_sites, inject_wake_unless_searching, search_limit::half>(
      clients, "chase_lev");
  for (const client_entry& c : clients)
    if (c.name == "run_from_outside.chase_lev.search_half") {
      const model::result r = model::explore(sc, c.run);
      EXPECT_TRUE(r.ok()) << r.bug->message;
    }
}

// The outside wait's epoch bump relaxed: the caller reads the bump, still reads done == false,
// and waits on an epoch that never moves again.
TEST(SchedModel, RelaxedOutsideNotifyLetsTheCallerMissTheCompletion) {
  const std::string t =
      outside_deadlock(run_bad<event_count_sites, join_sites, inject_sites_relaxed_notify>(
          "run_from_outside.chase_lev"));
  EXPECT_NE(t.find("read of done"), std::string::npos) << t;
  EXPECT_NE(t.find("(external::notify.rmw) is not a release"), std::string::npos) << t;
}

}  // namespace
}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
