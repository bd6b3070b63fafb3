// Deques that misbehave natively (throw, crash, hang) get a report that names what happened:
// the exception's type and message or the signal, the thread, the operation it was in and
// the operations before it; a hang is stopped and the stuck operation named. Beside them a
// correct deque passes the same runs. Stress (stress/isolate.hpp) and the native lincheck
// (stress/lincheck_run.hpp) both.
//
// No assertion is on time; the runs' own bounds (a 2 s deadline, a 1 s stall) prove that a
// hang ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/stress/isolate.hpp"
#include "stealcheck/detail/stress/lin_native.hpp"
#include "stealcheck/detail/stress/run.hpp"

namespace stealcheck::stress {
namespace {

// Under ASan+UBSan a null store is UBSan's report (and exit), not SIGSEGV; under TSan the
// runtime takes the signal first. The thread and the operation are still named there.
constexpr bool sanitized = STEALCHECK_TEST_SCALE < 100;

template <class T, class Mem = native_memory>
class throwing_pop : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() { throw std::bad_alloc(); }
};

template <class T, class Mem = native_memory>
class crashing_steal : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    volatile int* volatile p = nullptr;  // the compiler can neither see it is null nor drop it
    *p = 1;
    return locked_deque<T, Mem>::steal();
  }
};

// A steal that aborts the process, as glibc does when it finds a value freed twice (with the
// line glibc prints first).
template <class T, class Mem = native_memory>
class aborting_steal : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    std::fputs("double free or corruption (fasttop)\n", stderr);
    std::abort();
  }
};

// A thief that never wins: every steal reports a lost race, however long the deque is.
template <class T, class Mem = native_memory>
class starving_steal : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() { return steal_result<T>::abort(); }
};

// A steal that dies as a sanitizer reports: a report whose SUMMARY line is not its last.
template <class T, class Mem = native_memory>
class sanitizer_abort_steal : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    std::fputs(
        "==1==ERROR: AddressSanitizer: attempting double-free\n    #0 0x1 in f\n\n"
        "SUMMARY: AddressSanitizer: double-free deque.hpp:52 in steal\n==1==ABORTING\n",
        stderr);
    std::abort();
  }
};

// Spins on a flag nobody sets: an operation that never returns.
void hang(const std::atomic<bool>& never) {
  while (!never.load(std::memory_order_relaxed))
    std::this_thread::yield();
}

template <class T, class Mem = native_memory>
class looping_pop : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() {
    hang(never_);
    return locked_deque<T, Mem>::pop();
  }

 private:
  std::atomic<bool> never_{false};
};

// The owner's second pop that finds a value returns the first one's value again (a value taken
// twice), and the pop after it never returns.
template <class T, class Mem = native_memory>
class repeat_then_hangs : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() {
    if constexpr (std::is_same_v<T, std::uint64_t>) {  // the mixed scenario's values
      if (repeated_) hang(never_);
      auto v = locked_deque<T, Mem>::pop();
      if (v && first_) {
        repeated_ = true;
        return first_;
      }
      if (v) first_ = v;
      return v;
    } else {
      return locked_deque<T, Mem>::pop();
    }
  }

 private:
  std::optional<T> first_;  // owner-only
  bool repeated_ = false;
  std::atomic<bool> never_{false};
};

// Pop on an empty deque returns a value never pushed and corrupts the deque, so that from then
// on pop never reports empty (an index that wrapped below zero, as unsigned indices do).
template <class T, class Mem = native_memory>
class garbage_then_loops : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() {
    if constexpr (std::is_constructible_v<T, std::uint64_t>) {  // the scenarios' value types
      if (corrupt_) return T{987654321};
      auto v = locked_deque<T, Mem>::pop();
      if (!v) corrupt_ = true;
      return v ? std::move(v) : std::optional<T>(T{987654321});
    } else {
      return locked_deque<T, Mem>::pop();
    }
  }

 private:
  bool corrupt_ = false;  // owner-only
};

// A steal that never returns (spins on a flag nobody sets).
template <class T, class Mem = native_memory>
class looping_steal : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    hang(never_);
    return locked_deque<T, Mem>::steal();
  }

 private:
  std::atomic<bool> never_{false};
};

