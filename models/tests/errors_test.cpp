// Every error kind the backend reports, each with a bad input beside a good one, and replay of
// the failing execution.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace stealcheck::model {
namespace {

using mem = memory;
constexpr auto rlx = std::memory_order_relaxed;
constexpr auto rel = std::memory_order_release;
constexpr auto acq = std::memory_order_acquire;

void expect_replays(const options& o, const std::function<void(client&)>& body, const result& r) {
  options again = o;
  again.replay = r.bug->replay_token;
  const result rr = explore(again, body);
  ASSERT_FALSE(rr.ok()) << "replay of " << r.bug->replay_token << " found no bug";
  EXPECT_EQ(rr.bug->kind, r.bug->kind);
  EXPECT_EQ(rr.bug->replay_token, r.bug->replay_token);
}

// Message passing through a non-atomic payload: a data race unless the flag is release/acquire.
std::function<void(client&)> mp_nonatomic(std::memory_order w, std::memory_order r) {
  return [=](client& c) {
    mem::nonatomic<int> data(0);
    mem::atomic<int> flag{0};
    c.spawn([&] {
      data.write() = 42;
      flag.store(1, w);
    });
    c.spawn([&] {
      if (flag.load(r) == 1) c.check(data.read() == 42, "payload visible");
    });
    c.join_all();
  };
}

TEST(Errors, DataRaceOnNonatomic) {
  const auto bad = mp_nonatomic(rlx, rlx);
  const result r = explore(options{}, bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::data_race);
  EXPECT_NE(r.bug->message.find("data race"), std::string::npos);
  EXPECT_NE(r.bug->trace.find("Wna"), std::string::npos) << r.bug->trace;
  expect_replays(options{}, bad, r);
  const result good = explore(options{}, mp_nonatomic(rel, acq));
  EXPECT_TRUE(good.ok()) << good.bug->message << "\n" << good.bug->trace;
  EXPECT_EQ(good.complete, 2u);
}

// The exploration adds a store or fence without a choice in the fiber that makes it, as it
// does a load (explorer::add_choice_free), so a thread may run ahead of the
// others before the explorer picks the next thread. A bug found at once (here an assertion
// in the last thread) then sees those events, and the token replay must add them the same
// way to find the same execution: thread 1's writes are in both tokens.
TEST(Errors, ReplayAddsChoicelessStoresAndFencesAsTheExplorationDoes) {
  auto body = [](bool fence_first) {
    return [fence_first](client& c) {
      mem::atomic<int> x{0};
      c.spawn([&] {
        if (fence_first) mem::fence(std::memory_order_seq_cst);
        x.store(1, rlx);
        if (!fence_first) x.store(2, rlx);
      });
      c.spawn([&] { c.check(false, "stop here"); });
      c.join_all();
    };
  };
  for (const bool fence_first : {false, true}) {
    const result r = explore(options{}, body(fence_first));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.bug->kind, error_kind::assertion) << r.bug->message;
    EXPECT_EQ(r.bug->replay_token, fence_first ? "v1;;m1;" : "v1;;m1,m2;") << r.bug->trace;
    expect_replays(options{}, body(fence_first), r);
  }
}

TEST(Errors, UseAfterFreeOfAModelAtomic) {
  // The owner frees a node that a reader may still load through a stale pointer.
  auto body = [](bool wait) {
    return [wait](client& c) {
      using node = mem::atomic<int>;
      mem::atomic<node*> head{mem::create<node>(7)};
      mem::atomic<int> done{0};
      c.spawn([&] {
        node* n = head.load(acq);
        if (n != nullptr) (void)n->load(rlx);
        done.store(1, rel);
      });
      if (wait) spin_assume(done.load(acq) == 1);
      node* n = head.exchange(nullptr, std::memory_order_acq_rel);
      mem::destroy(n);
      c.join_all();
    };
  };
  const result r = explore(options{}, body(false));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::use_after_free) << r.bug->message;
  // The message names the free ("after it was freed at (t, i)" when the access comes after
  // it, "is not ordered before the free at (t, i)" when the end-of-execution check finds
  // it), which the trace lists as a free event: its id was kept right when the free was
  // matched in a re-execution, not only when it was new.
  const std::size_t at = r.bug->message.find(" at (", r.bug->message.find("free"));
  ASSERT_NE(at, std::string::npos) << r.bug->message;
  const std::string freed = r.bug->message.substr(at + 4, r.bug->message.find(')', at) - at - 3);
  EXPECT_NE(r.bug->trace.find(freed + " free"), std::string::npos)
      << freed << " is not the free in\n"
      << r.bug->trace;
  expect_replays(options{}, body(false), r);
  const result good = explore(options{}, body(true));
  EXPECT_TRUE(good.ok()) << good.bug->message << "\n" << good.bug->trace;
  EXPECT_GT(good.blocked, 0u);  // executions where the owner does not see done == 1
}

