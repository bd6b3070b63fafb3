// scheduler/coro_task.hpp: fork-join coroutines with continuation stealing (work-first, as in
// Cilk-5 and libfork): the coroutine type coro_task<T, C>, and the awaitables fork, call, join.
//
//   coro_task<std::uint64_t, C> fib(int n) {
//     if (n < 2) co_return n;
//     std::uint64_t x = 0, y = 0;
//     co_await fork(x, fib<C>(n - 1));   // pushes this coroutine's continuation, runs the child
//     co_await call(y, fib<C>(n - 2));   // runs the child; nothing is pushed
//     co_await join();                   // waits for stolen children; rethrows their exception
//     co_return x + y;
//   }
//
// Protocol. `co_await fork(x, child)` pushes the *parent's* frame (its continuation: a task
// whose execute resumes it) on the bottom of the running worker's deque and transfers control to
// the child (symmetric transfer or the trampoline below: no native stack growth). When the child
// returns (final_suspend) the worker pops: if it gets the parent back, nobody stole it and the
// parent resumes on this worker (the fast path: no allocation but the child's frame, which comes
// from the worker's frame_arena, and no atomic read-modify-write). If the pop comes back empty, a
// thief took the continuation; the child then decrements the parent's join counter. The parent
// counts how often it was stolen (`steals`, incremented by each thief that resumes it, scheduler
// code only); `co_await join()` is free when steals == 0 and otherwise subtracts (no_join - steals)
// from the counter: the counter reaches 0 exactly when the join has arrived and every child whose
// continuation was stolen has finished, and whichever of them brings it to 0 resumes the parent.
// Because deques are stolen from the top (oldest first), a worker whose pop in final_suspend does
// not return the parent holds no continuation newer than it: its deque is empty, or (batch-stealing
// deques) holds continuations a steal_into left there, older than the parent; it returns to its
// scheduling loop, which runs them.
//
// Context C (scheduler/coro_pool.hpp, scheduler/coro_serial.hpp) gives the coroutines their
// worker: static push(task*) -> bool (false: a bounded deque is full; the fork then runs as a
// call), pop() -> task* (null: empty), unpop(task*) (pushes back what pop() returned, uncounted),
// allocate(n) / deallocate(p, n) (frames), root_done(frame_base*) (the outermost coroutine
// finished), and `wait_for_stolen` (false only in the known-bad policy, scheduler/known_bad.hpp).
//
// Thread role: a coroutine runs on the pool's workers, possibly on another worker after each
// fork (its continuation may be stolen). Requires: a coroutine that forked or called
// co_awaits join() before it reads the children's results and before it returns; no exception
// escapes it between a fork and that join (its children still write into its frame).
// Returns: each child's co_return value is assigned to the x given to fork/call.
// Errors: an exception thrown by a child (forked or called) is kept in the parent's frame (the
// first one wins) and rethrown by the parent's next join(); the outermost coroutine's reaches
// the caller of run().
// Memory ordering: for any threads X (running a child) and Y (running its parent after join()):
// X's writes before the child returns (its result, its exception) happen-before Y's code after
// join(). Unstolen, X = Y. Stolen, X's acq_rel decrement of `joins` is read, directly or through
// the release sequence of RMWs, by the acq_rel RMW that brings it to 0 (the join's or the last
// child's), after which Y runs. A thief sees the parent's writes before the fork through the
// deque (push's release, steal's acquire). Each site's comment names its partner.
// Complexity: fork = one frame allocation (free-list pop) + one deque push + one pop; join O(1);
// a stolen continuation costs one RMW per stolen child and one at the join.
// Source: Frigo, Leiserson, Randall, "The Implementation of the Cilk-5 Multithreaded Language",
// PLDI 1998 (work-first principle, sections 3-5; the THE protocol's pop of the parent frame);
// Blumofe, Leiserson, JACM 46(5) 1999 (space P*S1 and O(P*T_inf) steal attempts for such
// busy-leaves, work-first execution); libfork (C. Williams; its join counter that starts at a
// large constant and subtracts the steal count at the join), read, not copied.
#pragma once

#include <atomic>
#include <cassert>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "scheduler/task.hpp"

