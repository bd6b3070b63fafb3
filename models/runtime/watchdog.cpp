// models/runtime/watchdog.cpp: reports a model thread that runs on without any model operation (see
// watchdog.hpp).
//
// The event bound (options::max_events_per_thread) stops loops that make model operations; a
// loop that makes none (a walk over local copies of top and bottom that never meets its end)
// never returns to the explorer, and nothing inside the fiber can stop it. One background
// thread per process wakes once a second and looks at every exploring OS thread's slot: when
// its count of fiber switches has not moved for options::stall_seconds wakeups, it prints one
// error line and ends the process with exit code 2. Wakeups, not elapsed time, so a process
// stopped in a debugger is not reported; replays (--replay, the debugger's use) are not
// watched at all.
//
// The thread runs only while some exploration holds a slot: it starts with the first and is
// joined when the last one ends. So a process that explores and then fork()s (the stress and
// native lincheck children of `verify`) forks with no thread of the model checker's: a child of
// a multi-threaded process may only call async-signal-safe functions (POSIX), and
// ThreadSanitizer kills one that starts threads.
#include "stealcheck/detail/models/runtime/watchdog.hpp"

#include <pthread.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stop_token>
#include <thread>

#include "stealcheck/detail/models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

namespace {

constexpr std::size_t max_slots = 64;  // exploring OS threads watched at once

class watchdog {
 public:
  progress_slot* acquire() {
    for (progress_slot& s : slots_) {
      bool expected = false;
      // acq_rel: pairs with release()'s store, so the previous user's writes to the slot
      // happen before ours; relaxed would let two explorations share a slot's fields
      if (s.used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
        const std::lock_guard lock(users_mutex_);
        if (users_++ == 0) {
          thread_ = std::jthread([this](const std::stop_token& st) { loop(st); });
          ::pthread_setname_np(thread_.native_handle(), "stealcheck-dog");  // for ps and tests
        }
        return &s;
      }
    }
    return nullptr;  // more than max_slots explorations at once: the extra ones are unwatched
  }

  /// After the slot's `used` was cleared: the last user stops and joins the thread.
  void left() {
    const std::lock_guard lock(users_mutex_);
    if (--users_ != 0) return;
    thread_.request_stop();  // wakes the wait in loop()
    thread_.join();
  }

  ~watchdog() {
    if (thread_.joinable()) thread_.request_stop();  // ~jthread joins
  }

 private:
  void loop(const std::stop_token& st) {
    std::array<std::uint64_t, max_slots> seen{};
    std::array<std::uint32_t, max_slots> idle{};
    std::mutex m;
    std::unique_lock lock(m);
    while (!st.stop_requested()) {
      wake_.wait_for(lock, st, std::chrono::seconds(1), [] { return false; });
      if (st.stop_requested()) return;
      for (std::size_t k = 0; k < max_slots; ++k) {
        progress_slot& s = slots_[k];
        // acquire: pairs with the explorer's release store of `active`, after which the
        // slot's limit is set; relaxed could see the slot active with the previous limit
        if (!s.active.load(std::memory_order_acquire)) {
          idle[k] = 0;
          continue;
        }
        // acquire: pairs with the release store in progress_slot::bump, so the thread, event
        // and source fields read in report() are those of the last resume at least
        const std::uint64_t now = s.switches.load(std::memory_order_acquire);
        if (now != seen[k]) {
          seen[k] = now;
          idle[k] = 0;
          continue;
        }
        // relaxed: stored before `active`'s release store, which the acquire load above saw
        const std::uint32_t limit = s.stall_seconds.load(std::memory_order_relaxed);
        if (limit != 0 && ++idle[k] >= limit) report(s, now, limit);
      }
    }
  }

  [[noreturn]] static void report(const progress_slot& s, std::uint64_t switches,
                                  std::uint32_t limit) {
    // relaxed: ordered after the resume's stores by the acquire load of `switches` in loop()
    const std::uint64_t w = s.where.load(std::memory_order_relaxed);
    const char* file = s.file.load(std::memory_order_relaxed);
    const std::uint32_t t = progress_slot::where_thread(w);
    const std::int32_t i = progress_slot::where_index(w);
    const std::uint32_t line = progress_slot::where_line(w);
    if (switches % 2 == 0) {  // even: the explorer runs, not a fiber
      std::fprintf(stderr,
                   "stealcheck: error: the explorer has been busy for %u s in one step (its "
                   "consistency or hb-linearizability checks, or an options::on_complete "
                   "callback); no verdict for this client\n",
                   limit);
    } else if (i < 0) {
      std::fprintf(stderr,
                   "stealcheck: error: model thread %u has run for %u s since it started "
                   "without a model memory operation: an endless loop outside model::memory (the "
                   "event bound counts only model operations); no verdict for this client\n",
                   t, limit);
    } else {
      std::fprintf(stderr,
                   "stealcheck: error: model thread %u has run for %u s without a model memory "
                   "operation since it resumed after its event (%u, %d) at %s:%u: an endless "
                   "loop outside model::memory (the event bound counts only model operations); "
                   "no verdict for this client\n",
                   t, limit, t, i, file != nullptr ? file : "?", line);
    }
    std::fflush(stderr);
    std::fflush(stdout);  // the summaries of the clients that did finish
    std::_Exit(2);
  }

  std::array<progress_slot, max_slots> slots_;
  std::condition_variable_any wake_;  // only ever woken by the stop request
  std::mutex users_mutex_;            // guards users_ and the thread's start and join
  unsigned users_ = 0;                // slots held
  std::jthread thread_;               // running while users_ > 0
};

watchdog& dog() {
  static watchdog w;
  return w;
}

}  // namespace

progress_slot* acquire_progress_slot(std::uint32_t stall_seconds) {
  progress_slot* s = dog().acquire();
  if (s == nullptr) return nullptr;
  s->stall_seconds.store(stall_seconds, std::memory_order_relaxed);  // published by `active`
  // release: the watchdog's acquire load of `active` then sees the limit stored above;
  // relaxed could let it judge this exploration by the previous user's limit
  s->active.store(true, std::memory_order_release);
  return s;
}

void release_progress_slot(progress_slot* s) {
  if (s == nullptr) return;
  // relaxed: the watchdog only stops looking at the slot; nothing is published by it
  s->active.store(false, std::memory_order_relaxed);
  // release: pairs with acquire()'s CAS, so the next user sees this one's writes done
  s->used.store(false, std::memory_order_release);
  dog().left();
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