// An access recorded before the free but not hb-before it: only the end-of-execution check
// can see it (the owner frees only after reading the reader's flag, so no access comes
// after the free). A relaxed flag leaves the access unordered; release/acquire orders it.
TEST(Errors, AccessRecordedBeforeTheFreeButNotOrderedBeforeIt) {
  auto body = [](std::memory_order w, std::memory_order r) {
    return [=](client& c) {
      using node = mem::atomic<int>;
      node* n = mem::create<node>(7);
      mem::atomic<int> done{0};
      c.spawn([&, n] {
        (void)n->load(rlx);
        done.store(1, w);
      });
      spin_assume(done.load(r) == 1);
      mem::destroy(n);
      c.join_all();
    };
  };
  const result bad = explore(options{}, body(rlx, rlx));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.bug->kind, error_kind::use_after_free) << bad.bug->message;
  EXPECT_NE(bad.bug->message.find("is not ordered before the free"), std::string::npos)
      << bad.bug->message;
  // the cause: the access and the free, and the flag that would order them if it synchronized
  const std::string& t = bad.bug->trace;
  EXPECT_NE(t.find("cause: thread 1's relaxed read of "), std::string::npos) << t;
  EXPECT_NE(t.find("'s free "), std::string::npos) << t;
  EXPECT_NE(t.find("are not ordered by happens-before"), std::string::npos) << t;
  EXPECT_NE(t.find("is not a release"), std::string::npos) << t;
  EXPECT_NE(t.find("is not an acquire"), std::string::npos) << t;
  expect_replays(options{}, body(rlx, rlx), bad);
  const result good = explore(options{}, body(rel, acq));
  EXPECT_TRUE(good.ok()) << good.bug->message << "\n" << good.bug->trace;
  EXPECT_EQ(good.complete, 1u);
  EXPECT_EQ(good.blocked, 1u);  // the owner reads done == 0
}

// A client's own heap object holding a model atomic (a thief's own deque made with plain
// new) dies, and the heap gives its memory to a model allocation made later in the run, which
// is freed: the dead object's location is not the allocation's, so its store, which no
// happens-before orders before the free, is no use-after-free.
TEST(Errors, AFreeDoesNotClaimADeadObjectWhoseMemoryTheAllocationReuses) {
  struct cell {  // a size the model runtime's own allocations do not have
    mem::atomic<int> a{0};
    char pad[1000] = {};
  };
  const void* dead = nullptr;
  bool reused = false;  // in some run, the allocation got the dead object's memory
  const result r = explore(options{}, [&](client& c) {
    mem::atomic<int> done{0};
    c.spawn([&] {
      auto mine = std::make_unique<cell>();
      mine->a.store(1, rlx);
      dead = mine.get();
      mine.reset();
      done.store(1, rlx);
    });
    spin_assume(done.load(rlx) == 1);
    cell* n = mem::create<cell>();
    reused = reused || n == dead;
    mem::destroy(n);
    c.join_all();
  });
  if (!reused)  // a sanitizer's allocator keeps freed memory back
    GTEST_SKIP() << "the heap did not give the dead object's memory to the allocation";
  EXPECT_TRUE(r.ok()) << r.bug->message << "\n" << r.bug->trace;
  EXPECT_EQ(r.complete, 1u);
}

TEST(Errors, DoubleFreeAndLeak) {
  const result df = explore(options{}, [](client&) {
    int* p = mem::create<int>(1);
    mem::destroy(p);
    mem::destroy(p);
  });
  ASSERT_FALSE(df.ok());
  EXPECT_EQ(df.bug->kind, error_kind::double_free);
  const result leak = explore(options{}, [](client&) { (void)mem::create<int>(1); });
  ASSERT_FALSE(leak.ok());
  EXPECT_EQ(leak.bug->kind, error_kind::leak);
  const result fine = explore(options{}, [](client&) { mem::destroy(mem::create<int>(1)); });
  EXPECT_TRUE(fine.ok());
  EXPECT_EQ(fine.complete, 1u);
}

