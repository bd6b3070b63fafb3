// models/runtime/fibers.cpp: the model threads' fibers (see runtime.hpp): stacks with guard pages,
// reused across runs; every switch between the explorer and a fiber, annotated for
// AddressSanitizer and ThreadSanitizer; starting, parking, spawning and tearing down threads.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/runtime/runtime.hpp"
#include "stealcheck/detail/models/runtime/watchdog.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define STEALCHECK_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define STEALCHECK_TSAN 1
#endif

namespace stealcheck::model::detail {

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t default_stack = std::size_t{1} << 20;
#else
constexpr std::size_t default_stack = std::size_t{256} << 10;
#endif

// Recycles fiber stacks across runs (each run creates fresh fibers). Each stack has an
// inaccessible guard region below it (stack_guard_bytes), so that a model thread that
// overflows its stack faults there (reported by crash.cpp) instead of overwriting other
// memory. The pool holds the usable bases; ~execution unmaps them with their guards.
class pool_stack {
 public:
  pool_stack(std::vector<void*>* pool, std::size_t size, void** last)
      : pool_(pool), size_(size), last_(last) {}
  boost::context::stack_context allocate() {
    void* base = nullptr;
    if (!pool_->empty()) {
      base = pool_->back();
      pool_->pop_back();
    } else {
      const std::size_t guard = stack_guard_bytes();
      void* m = ::mmap(nullptr, guard + size_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      if (::mprotect(m, guard, PROT_NONE) != 0) {
        ::munmap(m, guard + size_);
        throw std::bad_alloc();
      }
      base = static_cast<char*>(m) + guard;
#if defined(STEALCHECK_ASAN)
      // the address range may have held an unmapped stack whose shadow is still poisoned
      __asan_unpoison_memory_region(base, size_);
#endif
    }
    *last_ = base;
    boost::context::stack_context sc;
    sc.size = size_;
    sc.sp = static_cast<char*>(base) + size_;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept {
    void* base = static_cast<char*>(sc.sp) - sc.size;
#if defined(STEALCHECK_ASAN)
    // frames that never returned (a thread abandoned mid-run, unwound or not) may leave their
    // scopes' poison behind; the next fiber on this stack would trip over it
    __asan_unpoison_memory_region(base, sc.size);
#endif
    pool_->push_back(base);
  }

 private:
  std::vector<void*>* pool_;
  std::size_t size_;
  void** last_;
};

}  // namespace

std::size_t stack_guard_bytes() noexcept {
  // 64 KiB, not one page: a frame larger than the guard could step over it (stack clash);
  // the guard is address space only
  static const std::size_t bytes =
      std::max(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)), std::size_t{64} << 10);
  return bytes;
}

execution::execution(run_config c, std::function<void()> main_body)
    : checker(c.model),
      cfg_(std::move(c)),
      stack_size_(default_stack),
      main_body_(std::move(main_body)) {}

execution::~execution() {
  teardown();
  for (void* p : stack_pool_)
    ::munmap(static_cast<char*>(p) - stack_guard_bytes(), stack_guard_bytes() + stack_size_);
}

// Every switch between the explorer (main) and a fiber goes through these two functions, so
// AddressSanitizer and ThreadSanitizer can be told about each stack change. Abandoned fibers
// are unwound by switching into them with `unwinding` set (post/park then throw
// unwind_request), not by Boost's forced unwinding, so that no switch is unannotated.
void execution::switch_to_fiber(std::size_t t) {
  model_thread& th = *threads[t];
#if defined(STEALCHECK_ASAN)
  __sanitizer_start_switch_fiber(&main_fake_, th.stack_base, th.stack_size);
#endif
#if defined(STEALCHECK_TSAN)
  if (tsan_main_ == nullptr) tsan_main_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(th.tsan_fiber, 0);
#endif
  const std::size_t prev = current_;
  current_ = t;
  if (watched_ != nullptr) {
    const event* last = last_event(t);
    watched_->resumed(t, last != nullptr ? static_cast<std::int32_t>(th.cursor) - 1 : -1, last);
  }
  th.fib = std::move(th.fib).resume();
  if (watched_ != nullptr) watched_->returned();
  current_ = prev;
#if defined(STEALCHECK_ASAN)
  __sanitizer_finish_switch_fiber(main_fake_, nullptr, nullptr);
#endif
#if defined(STEALCHECK_TSAN)
  if (th.finished && th.tsan_fiber != nullptr) {
    // a finished fiber returned here without switching ThreadSanitizer back (switch_to_main):
    // switch now, then destroy it
    __tsan_switch_to_fiber(tsan_main_, 0);
    __tsan_destroy_fiber(th.tsan_fiber);
    th.tsan_fiber = nullptr;
  }
#endif
}