// A push that allocates in a loop and never returns (a resize that never finds room).
// Keeps 4 KB per push until it is destroyed (as a deque keeps its retired rings), or, with
// Leak, never frees it: both grow without bound in a run by time; only the first is correct.
template <class T, class Mem, bool Leak>
class hoarding_push : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  hoarding_push(const hoarding_push&) = delete;
  hoarding_push& operator=(const hoarding_push&) = delete;
  ~hoarding_push() {
    if (!Leak)
      for (char* p : kept_)
        delete[] p;
  }
  void push(T v) {
    kept_.push_back(new char[4 << 10]);
    std::fill_n(kept_.back(), 4 << 10, '\1');  // resident, not only reserved
    locked_deque<T, Mem>::push(std::move(v));
  }

 private:
  std::vector<char*> kept_;
};
template <class T, class Mem = native_memory>
using retaining_push = hoarding_push<T, Mem, false>;
template <class T, class Mem = native_memory>
using leaking_push = hoarding_push<T, Mem, true>;

template <class T, class Mem = native_memory>
class allocating_push : public locked_deque<T, Mem> {
 public:
  using locked_deque<T, Mem>::locked_deque;
  void push(T v) {
    if (++pushes_ < 50) return locked_deque<T, Mem>::push(std::move(v));
    for (;;) {  // 16 MB touched per round: 1 GB within a second or two
      hoard_.emplace_back(std::size_t{16} << 20, '\1');
    }
  }

 private:
  int pushes_ = 0;
  std::vector<std::string> hoard_;
};

template <class T, class Mem = native_memory>
using correct = locked_deque<T, Mem>;

template <class T, class Mem = native_memory>
using chase_lev_deque = chase_lev<T, Mem>;

config small_config() {
  config c;
  c.thieves = 2;
  c.ops = 2000;
  c.seed = 7;
  return c;
}

// The report, printed for the test log.
template <class R>
R printed(R r) {
  if constexpr (requires { r.ok(); }) {  // a lincheck outcome
    if (!r.ok()) std::printf("[ report   ] %s\n", r.failure.c_str());
  } else {  // a stress result
    if (!r.ok) std::printf("[ report   ] %s\n", r.failure.c_str());
  }
  return r;
}

// A run that ends by itself (passes, throws, crashes) takes well under a second; the
// generous default deadline keeps a loaded machine from turning it into a "did not finish"
// (the looping deque's tests pass their own).
template <template <class, class> class D>
result stress_mixed(double deadline = 120, double stall = 0) {
  return printed(run_isolated(
      [] { return run<variant_tag<D>>(scenario_kind::mixed, small_config()); }, deadline, stall));
}

void expect_has(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing '" << part << "' in: " << text;
}

TEST(NativeFault, StressCorrectDequePasses) {
  const result r = stress_mixed<correct>();
  EXPECT_TRUE(r.ok) << r.failure;
}

TEST(NativeFault, StressNamesExceptionThreadAndOperation) {
  const result r = stress_mixed<throwing_pop>();
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "threw std::bad_alloc: std::bad_alloc in owner during pop()");
  expect_has(r.failure, ", after ");  // the owner's operations before it
  expect_has(r.failure, "push(");
}

// A child that aborts (a double free found by malloc, a failed assert) is one failed cell naming
// the signal, the thread and its operation; the process that ran it goes on.
TEST(NativeFault, StressNamesAnAbortThreadAndOperation) {
  const result r = stress_mixed<aborting_steal>();
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "crashed with SIGABRT (Aborted) in thief ");
  expect_has(r.failure, "during steal()");
  // what the child printed before it aborted is in the report, not a stray line
  expect_has(r.failure, "its stderr: \"double free or corruption (fasttop)\"");
  // a sanitizer's report is named by its SUMMARY line, not by its last one
  const result s = stress_mixed<sanitizer_abort_steal>();
  ASSERT_FALSE(s.ok);
  expect_has(s.failure,
             "its stderr: \"SUMMARY: AddressSanitizer: double-free deque.hpp:52 in steal\"");
}

TEST(NativeFault, StressNamesSignalThreadAndOperation) {
  const result r = stress_mixed<crashing_steal>();
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "thief ");
  expect_has(r.failure, "during steal()");
  if (!sanitized) expect_has(r.failure, "crashed with SIGSEGV (Segmentation fault) in thief ");
}

TEST(NativeFault, StressNamesTheStuckOperationAtTheDeadline) {
  const result r = stress_mixed<looping_pop>(/*deadline=*/2);
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "did not finish within 2 s");
  expect_has(r.failure, "owner stuck in pop(), after ");
}

// A killed run's time is the time it ran, not 0.
TEST(NativeFault, StressKilledRunReportsTheTimeItRan) {
  const result r = stress_mixed<looping_pop>(/*deadline=*/2);
  ASSERT_FALSE(r.ok);
  EXPECT_GE(r.seconds, 2.0);
}

