// scheduler/coro_serial.hpp: the serial execution of a fork-join coroutine program
// (scheduler/coro_task.hpp) on the calling thread: every fork runs as a call (push always
// fails), so the program runs in exactly its depth-first serial order with no deque and no
// thread. Its peak of live frames is S1, the serial space that the continuation-stealing pool's
// P*S1 bound refers to (scheduler/coro_pool.hpp).
//
// Thread role: run() on any thread, which runs the whole program before run() returns.
// Returns: the outermost coroutine's result; its exception is rethrown.
// Complexity: the program's work, plus one frame allocation per coroutine call.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "scheduler/coro_task.hpp"
#include "scheduler/frame_arena.hpp"

namespace stealcheck::scheduler {

struct coro_serial {
  template <class T>
  using task_type = coro_task<T, coro_serial>;

  static constexpr bool wait_for_stolen = true;
  // Every fork runs as a call. Out of line so that the forked frame escapes, as it does into a
  // pool's deque: otherwise clang (19) elides the frames of forks it sees run as calls into
  // their parents', and S1 would count fewer frames than the same program allocates in a pool.
  [[gnu::noinline]] static bool push(task* /*t*/) noexcept { return false; }
  static task* pop() noexcept { return nullptr; }  // never called: nothing is pushed
  static void unpop(task* /*t*/) noexcept {}
  static void* allocate(std::size_t n) { return frame_arena::allocate(arena, n); }
  static void deallocate(void* p, std::size_t /*n*/) noexcept { frame_arena::deallocate(arena, p); }
  static void root_done(frame_base* /*record*/) noexcept {}

  /// Runs the coroutine f() returns to completion on this thread. If `peak_frames` is not
  /// null, stores the peak number of live frames (S1) there.
  /// Requires: f() returns coro_task<T, coro_serial>, T void or default-constructible.
  template <class F>
  static auto run(F&& f, std::int64_t* peak_frames = nullptr) {
    using T = typename std::invoke_result_t<F&>::value_type;
    frame_arena frames;
    frame_arena* const outer = std::exchange(arena, &frames);
    frame_base record;
    std::conditional_t<std::is_void_v<T>, char, T> value{};
    try {
      resume_chain(start_root<T, coro_serial>(f(), record, &value));
    } catch (...) {
      arena = outer;
      throw;
    }
    arena = outer;
    if (peak_frames != nullptr) *peak_frames = frames.peak();
    if (record.error) std::rethrow_exception(record.error);
    if constexpr (!std::is_void_v<T>) return value;
  }

  static inline thread_local frame_arena* arena = nullptr;
};

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
