// Your own model tests (<stealcheck/model.hpp>, STEALCHECK_MODEL_TEST): a body written on the
// public API explores exactly the executions of the same body on the explorer's client API; a
// broken protocol beside each correct one is caught with the kind, message and condition named,
// and its replay token runs that execution again; spin_until cuts without reporting; misuse is
// reported, not undefined.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <stealcheck/model.hpp>
#include <stealcheck/testing.hpp>
#include <string>

#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace model = stealcheck::model;

namespace {

// Message passing: data, then a flag; the reader waits for the flag and reads data.
// flag_order: the order of the flag's store (release: correct; relaxed: broken).
void message_passing(std::memory_order flag_order) {
  model::atomic<int> data{0}, flag{0};
  model::thread writer([&] {
    data.store(42, std::memory_order_relaxed);
    flag.store(1, flag_order);  // pairs with the reader's acquire load
  });
  model::spin_until([&] { return flag.load(std::memory_order_acquire) == 1; });
  STEALCHECK_ASSERT(data.load(std::memory_order_relaxed) == 42, "the flag publishes data");
  writer.join();
}

// An event count (the sleep protocol of a scheduler's idle worker, as folly::EventCount): the
// waiter announces itself, re-checks the condition and sleeps until the epoch moves; the
// notifier sets the condition and moves the epoch only if someone waits. The store-buffering
// pair (waiter: waiters then ready; notifier: ready then waiters) needs seq_cst on all four
// accesses (sc); with release/acquire the waiter can miss ready while the notifier misses the
// waiter: a lost wake-up, reported as a deadlock (the waiter's wait never returns).
void event_count(bool sc) {
  using std::memory_order_acq_rel, std::memory_order_acquire, std::memory_order_release;
  constexpr auto seq = std::memory_order_seq_cst;
  model::atomic<unsigned> epoch{0}, waiters{0};
  model::atomic<int> ready{0};
  model::thread notifier([&] {
    ready.store(1, sc ? seq : memory_order_release);        // SB with the waiter's announce, check
    if (waiters.load(sc ? seq : memory_order_acquire) > 0)  // a waiter announced: wake it
      epoch.fetch_add(1, memory_order_release);             // pairs with the waiter's acquire wait
  });
  waiters.fetch_add(1, sc ? seq : memory_order_acq_rel);  // announce, then re-check
  const unsigned seen = epoch.load(memory_order_acquire);
  if (ready.load(sc ? seq : memory_order_acquire) == 0) epoch.wait(seen, memory_order_acquire);
  notifier.join();
  STEALCHECK_ASSERT(ready.load(std::memory_order_relaxed) == 1, "woken only once ready is set");
}

TEST(ModelApi, CountsMatchTheExplorersClientApi) {
  const model::result pub = model::check({}, [] { message_passing(std::memory_order_release); });
  // the same body on models/explore/explore.hpp's client
  const model::result internal = model::explore({}, [](model::client& c) {
    model::atomic<int> data{0}, flag{0};
    const std::size_t w = c.spawn([&] {
      data.store(42, std::memory_order_relaxed);
      flag.store(1, std::memory_order_release);
    });
    model::spin_assume(flag.load(std::memory_order_acquire) == 1);
    c.check(data.load(std::memory_order_relaxed) == 42, "the flag publishes data");
    c.join(w);
  });
  ASSERT_TRUE(pub.ok()) << model::summary(pub);
  ASSERT_TRUE(internal.ok()) << model::summary(internal);
  EXPECT_EQ(pub.complete, internal.complete);
  EXPECT_EQ(pub.blocked, internal.blocked);
  // the flag read as 0 cuts an execution (blocked by the spin), not a bug
  EXPECT_GT(pub.complete, 0u);
  EXPECT_GT(pub.blocked_assume, 0u);
  EXPECT_EQ(pub.blocked, pub.blocked_assume);
}

TEST(ModelApi, ARelaxedFlagFailsTheAssertionWithItsMessageAndCondition) {
  auto body = [] { message_passing(std::memory_order_relaxed); };
  const model::result r = model::check({}, body);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, model::error_kind::assertion);
  EXPECT_NE(r.bug->message.find("the flag publishes data"), std::string::npos) << r.bug->message;
  EXPECT_NE(r.bug->message.find("condition: data.load(std::memory_order_relaxed) == 42"),
            std::string::npos)
      << r.bug->message;
  EXPECT_NE(r.bug->message.find("model_api_test.cpp:"), std::string::npos) << r.bug->message;
  // under SC the same body is correct
  model::options sc;
  sc.model = model::memory_model::sc;
  EXPECT_TRUE(model::check(sc, body).ok());
  // the token replays that one execution, to the same bug
  model::options again;
  again.replay = r.bug->replay_token;
  const model::result replayed = model::check(again, body);
  ASSERT_FALSE(replayed.ok());
  EXPECT_EQ(replayed.bug->message, r.bug->message);
}