// clang before 19 can move a write to a coroutine frame past the call of await_suspend, after
// which a thief may already run that coroutine (llvm-project bugs #56301 and #65054): stolen
// continuations get corrupted frames. With clang 16, the pool hung on the uts kernel at P = 2
// in each of 3 runs (docs/toolchain.md). LLVM 19's llvm.coro.await.suspend intrinsics fixed it.
#if defined(__clang__) && __clang_major__ < 19 && !defined(__clang_analyzer__)  // not clang-tidy
#error \
    "scheduler/coro_task.hpp needs g++ or clang 19+: older clang miscompiles await_suspend (llvm-project bug #65054)"
#endif

namespace stealcheck::scheduler {

// How control passes from one coroutine to the next (a fork to its child, a finished child to
// its parent). Symmetric transfer (await_suspend returns the next handle) needs the compiler to
// turn the resumption into a tail call: g++ does at -O2, not at -O0/-O1 nor under
// ThreadSanitizer (its function-exit hook follows every call), where each transfer would grow
// the native stack until a deep fork chain overflows it. Those builds use a trampoline instead:
// await_suspend stores the next handle in a thread-local and suspends, and resume_chain(), the
// only place that resumes coroutines, runs the handles one after the other.
#ifndef STEALCHECK_CORO_SYMMETRIC_TRANSFER
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__) && \
    defined(STEALCHECK_SIBLING_CALLS)
#define STEALCHECK_CORO_SYMMETRIC_TRANSFER 1
#else
#define STEALCHECK_CORO_SYMMETRIC_TRANSFER 0
#endif
#endif

namespace detail {
#if STEALCHECK_CORO_SYMMETRIC_TRANSFER
using transfer = std::coroutine_handle<>;  // what await_suspend returns
inline transfer transfer_to(std::coroutine_handle<> h) noexcept {
  return h ? h : std::noop_coroutine();
}
inline transfer keep_running(std::coroutine_handle<> self) noexcept {
  return self;
}
#else
inline thread_local std::coroutine_handle<> next_coroutine;
using transfer = bool;  // true: suspended, next_coroutine runs next; false: continue
inline transfer transfer_to(std::coroutine_handle<> h) noexcept {
  next_coroutine = h;
  return true;
}
inline transfer keep_running(std::coroutine_handle<> /*self*/) noexcept {
  return false;
}
#endif
}  // namespace detail

/// Resumes h, then every coroutine control passes to on this thread, until none is left.
/// Thread role: a worker's scheduling loop, or coro_serial::run (never from a coroutine).
inline void resume_chain(std::coroutine_handle<> h) {
#if STEALCHECK_CORO_SYMMETRIC_TRANSFER
  h.resume();
#else
  while (h) {
    h.resume();
    h = std::exchange(detail::next_coroutine, nullptr);
  }
#endif
}

enum class frame_kind : std::uint8_t { root, forked, called };

/// What the scheduler sees of a coroutine frame: the task header (execute = resume after a
/// steal), the parent link and the join state. Also the record a root coroutine reports to.
struct frame_base : task {
  /// The join counter's value while no join is under way (far above any steal count).
  static constexpr std::uint64_t no_join = std::uint64_t{1} << 62;

  frame_base() noexcept : task{&resume_stolen} {}
  frame_base(const frame_base&) = delete;
  frame_base& operator=(const frame_base&) = delete;

  std::coroutine_handle<> self;
  frame_base* parent = nullptr;
  /// Children whose continuation (this frame) was stolen and that have not finished, plus
  /// no_join - steals once the join arrived. Thread role: RMWs by those children and the join.
  std::atomic<std::uint64_t> joins{no_join};
  /// Times this frame was resumed by a thief since its last join. Thread role: whoever runs
  /// the frame (ownership moves with the deque's steal, which orders the accesses).
  std::uint64_t steals = 0;
  frame_kind kind = frame_kind::root;
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // the first child exception; written by the winner of `failed`

  /// Thread role: a child finishing with exception e (any worker). Keeps the first one.
  void record(std::exception_ptr e) noexcept {
    // relaxed: only picks the one writer of `error`; the write is published to the joiner by
    // the child's decrement of `joins` (release) or, unstolen, by running on the same thread.
    if (!failed.exchange(true, std::memory_order_relaxed)) error = std::move(e);
  }

  /// task::execute of a frame: a worker took the continuation from a deque (a steal, or its
  /// own deque's leftovers of a batch steal): this frame was stolen once more.
  static void resume_stolen(task* t) {
    auto* f = static_cast<frame_base*>(t);
    ++f->steals;
    resume_chain(f->self);
  }
};