TEST(Errors, SpinLoopThatNeverEndsIsReportedWithThreadAndBound) {
  options o;
  o.max_events_per_thread = 50;
  auto body = [](bool set) {
    return [set](client& c) {
      mem::atomic<int> flag{0};
      c.spawn([&] {
        while (flag.load(acq) == 0) {
        }
      });
      if (set) flag.store(1, rel);
      c.join_all();
    };
  };
  const result r = explore(o, body(false));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::bound_exceeded);
  EXPECT_NE(r.bug->message.find("thread 1"), std::string::npos) << r.bug->message;
  EXPECT_NE(r.bug->message.find("50"), std::string::npos) << r.bug->message;
  EXPECT_EQ(r.complete, 0u);
  EXPECT_EQ(r.blocked, 1u);
  // With the store, each bounded spin is counted as blocked, never dropped, and the
  // executions where the loop sees the flag complete.
  const result ok = explore(o, body(true));
  EXPECT_TRUE(ok.ok()) << ok.bug->message;
  EXPECT_GT(ok.complete, 0u);
  EXPECT_EQ(ok.blocked, ok.bound_hits);
  EXPECT_EQ(ok.blocked_assume + ok.blocked_mutex, 0u);  // each was cut by the bound
  EXPECT_GT(ok.blocked, 0u);
  EXPECT_NE(ok.blocked_note.find("thread 1"), std::string::npos);
  // the cut execution is reported as a bug would be: the loop's source line, its events
  ASSERT_TRUE(ok.first_bound.has_value());
  EXPECT_EQ(ok.first_bound->kind, error_kind::bound_exceeded);
  EXPECT_NE(ok.first_bound->trace.find("thread 1 repeats"), std::string::npos)
      << ok.first_bound->trace;
  EXPECT_NE(ok.first_bound->trace.find("errors_test.cpp:"), std::string::npos)
      << ok.first_bound->trace;
  EXPECT_NE(r.bug->trace.find("block (event bound reached)"), std::string::npos) << r.bug->trace;
}

// A thread cut at the bound is re-executed up to its recorded block event, which the replay
// meets there (it used to report a nondeterminism: the replay tried to commit the operation
// the thread posts at the bound against the block event).
TEST(Errors, ReexecutionOfAThreadCutAtTheBoundMeetsItsBlockEvent) {
  options o;
  o.max_events_per_thread = 20;
  const result r = explore(o, clients::push2_pop_steal2<stealcheck::detail::chase_lev_default>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::bound_exceeded) << r.bug->message;
  EXPECT_GT(r.bound_hits, 1u);
}

// A thread that reaches the event bound at a mutex unlock made by an RAII guard's destructor
// (a loop that takes a lock each round): the thread blocks there and, when the run is torn
// down, finishes the unlock and runs on to its next blocking operation; an unwind_request from
// the destructor would end the process in std::terminate. Every bound from 20 to 25 is tried,
// so that the bound falls on the unlock for at least one; each is reported as the loop it is,
// and with the flag set each bounded round is counted as blocked while the rest complete.
TEST(Errors, BoundReachedAtAnUnlockInADestructorBlocksThere) {
  auto body = [](bool set) {
    return [set](client& c) {
      mem::mutex m;
      mem::atomic<int> flag{0};
      c.spawn([&] {
        for (;;) {
          std::scoped_lock guard(m);
          if (flag.load(acq) == 1) break;
        }
      });
      if (set) flag.store(1, rel);
      c.join_all();
    };
  };
  for (std::uint32_t bound = 20; bound <= 25; ++bound) {
    options o;
    o.max_events_per_thread = bound;
    const result r = explore(o, body(false));
    ASSERT_FALSE(r.ok()) << "bound " << bound;
    EXPECT_EQ(r.bug->kind, error_kind::bound_exceeded) << r.bug->message;
    const result ok = explore(o, body(true));
    EXPECT_TRUE(ok.ok()) << "bound " << bound << ": " << ok.bug->message;
    EXPECT_GT(ok.complete, 0u);
    EXPECT_EQ(ok.blocked, ok.bound_hits);
    EXPECT_GT(ok.blocked, 0u);
  }
}