// The drain stops one pop after the values ever pushed and names the first wrong value.
TEST(NativeFault, StressGarbageThenLoopIsReportedByTheFirstWrongValue) {
  const result r = stress_mixed<garbage_then_loops>(/*deadline=*/120, /*stall=*/20);
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "value 987654321 was never pushed (invented): owner ");
  expect_has(r.failure, "(judged as it returned)");
  EXPECT_EQ(r.failure.find("did not"), std::string::npos) << r.failure;  // not a timeout
}

// A value taken twice, then a pop that hangs: the report leads with the wrong result, judged as
// it returned, and then names the stuck operation.
TEST(NativeFault, StressReportsTheFirstWrongResultOfARunKilledLater) {
  const result r = stress_mixed<repeat_then_hangs>(/*deadline=*/60, /*stall=*/1);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.failure.find("value "), 0U) << r.failure;
  expect_has(r.failure,
             "taken twice: owner pop, then owner pop (judged as it returned); then an "
             "operation did not return within 1 s");
  expect_has(r.failure, "owner stuck in pop()");
}

TEST(NativeFault, StressStopsALoopingSteal) {
  const result r = stress_mixed<looping_steal>(/*deadline=*/60, /*stall=*/1);
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "an operation did not return within 1 s");
  expect_has(r.failure, "stuck in steal()");
}

// no_starvation fails a deque whose thieves never win, after the owner's slow phase (one
// push a millisecond) has given them the CPU; the correct deque passes the same run.
TEST(NativeFault, NoStarvationCatchesThievesThatNeverWin) {
  auto starve = [](auto tag) {
    return printed(run_isolated(
        [] { return run<decltype(tag)>(scenario_kind::no_starvation, small_config()); }, 120, 0));
  };
  EXPECT_TRUE(starve(variant_tag<correct>{}).ok);
  const result r = starve(variant_tag<starving_steal>{});
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "thief 1 never succeeded in ");
  expect_has(r.failure, "one a millisecond)");
}

// A child past the memory ceiling is killed and the operation it was in named.
TEST(NativeFault, StressStopsARunPastTheMemoryCeiling) {
  if (sanitized) GTEST_SKIP() << "the sanitizers' ceiling is 4 GB: release only";
  const result r = stress_mixed<allocating_push>(/*deadline=*/120, /*stall=*/60);
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "grew past 1024 MB resident");
  expect_has(r.failure, "owner stuck in push(");
}

// A run by time of a correct deque: its memory is the deque's and the ledger's window, however
// long it runs. Before the ledger forgot judged values, this run crossed the ceiling below in
// well under a second (16 bytes a take, several million takes a second).
TEST(NativeFault, StressByTimeOfACorrectDequeStaysUnderASmallCeiling) {
  constexpr std::uint64_t ceiling = std::uint64_t{sanitized ? 1024 : 64} << 20;
  for (scenario_kind s : {scenario_kind::resize, scenario_kind::mixed}) {
    config c = small_config();
    c.seconds = 3;
    const result r = printed(
        run_isolated([&] { return run<variant_tag<chase_lev_deque>>(s, c); }, 60, 20, ceiling));
    EXPECT_TRUE(r.ok) << scenario_name(s) << ": " << r.failure;
  }
}

// The same small ceiling still stops a deque that allocates in a loop.
TEST(NativeFault, StressSmallCeilingStopsAnAllocatingDeque) {
  const result r = printed(run_isolated(
      [] { return run<variant_tag<allocating_push>>(scenario_kind::mixed, small_config()); }, 120,
      60, std::uint64_t{sanitized ? 1024 : 64} << 20));
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, sanitized ? "grew past 1024 MB resident" : "grew past 64 MB resident");
  expect_has(r.failure, "owner stuck in push(");
}

// A run by time of a deque that keeps memory until it is destroyed goes on with fresh deques
// and passes under the small ceiling; without them it crossed it (4 KB a push).
TEST(NativeFault, StressByTimeRenewsADequeThatKeepsMemoryUntilDestroyed) {
  // ASan's quarantine keeps freed memory resident, and TSan's allocator returns it lazily: a
  // destroyed deque's memory does not leave the resident size there
  if (sanitized) GTEST_SKIP() << "release preset only (sanitizer allocators keep freed memory)";
  config c = small_config();
  c.seconds = 3;
  const result r = printed(
      run_isolated([&] { return run<variant_tag<retaining_push>>(scenario_kind::mixed, c); }, 60,
                   20, std::uint64_t{64} << 20));
  EXPECT_TRUE(r.ok) << r.failure;
  EXPECT_GT(r.renewals, 0u);
}

