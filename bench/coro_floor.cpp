// bench/coro_floor.cpp: what a coroutine call costs before any scheduling, on fib(n) without
// cutoff, in ns per task (a task is a call with n >= 2, fib(n + 1) - 1 of them, as
// `stealcheck bench` counts), three ways in one process:
//   call        bench::fib on the serial policy: the plain recursive call (the `serial` row);
//   bare        the least a C++20 coroutine can do for the same recursion: one frame per call
//               from a LIFO bump stack, a parent handle and a result pointer in the promise,
//               symmetric transfer in and out; no join counter, exception slot or deque;
//   coro_task   stealcheck's coroutine type run serially (scheduler/coro_serial.hpp: the
//               `coro-serial` row, the floor under every continuation-stealing row).
// bare/call is what the compiler's lowering of a coroutine call costs; coro_task/bare is what
// stealcheck's coroutine type (frame arena, join and exception state) adds on top.
// Run:
//   cmake --build build/release --target coro_floor_bench && build/release/bench/coro_floor_bench
// Every result is checked against bench::fib_number; the exit code is 1 if one is wrong. Never
// pass/fail on time.
#include <benchmark/benchmark.h>

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>

#include "bench/coro_kernels.hpp"
#include "bench/kernels.hpp"
#include "scheduler/coro_serial.hpp"

namespace {

using namespace stealcheck;

constexpr int fib_n = 27;
bool wrong_result = false;

// fib(n + 1) - 1 tasks; the rate counter, inverted, is the time per task (printed with its SI
// prefix: 19.3ns).
void report(benchmark::State& st, std::uint64_t result) {
  if (result != bench::fib_number(fib_n)) {
    wrong_result = true;
    st.SkipWithError("wrong fib result");
  }
  st.counters["per_task"] = benchmark::Counter(
      static_cast<double>(bench::fib_number(fib_n + 1) - 1),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

namespace bare {

// Frames come from a per-thread stack: a coroutine's frame is freed (at its final suspend)
// before its caller allocates the next one, so allocation is a bump and freeing a reset.
thread_local std::byte* stack_top = nullptr;

struct task {
  struct promise_type {
    std::coroutine_handle<> parent;
    std::uint64_t* out = nullptr;

    static void* operator new(std::size_t n) {
      std::byte* p = stack_top;
      stack_top += (n + 15) & ~std::size_t{15};
      return p;
    }
    static void operator delete(void* p, std::size_t /*n*/) noexcept {
      stack_top = static_cast<std::byte*>(p);
    }
    task get_return_object() noexcept {
      return task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> self) noexcept {
        const std::coroutine_handle<> p = self.promise().parent;
        self.destroy();
        return p;
      }
      void await_resume() noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(std::uint64_t v) noexcept { *out = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };

  std::coroutine_handle<promise_type> h;
};

// co_await call(x, child): runs child now, this coroutine resumes when it returned.
struct call {
  task child;
  std::uint64_t* out = nullptr;
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> parent) noexcept {
    child.h.promise().parent = parent;
    child.h.promise().out = out;
    return child.h;
  }
  void await_resume() noexcept {}
};

task fib(int n) {
  if (n < 2) co_return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0, y = 0;
  co_await call{fib(n - 1), &x};
  co_await call{fib(n - 2), &y};
  co_return x + y;
}

std::uint64_t run(int n) {
  auto stack = std::make_unique<std::byte[]>(std::size_t{1} << 20);  // 64 levels of ~256 bytes
  stack_top = stack.get();
  std::uint64_t v = 0;
  task t = fib(n);
  t.h.promise().parent = std::noop_coroutine();
  t.h.promise().out = &v;
  t.h.resume();  // returns when the outermost frame transferred to the noop coroutine
  return v;
}

}  // namespace bare

void BM_fib_call(benchmark::State& st) {
  bench::serial_rt rt;
  std::uint64_t v = 0;
  for (auto _ : st)
    benchmark::DoNotOptimize(v = bench::fib(rt, fib_n));
  report(st, v);
}

void BM_fib_bare_coroutine(benchmark::State& st) {
  if constexpr (!STEALCHECK_CORO_SYMMETRIC_TRANSFER) {
    // Without tail calls every transfer would grow the native stack (scheduler/coro_task.hpp).
    st.SkipWithError("needs an optimized build with sibling calls (the release preset)");
    return;
  }
  std::uint64_t v = 0;
  for (auto _ : st)
    benchmark::DoNotOptimize(v = bare::run(fib_n));
  report(st, v);
}

void BM_fib_coro_task(benchmark::State& st) {
  std::uint64_t v = 0;
  for (auto _ : st)
    benchmark::DoNotOptimize(v = scheduler::coro_serial::run(
                                 [] { return bench::coro_fib<scheduler::coro_serial>(fib_n); }));
  report(st, v);
}

BENCHMARK(BM_fib_call)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fib_bare_coroutine)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fib_coro_task)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (wrong_result) std::fprintf(stderr, "coro_floor_bench: a fib result was wrong\n");
  return wrong_result ? 1 : 0;
}
// SPDX-License-Identifier: Apache-2.0