// A destructor that walks top..bottom with i != bottom, as steal_half's did. When the checker
// abandons a run (here: the execution where the owner blocks, torn down before the next one),
// it unwinds the owner's fiber, so the destructor runs on the run's state: the other thread
// set top past bottom, and the walk would take 2^16 steps (2^32 with 32-bit indices). Past
// 64 * max_events_per_thread operations while unwinding, the process prints one error line
// naming the thread and exits with code 2; walking by distance ends at once.
TEST(Errors, DestructorLoopingOverAnAbandonedRunIsReported) {
  // by_distance: the walk ends at once; na: each step is a non-atomic read, else an atomic load
  struct ring {
    bool by_distance, na;
    mem::atomic<std::uint16_t> top{0}, bottom{0};
    mem::nonatomic<int> cell{0};
    ~ring() {
      const std::uint16_t b = bottom.load(rlx);
      for (std::uint16_t i = top.load(rlx);
           by_distance ? static_cast<std::int16_t>(b - i) > 0 : i != b; ++i)
        (void)(na ? cell.read() : bottom.load(rlx));
    }
  };
  options o;
  o.max_events_per_thread = 50;  // a budget of 3,200 operations while unwinding
  auto body = [](bool by_distance, bool na) {
    return [by_distance, na](client& c) {
      ring r{by_distance, na};
      mem::atomic<int> go{0};
      const auto t = c.spawn([&] {
        r.top.store(1, rlx);
        go.store(1, rel);
      });
      spin_assume(go.load(acq) == 1);  // blocks (and is torn down) where it reads 0
      c.join(t);
      r.top.store(0, rlx);  // the run completes quiescent: top == bottom
    };
  };
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const bool na : {false, true}) {
    EXPECT_EXIT((void)explore(o, body(false, na)), ::testing::ExitedWithCode(2),
                "stealcheck: error: thread 0 did not finish unwinding within 3200 operations")
        << (na ? "non-atomic" : "atomic") << " steps";
    const result good = explore(o, body(true, na));
    EXPECT_TRUE(good.ok()) << good.bug->message;
    EXPECT_EQ(good.complete, 1u);
    EXPECT_EQ(good.blocked, 1u);
  }
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
// Recursion as deep as asked: 1 KiB of stack per level.
[[gnu::noinline]] int deep(int n) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(n);
  return n == 0 ? pad[0] : deep(n - 1) + pad[0];
}

// A model thread that crashes ends the process with one error line naming the thread, its last
// event and the cause, and exit code 2 (install_crash_report); the same client without the
// fault passes, and a crash outside an exploration is left to the previous handler. Not in
// sanitizer builds, whose own reports replace these handlers.
TEST(Errors, CrashOfAModelThreadIsOneErrorLineAndExitCode2) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  enum fault { none, bad_pointer, stack_overflow, abort_call, deep_but_fits };
  auto body = [](fault f) {
    return [f](client& c) {
      mem::atomic<int> flag{0};
      c.spawn([&] {
        (void)flag.load(acq);
        if (f == bad_pointer) {
          volatile std::uintptr_t bad = 16;
          *reinterpret_cast<volatile int*>(bad) = 1;  // NOLINT(performance-no-int-to-ptr)
        }
        if (f == stack_overflow) c.check(deep(1 << 20) != 7, "unreachable");
        if (f == deep_but_fits) c.check(deep(100) != 7, "100 KiB of the 256 KiB stack");
        if (f == abort_call) std::abort();
      });
      flag.store(1, rel);
      c.join_all();
    };
  };
  const std::string after =
      "after its event \\(1, [0-9]+\\) at .*errors_test\\.cpp:[0-9]+; no verdict";
  EXPECT_EXIT((void)explore(options{}, body(bad_pointer)), ::testing::ExitedWithCode(2),
              "stealcheck: error: model thread 1 crashed: SIGSEGV \\(invalid memory access at "
              "0x10\\) " +
                  after);
  EXPECT_EXIT((void)explore(options{}, body(stack_overflow)), ::testing::ExitedWithCode(2),
              "stealcheck: error: model thread 1 overflowed its fiber stack of [0-9]+ KiB \\(deep "
              "recursion in the code under test\\) " +
                  after);
  EXPECT_EXIT((void)explore(options{}, body(abort_call)), ::testing::ExitedWithCode(2),
              "stealcheck: error: model thread 1 crashed: SIGABRT .*" + after);
  for (const fault f : {none, deep_but_fits}) {
    const result ok = explore(options{}, body(f));
    EXPECT_TRUE(ok.ok()) << ok.bug->message;
    EXPECT_EQ(ok.complete, 2u);  // the load reads 0 or 1
  }
  options callback;  // runs on the explorer's own stack, not a model thread's
  callback.on_complete = [](const graph&, const consistency_checker&) { std::raise(SIGFPE); };
  EXPECT_EXIT((void)explore(callback, body(none)), ::testing::ExitedWithCode(2),
              "stealcheck: error: SIGFPE \\(arithmetic error, such as a division by zero\\) "
              "outside every model thread, in the checker or in an options::on_complete callback");
  EXPECT_EXIT(
      {
        (void)explore(options{}, body(none));
        std::raise(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV), "");
}
#endif