// One that never frees it grows from deque to deque: the ceiling still stops it.
TEST(NativeFault, StressByTimeStillStopsADequeThatLeaks) {
  config c = small_config();
  c.seconds = 30;
  const result r =
      printed(run_isolated([&] { return run<variant_tag<leaking_push>>(scenario_kind::mixed, c); },
                           60, 20, std::uint64_t{sanitized ? 1024 : 64} << 20));
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, sanitized ? "grew past 1024 MB resident" : "grew past 64 MB resident");
}

// A machine that refuses fork(): the deque never runs in the calling process, where a deque
// that crashes or corrupts its heap would take stealcheck down with it (run in-process, this
// crashing deque ends the test binary); a refusal for want of resources is retried.
pid_t refusing_fork() {
  errno = EPERM;
  return -1;
}

int refusals_left = 0;
pid_t fork_after_refusals() {
  if (refusals_left-- > 0) {
    errno = EAGAIN;
    return -1;
  }
  return ::fork();
}

TEST(NativeFault, ARefusedForkRunsNothingInProcess) {
  detail::fork_process = refusing_fork;
  std::string error;
  try {
    stress_mixed<crashing_steal>();
  } catch (const harness::environment_error& e) {
    error = e.what();
  }
  detail::fork_process = ::fork;
  expect_has(error, "fork() failed: Operation not permitted; not run");
}

TEST(NativeFault, AForkRefusedForAMomentIsRetried) {
  detail::fork_process = fork_after_refusals;
  refusals_left = 2;
  const result r = stress_mixed<crashing_steal>();
  detail::fork_process = ::fork;
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "during steal()");
  EXPECT_EQ(refusals_left, -1);  // two refused, the third forked
}

TEST(NativeFault, StressStopsAStalledRun) {
  const result r = stress_mixed<looping_pop>(/*deadline=*/60, /*stall=*/1);
  ASSERT_FALSE(r.ok);
  expect_has(r.failure, "an operation did not return within 1 s");
  expect_has(r.failure, "owner stuck in pop()");
}

template <template <class, class> class D>
lincheck::outcome lincheck_native() {
  lincheck::run_options o;
  o.scenarios = 20;
  o.runs = 5;
  o.seed = 3;
  std::uint64_t count = 0;
  return printed(lincheck::check_generated_isolated(
      "fault", o,
      lincheck::native_finder<variant_tag<D>>(spec::spec_kind::lifo_owner, o.runs, true, &count),
      &count,
      /*deadline_seconds=*/60, /*stall_seconds=*/1));
}

TEST(NativeFault, LincheckCorrectDequePasses) {
  const lincheck::outcome out = lincheck_native<correct>();
  EXPECT_EQ(out.kind, lincheck::verdict::linearizable) << out.failure;
}

TEST(NativeFault, LincheckNamesExceptionAndShrinks) {
  const lincheck::outcome out = lincheck_native<throwing_pop>();
  // not "RapidCheck reported an error or gave up"
  ASSERT_EQ(out.kind, lincheck::verdict::operation_threw) << out.failure;
  expect_has(out.failure, "threw std::bad_alloc: std::bad_alloc in owner during pop()");
  expect_has(out.failure, "; scenario ");
  EXPECT_NE(out.reproduce.find("reproduce="), std::string::npos) << out.reproduce;
}

// A crash or a hang ends the child: no verdict, the report names the scenario.
void expect_crashed(const lincheck::outcome& out, const std::string& what,
                    const std::string& where) {
  ASSERT_EQ(out.kind, lincheck::verdict::crashed) << out.failure;
  if (!what.empty()) expect_has(out.failure, what);
  expect_has(out.failure, where);
  expect_has(out.failure, "; scenario ");
}

TEST(NativeFault, LincheckNamesSignalThreadAndOperation) {
  expect_crashed(lincheck_native<crashing_steal>(), sanitized ? "" : "crashed with SIGSEGV",
                 "thief 1 during steal()");
}

TEST(NativeFault, LincheckStopsAHungOperation) {
  expect_crashed(lincheck_native<looping_pop>(), "an operation did not return within 1 s",
                 "owner stuck in pop()");
}

TEST(NativeFault, LincheckStopsAHungSteal) {
  expect_crashed(lincheck_native<looping_steal>(), "an operation did not return within 1 s",
                 "stuck in steal()");
}

// The drain is bounded: a pop that never reports empty gives a non-linearizable history naming
// the value, shrunk, in seconds (before, the drain grew its log until the deadline).
TEST(NativeFault, LincheckGarbageThenLoopIsNotLinearizable) {
  const lincheck::outcome out = lincheck_native<garbage_then_loops>();
  ASSERT_EQ(out.kind, lincheck::verdict::not_linearizable) << out.failure;
  expect_has(out.timeline, "987654321");
}

}  // namespace
}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