template <class T, class C>
class coro_task;

namespace detail {

/// Thread role: the worker on which a child of `parent` just finished (its frame is already
/// freed). Returns the coroutine this worker runs next (null: back to the scheduling loop).
template <class C>
[[gnu::always_inline]] inline std::coroutine_handle<> child_finished(frame_base* parent,
                                                                     frame_kind kind) noexcept {
  switch (kind) {
    case frame_kind::called:
      return parent->self;
    case frame_kind::root:
      C::root_done(parent);
      return nullptr;
    case frame_kind::forked:
      break;
  }
  if (task* t = C::pop()) {
    if (t == parent) return parent->self;  // the fast path: the parent was not stolen
    // A batch steal (steal_into) left continuations older than the parent in this deque and
    // a thief took the parent: t is one of those. Back to the bottom, for the scheduling loop.
    C::unpop(t);
  }
  // Stolen. acq_rel: the release half publishes this child's result and exception to the
  // thread that resumes the parent (pairs with the acquire half of the join's RMW or of the
  // last child's); the acquire half, when this is the last decrement, makes the parent's
  // writes before its join (the join's release) and every other child's result (release
  // sequence of RMWs) visible here, where the parent resumes. Release alone would let this
  // thread resume the parent without seeing the other children's results; relaxed publishes
  // nothing.
  if (parent->joins.fetch_sub(1, std::memory_order_acq_rel) == 1) return parent->self;
  return nullptr;
}

struct join_tag {};

template <class C>
struct final_awaiter {
  bool await_ready() noexcept { return false; }
  template <class P>
  transfer await_suspend(std::coroutine_handle<P> h) noexcept {
    frame_base& me = h.promise();
    frame_base* parent = me.parent;
    const frame_kind kind = me.kind;
    h.destroy();  // the result is in the parent already; the block is freed on this worker
    return transfer_to(child_finished<C>(parent, kind));
  }
  void await_resume() noexcept {}
};

template <class C>
struct promise_base : frame_base {
  static void* operator new(std::size_t n) { return C::allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { C::deallocate(p, n); }
  std::suspend_always initial_suspend() noexcept { return {}; }
  final_awaiter<C> final_suspend() noexcept { return {}; }
  void unhandled_exception() noexcept { parent->record(std::current_exception()); }
  template <class A>
  A&& await_transform(A&& a) noexcept {
    return std::forward<A>(a);
  }
  auto await_transform(join_tag) noexcept;
};

template <class T, class C>
struct promise : promise_base<C> {
  T* out = nullptr;
  coro_task<T, C> get_return_object() noexcept;
  template <class U>
  void return_value(U&& v) {
    *out = std::forward<U>(v);
  }
};

template <class C>
struct promise<void, C> : promise_base<C> {
  coro_task<void, C> get_return_object() noexcept;
  void return_void() noexcept {}
};

/// fork and call: start `child` with `parent` as its parent.
template <class C, frame_kind Kind>
struct start_awaiter {
  frame_base* child;
  bool await_ready() noexcept { return false; }
  template <class P>
  transfer await_suspend(std::coroutine_handle<P> parent) noexcept {
    frame_base* c = child;  // *this lives in the parent's frame, which a thief may resume
    c->parent = &parent.promise();
    c->kind = Kind;
    if constexpr (Kind == frame_kind::forked) {
      // The deque's push publishes the parent's frame to thieves (its release store); from
      // here on only locals are touched.
      if (!C::push(c->parent)) c->kind = frame_kind::called;  // bounded deque full
    }
    return transfer_to(c->self);
  }
  void await_resume() noexcept {}
};

template <class C>
struct join_awaiter {
  frame_base* f;
  bool await_ready() noexcept {
    if constexpr (!C::wait_for_stolen) return true;  // KNOWN-BAD policy only
    return f->steals == 0;  // never stolen: every child ran here and finished
  }
  transfer await_suspend(std::coroutine_handle<> h) noexcept {
    const std::uint64_t k = frame_base::no_join - f->steals;
    // acq_rel: the release half publishes this frame's writes before the join to the last
    // child, which resumes it (pairs with that child's acquire); the acquire half, when every
    // stolen child has finished, reads their results (pairs with their release decrements).
    // Relaxed would let the resumed parent read children's results before they are written.
    if (f->joins.fetch_sub(k, std::memory_order_acq_rel) == k) return keep_running(h);
    return transfer_to(nullptr);  // the last child resumes it; *f may already run elsewhere
  }
  [[gnu::always_inline]] void await_resume() {
    if (f->steals != 0) {
      f->steals = 0;
      // relaxed: until its next continuation is pushed (a release in the deque), only this
      // thread touches the counter; its children decrement it after that push.
      f->joins.store(frame_base::no_join, std::memory_order_relaxed);
    }
    if (f->error) {
      f->failed.store(false, std::memory_order_relaxed);  // relaxed: as the reset above
      std::rethrow_exception(std::exchange(f->error, nullptr));
    }
  }
};

template <class C>
auto promise_base<C>::await_transform(join_tag) noexcept {
  return join_awaiter<C>{this};
}

}  // namespace detail

/// A lazily started fork-join coroutine returning T, for context C. Owns its frame until it is
/// handed to fork/call/run. Thread role: the creating coroutine.
template <class T, class C>
class [[nodiscard]] coro_task {
 public:
  using value_type = T;
  using promise_type = detail::promise<T, C>;
  using handle = std::coroutine_handle<promise_type>;

