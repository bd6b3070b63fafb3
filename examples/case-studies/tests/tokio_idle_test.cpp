// Tokio's stealable LIFO slot and the wake-ups around it (tokio_idle.hpp,
// docs/case-studies/tokio.md), as model tests:
//   - the shipped versions that promise a wake-up for a task pushed into the slot (1.51, and
//     #8120's Cautious mode) keep it in every execution, under RC11 and SC;
//   - #8069's ANY_LIFO bit strands a task (under SC already), and its fix keeps the promise;
//   - #8120's default (Traditional) does not promise it, as its documentation says: the
//     check fails, and that is the trade-off, not a bug;
//   - two one-change variants show what each part of the protocol is for: Steal::len must
//     count the slot, and with #8120's AcqRel slot notify_should_wakeup must be an RMW (RC11
//     only: a SeqCst load would do with 1.51's SeqCst slot).
#include "tokio_idle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stealcheck/model.hpp>
#include <stealcheck/testing.hpp>
#include <string>
#include <vector>

namespace model = stealcheck::model;
namespace tokio = case_studies::tokio_idle;

namespace {

model::result check(const tokio::version& v, model::memory_model m, bool earlier_push = false) {
  model::options o;
  o.model = m;
  return model::check(o, [&v, earlier_push] { tokio::scenario(v, earlier_push); });
}

// The version strands task 1 under memory model m, and the report says so.
void expect_stranded(const tokio::version& v, model::memory_model m, bool earlier_push = false) {
  const model::result r = check(v, m, earlier_push);
  ASSERT_FALSE(r.ok()) << v.name << ": nothing found\n" << model::summary(r);
  EXPECT_EQ(r.bug->kind, model::error_kind::assertion) << model::summary(r);
  EXPECT_NE(r.bug->message.find("task 1 is stranded"), std::string::npos) << model::summary(r);
  std::printf("%s, %s, after %zu complete executions: %s", v.name,
              m == model::memory_model::sc ? "sc" : "rc11", static_cast<std::size_t>(r.complete),
              model::summary(r).c_str());
}

}  // namespace

// The versions that keep the promise: every execution under RC11 and SC.
STEALCHECK_MODEL_TEST(TokioLifo, Tokio151NotifiesOnEveryPush, {.sc = true}) {
  tokio::scenario(tokio::tokio_1_51);
}
STEALCHECK_MODEL_TEST(TokioLifo, Pr8120CautiousNotifiesOnEveryPush, {.sc = true}) {
  tokio::scenario(tokio::pr8120_cautious);
}
STEALCHECK_MODEL_TEST(TokioLifo, Pr8069RescanAfterClearIsTheFix, {.sc = true}) {
  tokio::scenario(tokio::pr8069_rescan);
}
STEALCHECK_MODEL_TEST(TokioLifo, Tokio151ShouldWakeupAsLoadHoldsWithSeqCstSlot, {.sc = true}) {
  tokio::scenario(tokio::v1_51_should_wakeup_load);
}

// With a third worker whose push sets ANY_LIFO and who then runs its own task.
STEALCHECK_MODEL_TEST(TokioLifo, Tokio151ThreeWorkers, {.sc = true}) {
  tokio::scenario(tokio::tokio_1_51, true);
}
STEALCHECK_MODEL_TEST(TokioLifo, Pr8120CautiousThreeWorkers, {.sc = true}) {
  tokio::scenario(tokio::pr8120_cautious, true);
}
STEALCHECK_MODEL_TEST(TokioLifo, Pr8069RescanThreeWorkers, {.sc = true}) {
  tokio::scenario(tokio::pr8069_rescan, true);
}

// #8069 at 04353af3: the worker that clears ANY_LIFO after an empty scan and the push that
// found the bit set (and so did not notify) miss each other. SC is enough.
TEST(TokioLifo, Pr8069AnyLifoBitStrandsATask) {
  expect_stranded(tokio::pr8069, model::memory_model::sc);
  expect_stranded(tokio::pr8069, model::memory_model::rc11);
}

// The same from a reachable state: worker 2's push sets the bit (and notifies, finding it
// clear), worker 2 runs its task, and only then do worker 0's push and worker 1's scan meet.
TEST(TokioLifo, Pr8069StrandsATaskAfterAnEarlierPushOfTheWave) {
  expect_stranded(tokio::pr8069, model::memory_model::sc, true);
}

// #8120's default mode does not wake anyone for a push into the empty slot: the task waits for
// its owner's running task, as before 1.51 ("can deadlock if a task blocks the thread
// indefinitely", UnparkingMode::Traditional's documentation).
TEST(TokioLifo, Pr8120TraditionalLeavesTheTaskToItsOwner) {
  expect_stranded(tokio::pr8120_traditional, model::memory_model::sc);
  expect_stranded(tokio::pr8120_traditional, model::memory_model::rc11);
}

// The last searcher's look at the queues must count the slot (Steal::len since 1.51).
TEST(TokioLifo, LenWithoutTheSlotStrandsATask) {
  expect_stranded(tokio::len_without_slot, model::memory_model::sc);
  expect_stranded(tokio::len_without_slot, model::memory_model::rc11);
}

// With #8120's AcqRel swap and Acquire is_some, notify_should_wakeup must stay an RMW: a SeqCst
// load and the parking worker's fetch_sub form store buffering, which RC11 allows when the slot's
// accesses are not SeqCst. SC cannot show it.
TEST(TokioLifo, Pr8120ShouldWakeupAsLoadStrandsATaskUnderRc11Only) {
  expect_stranded(tokio::pr8120_should_wakeup_load, model::memory_model::rc11);
  const model::result sc = check(tokio::pr8120_should_wakeup_load, model::memory_model::sc);
  EXPECT_TRUE(sc.ok()) << model::summary(sc);
}

// The sampling modes find both findings too (the way a larger protocol would be checked):
// random sampling with seeds 1..20, each seed to its first bug; prints the executions drawn.
TEST(TokioLifo, SamplingFindsBothFindingsWithEverySeed) {
  struct finding {
    const tokio::version* v;
    model::memory_model m;
  };
  for (const finding f : {finding{&tokio::pr8069, model::memory_model::sc},
                          finding{&tokio::pr8120_should_wakeup_load, model::memory_model::rc11}}) {
    std::vector<std::uint64_t> drawn;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      model::options o;
      o.model = f.m;
      o.sample.executions = 100000;
      o.sample.seed = seed;
      const model::result r = model::check(o, [&f] { tokio::scenario(*f.v); });
      ASSERT_FALSE(r.ok()) << f.v->name << ", seed " << seed << ": " << model::summary(r);
      drawn.push_back(r.complete + r.blocked + 1);
    }
    std::sort(drawn.begin(), drawn.end());
    std::printf("%s: executions drawn to the bug over seeds 1-20: median %.1f, range %llu-%llu\n",
                f.v->name, static_cast<double>(drawn[9] + drawn[10]) / 2,
                static_cast<unsigned long long>(drawn.front()),
                static_cast<unsigned long long>(drawn.back()));
  }
}
// SPDX-License-Identifier: Apache-2.0