// The OS threads of this process named `name` (/proc/self/task/*/comm).
std::size_t os_threads_named(const std::string& name) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(e.path() / "comm");
    std::string line;
    if (std::getline(comm, line) && line == name) ++n;
  }
  return n;
}

// Between explorations the process runs no thread of the model checker's (the watchdog,
// "stealcheck-dog", runs only while one explores): a process that explores and then fork()s,
// as verify does for its stress and native lincheck children, forks single-threaded. Before,
// the watchdog's thread started with the first exploration and stayed; ThreadSanitizer then
// killed every child that started a thread ("starting new threads after multi-threaded fork is
// not supported").
TEST(Errors, NoCheckerThreadOutlivesAnExploration) {
  std::size_t during = 0;
  const result r = explore(options{}, [&](client& c) {
    mem::atomic<int> x{0};
    c.spawn([&] { x.store(1, rel); });
    (void)x.load(acq);
    c.join_all();
    during = std::max(during, os_threads_named("stealcheck-dog"));
  });
  EXPECT_EQ(r.complete, 2U);
  EXPECT_EQ(during, 1U);  // the watchdog watched the exploration
  EXPECT_EQ(os_threads_named("stealcheck-dog"), 0U);
}

// A loop that makes no model operation never returns to the explorer, so the event bound
// cannot stop it: the watchdog ends the process after options::stall_seconds with one error
// line naming the thread, and exit code 2. The same loop that ends passes.
TEST(Errors, EndlessLoopWithoutModelOperationsIsReportedByTheWatchdog) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  options o;
  o.stall_seconds = 1;
  auto body = [](bool endless) {
    return [endless](client& c) {
      mem::atomic<int> flag{0};
      c.spawn([&] {
        (void)flag.load(acq);
        volatile bool again = endless;
        volatile unsigned steps = 0;
        while (again || steps < 1000)  // local work only: no model operation
          steps = steps + 1;
      });
      flag.store(1, rel);
      c.join_all();
    };
  };
  EXPECT_EXIT((void)explore(o, body(true)), ::testing::ExitedWithCode(2),
              "stealcheck: error: model thread 1 has run for 1 s .*without a model memory "
              "operation.*an endless loop outside model::memory");
  const result ok = explore(o, body(false));
  EXPECT_TRUE(ok.ok()) << ok.bug->message;
  EXPECT_EQ(ok.complete, 2u);  // the load reads 0 or 1
  // An exploration that ends by an exception stops being watched: the process lives on
  // (a slot left watched would be reported as a stall within a second or two).
  options throwing = o;
  throwing.on_complete = [](const graph&, const consistency_checker&) {
    throw std::runtime_error("from on_complete");
  };
  EXPECT_EXIT(
      {
        try {
          (void)explore(throwing, body(false));
        } catch (const std::runtime_error&) {
          std::this_thread::sleep_for(std::chrono::seconds(3));
          std::exit(0);  // NOLINT(concurrency-mt-unsafe): the death test's child, one thread left
        }
        std::exit(1);  // NOLINT(concurrency-mt-unsafe): as above
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Errors, SpinAssumeBlocksInsteadOfSpinning) {
  const result r = explore(options{}, [](client& c) {
    mem::atomic<int> flag{0};
    c.spawn([&] { spin_assume(flag.load(acq) == 1); });
    flag.store(1, rel);
    c.join_all();
  });
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.complete, 1u);
  EXPECT_EQ(r.blocked, 1u);
  EXPECT_EQ(r.bound_hits, 0u);
  EXPECT_EQ(r.blocked_assume, 1u);
  EXPECT_EQ(r.blocked_mutex, 0u);
}