TEST(ModelApi, AWeakEventCountLosesAWakeUpAsADeadlock) {
  const model::result good = model::check({}, [] { event_count(true); });
  EXPECT_TRUE(good.ok()) << model::summary(good);
  EXPECT_GT(good.complete, 0u);
  const model::result bad = model::check({}, [] { event_count(false); });
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.bug->kind, model::error_kind::deadlock) << model::summary(bad);
  EXPECT_NE(bad.bug->message.find("waits forever"), std::string::npos) << bad.bug->message;
}

TEST(ModelApi, JobsGiveTheSequentialCounts) {
  auto body = [] { event_count(true); };
  model::options two;
  two.jobs = 2;
  const model::result one = model::check({}, body);
  const model::result par = model::check(two, body);
  ASSERT_TRUE(one.ok() && par.ok());
  EXPECT_EQ(one.complete, par.complete);
  EXPECT_EQ(one.blocked, par.blocked);
}

TEST(ModelApi, ProgressCountsEveryExecution) {
  for (unsigned jobs : {1u, 2u}) {
    std::atomic<std::uint64_t> seen{0};
    model::options o;
    o.jobs = jobs;
    o.progress = &seen;
    const model::result r = model::check(o, [] { event_count(true); });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(seen.load(), r.executions()) << "jobs " << jobs;
  }
}

TEST(ModelApi, MisuseIsReportedNotUndefined) {
  // a thread joined twice: an assertion naming it
  const model::result twice = model::check({}, [] {
    model::thread t([] {});
    t.join();
    t.join();
  });
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.bug->message.find("not joinable"), std::string::npos) << twice.bug->message;
  // a thread started by another model thread
  const model::result nested = model::check({}, [] {
    model::thread outer([] { model::thread inner([] {}); });
    outer.join();
  });
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.bug->message.find("only the client's main thread may spawn"), std::string::npos)
      << nested.bug->message;
  // outside check: an exception, not a crash
  EXPECT_THROW(model::thread([] {}), std::logic_error);
  EXPECT_THROW(STEALCHECK_ASSERT(false, "outside"), std::logic_error);
}

TEST(ModelApi, ASpinThatNeverEndsIsBlockedNotABug) {
  // every execution is cut by the spin, none reported (STEALCHECK_MODEL_TEST fails such a test:
  // it checked nothing)
  const model::result r = model::check({}, [] {
    model::atomic<int> never{0};
    model::spin_until([&] { return never.load(std::memory_order_relaxed) == 1; });
  });
  EXPECT_TRUE(r.ok()) << model::summary(r);
  EXPECT_EQ(r.complete, 0u);
  EXPECT_GT(r.blocked_assume, 0u);
}

// The built-in client push2_pop_steal2 (owner: push 1, push 2, pop; a thief steals twice; then
// the drain) written on the public API with checked_deque.
template <class Tag>
void push2_pop_steal2_public() {
  model::checked_deque<typename Tag::template deque<std::int64_t, model::memory>> d(
      4, stealcheck::spec::spec_kind::lifo_owner);
  model::thread thief([&] {
    d.steal();
    d.steal();
  });
  d.push(1);
  d.push(2);
  d.pop();
  thief.join();
  d.finish();
}

TEST(ModelApi, CheckedDequeHasTheBuiltInClientsCountsAndVerdicts) {
  using stealcheck::chase_lev_tag, stealcheck::chase_lev_no_pop_fence_tag;
  const model::result pub = model::check({}, [] { push2_pop_steal2_public<chase_lev_tag>(); });
  const model::result builtin = model::explore({}, model::as_client([] {
                                                 model::clients::run_script<chase_lev_tag::deque>(
                                                     model::clients::scripts::push2_pop_steal2,
                                                     stealcheck::builtin::chase_lev);
                                               }));
  ASSERT_TRUE(pub.ok()) << model::summary(pub);
  ASSERT_TRUE(builtin.ok()) << model::summary(builtin);
  EXPECT_EQ(pub.complete, builtin.complete);
  EXPECT_EQ(pub.blocked, builtin.blocked);
  // the pop fence left out: the owner and the thief both take the last value
  const model::result bad =
      model::check({}, [] { push2_pop_steal2_public<chase_lev_no_pop_fence_tag>(); });
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.bug->message.find("taken twice"), std::string::npos) << bad.bug->message;
  EXPECT_NE(bad.bug->trace.find("steal -> "), std::string::npos) << bad.bug->trace;
}

}  // namespace

// The GoogleTest form: one test per memory model asked for.
STEALCHECK_MODEL_TEST(ModelApiMacro, EventCount, {.sc = true}) {
  event_count(true);
}

TEST(ModelApi, TheMacroRegistersOneTestPerMemoryModel) {
  const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
  std::string names;
  for (int i = 0; i < u.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& s = *u.GetTestSuite(i);
    if (std::string(s.name()) != "ModelApiMacro") continue;
    for (int k = 0; k < s.total_test_count(); ++k)
      names += std::string(s.GetTestInfo(k)->name()) + " ";
  }
  EXPECT_EQ(names, "EventCount_rc11 EventCount_sc ");
}
// SPDX-License-Identifier: Apache-2.0