void execution::switch_to_main(bool exiting, bool in_post) {
  model_thread& th = me();
#if defined(STEALCHECK_ASAN)
  __sanitizer_start_switch_fiber(exiting ? nullptr : &th.asan_fake, main_bottom_, main_size_);
#endif
#if defined(STEALCHECK_TSAN)
  // Not when exiting: the fiber's frames (this function's, its body lambda's) still return
  // before Boost switches, and each return would pop the explorer thread's shadow stack, not
  // the fiber's; switch_to_fiber switches once control is back there.
  if (!exiting) __tsan_switch_to_fiber(tsan_main_, 0);
#endif
  if (exiting) return;  // the caller returns the sink to Boost, which switches
  th.sink = std::move(th.sink).resume();
#if defined(STEALCHECK_ASAN)
  __sanitizer_finish_switch_fiber(th.asan_fake, &main_bottom_, &main_size_);
#endif
  if (!th.unwinding) return;
  if (in_post) {
    th.unwind_due = true;  // see unwind_if_due
    return;
  }
  throw unwind_request{};
}

void execution::start_fiber(std::size_t t) {
  model_thread& th = *threads[t];
  th.started = true;
#if defined(STEALCHECK_TSAN)
  // Boost's constructor already runs on the new stack (its entry function starts, then jumps
  // back to wait for the first resume): under ThreadSanitizer that frame belongs to the new
  // fiber, not to the explorer thread, or each fiber leaves one frame on the explorer's shadow
  // stack (which then grows with every run until ThreadSanitizer runs out of it).
  if (tsan_main_ == nullptr) tsan_main_ = __tsan_get_current_fiber();
  th.tsan_fiber = __tsan_create_fiber(0);
  __tsan_switch_to_fiber(th.tsan_fiber, 0);
#endif
  th.fib = boost::context::fiber(
      std::allocator_arg, pool_stack(&stack_pool_, stack_size_, &last_stack_),
      [this, t](boost::context::fiber&& sink) {
        model_thread& self = *threads[t];
#if defined(STEALCHECK_ASAN)
        __sanitizer_finish_switch_fiber(nullptr, &main_bottom_, &main_size_);
#endif
        self.sink = std::move(sink);
        try {
          if (!self.unwinding) self.body();
        } catch (const unwind_request&) {
          // abandoned run: the stack is unwound, nothing to record
        } catch (const std::exception& ex) {
          if (!tearing_down_ && !error_)
            error_ = error_state{error_kind::exception,
                                 "thread " + std::to_string(t) + " threw: " + ex.what()};
        } catch (...) {
          if (!tearing_down_ && !error_)
            error_ = error_state{error_kind::exception,
                                 "thread " + std::to_string(t) + " threw a non-std exception"};
        }
        if (!tearing_down_ && !error_) record(event_kind::end, 0);
        self.finished = true;
        switch_to_main(true);
        return std::move(self.sink);
      });
#if defined(STEALCHECK_TSAN)
  __tsan_switch_to_fiber(tsan_main_, 0);
#endif
  th.stack_base = last_stack_;
  th.stack_size = stack_size_;
}

void execution::teardown() {
  tearing_down_ = true;
  for (std::size_t t = threads.size(); t-- > 0;) {
    model_thread& th = *threads[t];
    if (!th.started || th.finished) continue;
    th.unwinding = true;
    switch_to_fiber(t);  // throws unwind_request inside the fiber; it then finishes
  }
  current_ = 0;
  mem.give_back();
  recycle_threads();
  tearing_down_ = false;
}

// Called by teardown while `tearing_down` is set: a body's captured state is destroyed here,
// as when the threads themselves were destroyed (a capture's destructor may use the runtime).
void execution::recycle_threads() {
  for (auto& th : threads) {
    th->body = nullptr;
    spare_threads_.push_back(std::move(th));
  }
  threads.clear();
}

std::unique_ptr<model_thread> execution::fresh_thread() {
  if (spare_threads_.empty()) return std::make_unique<model_thread>();
  std::unique_ptr<model_thread> th = std::move(spare_threads_.back());
  spare_threads_.pop_back();
  *th = model_thread{};
  return th;
}

void execution::park() {
  // a fiber running on in teardown (unwind_if_due) that blocks or fails leaves here
  if (tearing_down_ && me().unwinding && std::uncaught_exceptions() == 0) {
    me().unwind_due = false;
    throw unwind_request{};
  }
  for (;;)
    switch_to_main(false);  // leaves only by unwind_request (teardown)
}

std::size_t execution::spawn(std::function<void()> body) {
  const std::size_t child = threads.size();
  if (child >= hb_clocks::width && !tearing_down_)
    fail(error_kind::assertion,
         "too many model threads (at most " + std::to_string(hb_clocks::width) + ")");
  threads.push_back(fresh_thread());
  threads[child]->body = std::move(body);
  if (tearing_down_) return child;
  const event_id id = record(event_kind::spawn, static_cast<std::uint32_t>(child));
  if (g.threads.size() <= child) {
    g.threads.resize(child + 1);
    g.info.resize(child + 1);
  }
  g.info[child].created_by = id;
  return child;
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