// atomic::wait blocks where it reads the value it waits on. With the change made, that is a
// blocked execution (the other one reads the change and completes); with no write that
// changes the value, it is a deadlock, named as a lost wake-up.
TEST(Errors, AtomicWaitBlocksAndALostWakeUpIsADeadlock) {
  const result r = explore(options{}, [](client& c) {
    mem::atomic<int> word{0};
    c.spawn([&] { word.wait(0, acq); });
    word.store(1, rel);
    word.notify_one();
    c.join_all();
  });
  EXPECT_TRUE(r.ok()) << r.bug->message;
  EXPECT_EQ(r.complete, 1u);
  EXPECT_EQ(r.blocked, 1u);
  EXPECT_EQ(r.blocked_assume, 1u);
  EXPECT_EQ(r.blocked_mutex, 0u);
  const result lost = explore(options{}, [](client& c) {
    mem::atomic<int> word{0};
    c.spawn([&] { word.wait(0, acq); });
    word.store(0, rel);  // no change of value: nothing wakes the waiter
    word.notify_all();
    c.join_all();
  });
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.bug->kind, error_kind::deadlock) << lost.bug->message;
  EXPECT_NE(lost.bug->message.find("lost wake-up"), std::string::npos) << lost.bug->message;
}

TEST(Errors, DeadlockAndMutexExclusion) {
  const result dl = explore(options{}, [](client& c) {
    mem::mutex a, b;
    c.spawn([&] {
      a.lock();
      b.lock();
      b.unlock();
      a.unlock();
    });
    c.spawn([&] {
      b.lock();
      a.lock();
      a.unlock();
      b.unlock();
    });
    c.join_all();
  });
  ASSERT_FALSE(dl.ok());
  EXPECT_EQ(dl.bug->kind, error_kind::deadlock) << dl.bug->message;
  const result ok = explore(options{}, [](client& c) {
    mem::mutex m;
    mem::nonatomic<int> counter(0);
    for (int k = 0; k < 2; ++k)
      c.spawn([&] {
        m.lock();
        counter.write() += 1;
        m.unlock();
      });
    c.join_all();
    c.check(counter.read() == 2, "both increments");
  });
  EXPECT_TRUE(ok.ok()) << ok.bug->message << "\n" << ok.bug->trace;
  EXPECT_EQ(ok.complete, 2u);
  // the executions where one thread's lock reads the mutex held by the other: blocked, by
  // the mutex (its lock reading the unlock is another execution)
  EXPECT_GT(ok.blocked, 0u);
  EXPECT_EQ(ok.blocked_mutex, ok.blocked);
}

TEST(Errors, ExceptionAndAssertion) {
  const result ex = explore(options{}, [](client& c) {
    c.spawn([] { throw std::runtime_error("boom"); });
    c.join_all();
  });
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.bug->kind, error_kind::exception);
  EXPECT_NE(ex.bug->message.find("boom"), std::string::npos);
  const result as = explore(options{}, [](client& c) { c.check(1 + 1 == 3, "arithmetic"); });
  ASSERT_FALSE(as.ok());
  EXPECT_EQ(as.bug->kind, error_kind::assertion);
  EXPECT_NE(as.bug->message.find("arithmetic"), std::string::npos);
}

TEST(Errors, WeakCasMayFailSpuriously) {
  int spurious = 0;
  const result r = explore(options{}, [&](client&) {
    mem::atomic<int> x{0};
    int e = 0;
    if (!x.compare_exchange_weak(e, 1, std::memory_order_relaxed, std::memory_order_relaxed))
      ++spurious;
  });
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.complete, 2u);  // success, and the explored spurious failure
  EXPECT_GE(spurious, 1);
}

TEST(Errors, OnlyTheMainThreadSpawns) {
  const result r = explore(options{}, [](client& c) {
    c.spawn([&c] { c.spawn([] {}); });
    c.join_all();
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.bug->message.find("main thread may spawn"), std::string::npos);
}

// A replay checks every forced choice against the memory model: the token of a bug that the
// correct deque does not have (its fence forbids the read the token forces) is bad_replay,
// never that bug; on the broken deque the same token still reproduces it.
TEST(Errors, StaleReplayTokenIsRejectedNotReplayedAsABug) {
  options o;
  const result broken = explore(o, clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  ASSERT_FALSE(broken.ok());
  o.replay = broken.bug->replay_token;
  const result again = explore(o, clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.bug->message, broken.bug->message);
  const result fixed = explore(o, clients::push2_pop_steal2<stealcheck::detail::chase_lev_default>);
  ASSERT_FALSE(fixed.ok());
  EXPECT_EQ(fixed.bug->kind, error_kind::bad_replay) << fixed.bug->message;
  EXPECT_NE(fixed.bug->message.find("is not allowed by rc11"), std::string::npos)
      << fixed.bug->message;
}

TEST(Errors, MalformedReplayToken) {
  options o;
  o.replay = "not-a-token";
  const result r = explore(o, [](client&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::bad_replay);
}

}  // namespace
}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