  explicit coro_task(handle h) noexcept : h_(h) {}
  coro_task(coro_task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  coro_task& operator=(coro_task&&) = delete;
  ~coro_task() {
    if (h_) h_.destroy();
  }
  /// Gives up the frame (fork/call/run take it over).
  handle release() noexcept { return std::exchange(h_, {}); }

 private:
  handle h_;
};

namespace detail {
template <class T, class C>
coro_task<T, C> promise<T, C>::get_return_object() noexcept {
  auto h = std::coroutine_handle<promise>::from_promise(*this);
  this->self = h;
  return coro_task<T, C>(h);
}
template <class C>
coro_task<void, C> promise<void, C>::get_return_object() noexcept {
  auto h = std::coroutine_handle<promise>::from_promise(*this);
  this->self = h;
  return coro_task<void, C>(h);
}
template <class T, class C>
frame_base* take(coro_task<T, C>& t, T* out) noexcept {
  auto h = t.release();
  if constexpr (!std::is_void_v<T>) h.promise().out = out;
  return &h.promise();
}
}  // namespace detail

namespace detail {
template <frame_kind Kind, class T, class C>
start_awaiter<C, Kind> start(coro_task<T, C>& child, T* out) noexcept {
  return {take(child, out)};
}
}  // namespace detail

// Functions, not function objects: overload resolution keeps them apart from POSIX fork().

/// co_await fork(x, child): child runs now on this worker; this coroutine's continuation may be
/// stolen meanwhile. x receives the child's result; read it only after co_await join().
template <class T, class C>
auto fork(T& out, coro_task<T, C>&& child) noexcept {
  return detail::start<frame_kind::forked>(child, &out);
}
template <class C>
auto fork(coro_task<void, C>&& child) noexcept {
  return detail::start<frame_kind::forked, void>(child, nullptr);
}
/// co_await call(x, child): child runs now; this coroutine continues after it, on this worker.
/// Its exception, if any, is rethrown by the next join().
template <class T, class C>
auto call(T& out, coro_task<T, C>&& child) noexcept {
  return detail::start<frame_kind::called>(child, &out);
}
template <class C>
auto call(coro_task<void, C>&& child) noexcept {
  return detail::start<frame_kind::called, void>(child, nullptr);
}
/// co_await join(): returns once every child forked or called since the last join finished;
/// rethrows the first exception among them.
inline detail::join_tag join() noexcept {
  return {};
}

/// Starts `t` as the outermost coroutine reporting to `record` (its exception goes to
/// record.error; C::root_done(&record) is called when it finished), writing its result to *out.
/// Thread role: the thread that will run it (a worker, or the caller for coro_serial).
/// Returns the handle to resume.
template <class T, class C>
std::coroutine_handle<> start_root(coro_task<T, C> t, frame_base& record,
                                   std::conditional_t<std::is_void_v<T>, char, T>* out) noexcept {
  T* o = nullptr;
  if constexpr (!std::is_void_v<T>) o = out;
  frame_base* f = detail::take(t, o);
  f->parent = &record;
  f->kind = frame_kind::root;
  return f->self;
}

}  // namespace stealcheck::scheduler
// SPDX-License-Identifier: Apache-2.0
