// opencilk.hpp: the THE-protocol work-stealing deque of OpenCilk's runtime (cheetah),
// transcribed onto stealcheck's memory backend as it ships.
//
// Transcribed from OpenCilk/cheetah at commit bcbe827824b82a6ee001a4b2aa8aba6f4f610f0a.
// Files and functions:
//   runtime/worker.h            the three indices tail (T), exc (E), head (H) and ltq_limit;
//   runtime/cilk2c_inlined.c    __cilkrts_detach (push), __cilkrts_leave_frame_helper (pop's
//                               fast path; __cilkrts_pause_frame repeats it on the exception
//                               path with the same orders);
//   runtime/scheduler.c         Cilk_exception_handler and reset_exception_pointer (pop's
//                               locked slow path), Closure_steal, do_dekker_on,
//                               increment_exception_pointer, decrement_exception_pointer and
//                               promote_child's `*head` / `head + 1` (steal), setup_for_execution
//                               (the reset of the three indices, see pop);
//   runtime/readydeque.h        deque_lock_self / deque_trylock / deque_unlock (the lock).
// Every load, store and fence of tail, exc, head and the shadow-stack slots keeps the order
// written there; the slots are plain memory there (`__cilkrts_stack_frame **`) and
// `Mem::nonatomic` here; the worker's deque lock (a CAS spin lock on ReadyDeque::mutex_owner:
// acq_rel CAS to take, release store to give back) is `Mem::mutex`. cheetah's indices are
// pointers into the shadow stack; here they are signed 64-bit indices from its base.
//
// Left out, and why the deque's protocol does not change:
//   - Closures, the ready deque of closures, fibers, hypertables, pedigrees, and the frames'
//     other fields (flags, call_parent, ...): they are what a frame *is*, not how it moves
//     between the owner and a thief. A frame pointer is a value T here.
//   - The closure lock (Closure_trylock/Closure_lock): on every path modelled here it is taken
//     inside the deque lock and released before it, by the thief and by the owner alike, so it
//     orders nothing the deque lock does not. Its trylock failing in Closure_steal is one more
//     "return NULL" (here it would be one more abort).
//   - The ready deque being empty or its top closure not RUNNING (Closure_steal gives up): this
//     model has one closure, always running.
//   - EXCEPTION_INFINITY (exc set to "infinity" to abort all workers): only the commented-out
//     signal_immediate_exception_to_all sets it; the E-increment skips it.
//   - C++ exceptions thrown by the spawned child (Cilk_exception_handler's `exn`): they
//     change what the owner does after losing, not whether it lost.
//   - promote_own_deque (cilksan's self-steal) and the fast test's statistics.
// Two things are added, both needed to use the deque as a deque:
//   - pop returns the popped value. cheetah's owner does not read the slot back (it knows its
//     parent frame); here pop reads the slot it stored itself: a plain read that only thieves'
//     plain reads can meet, so it adds no race.
//   - When pop finds the last frame stolen (head > tail under the lock), cheetah leaves the
//     indices as they are, longjmps to the scheduler with the deque lock held and, once it has
//     work again, resets head, exc and tail to the shadow stack's base in setup_for_execution
//     (scheduler.c:146-149), outside the deque lock: thieves stay away meanwhile because the
//     worker's ready deque holds no running closure. Without that gate, here the reset is done
//     in pop, with setup_for_execution's orders, before the lock is released. Without a reset a
//     later push would store below head, invisible to thieves, and its pop would report the
//     frame stolen.
//
// Full deque. cheetah checks the depth only with CILK_ASSERT((tail + 1) < w->ltq_limit) in
// __cilkrts_detach, and the ABI bitcode that compiled Cilk code inlines is built with
// CILK_DEBUG=0, so the shipped code has no check at all (a debug build aborts). Here push
// returns false exactly where that assert fails (register with .bounded = true): the
// checkers' clients see a full deque instead of an overflow. Note the "+ 1": at most
// deqdepth - 1 slots are ever used. Slots are not recycled by steals: head only moves up
// until a pop finds its frame stolen (or the deque empty), so a client that lets thieves take
// many items while the owner never pops down to them fills the deque even when few items are
// in it (in cheetah the stack discipline of spawns bounds this by the spawn depth).
//
// The protocol (THE with an exception pointer). push: slot[tail] = v; tail++ (release). pop:
// tail-- (seq_cst store); load exc (seq_cst); exc > tail means a thief may be at work: take
// the lock, set exc = head, and the frame was stolen iff head > tail. steal (under a trylock):
// exc++; seq_cst fence; load head and tail; head >= tail: exc-- and give up; else take
// slot[head], head++. The owner's store of tail and load of exc, and the thief's store of exc
// and load of tail, form SB; cheetah uses seq_cst accesses on the owner's side and a seq_cst
// fence on the thief's.
//
// Thread role: push and pop by the owner only; steal by any thread. Values: T trivially
// copyable, at most 8 bytes (a frame pointer, an integer). pop: nullopt when a thief took the
// last value or the deque was empty (cheetah never pops an empty deque: each return from a
// spawn matches a detach; here that pop takes the locked path and reads as "stolen"). steal:
// item; empty when the check under the lock finds head >= tail; abort when the lock-free
// pre-test finds head >= tail or the victim's lock is taken (cheetah's Closure_steal returns
// NULL in all three; the pre-test reads relaxed hints, which may be stale, so its give-up is
// not a claim that the deque is empty: reported as `empty`, the checkers reject it). Complexity:
// O(1) each; pop takes the lock only when exc > tail (a thief is at, or has been at, the victim);
// steal does not wait.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stealcheck/deque.hpp>

namespace case_studies {

template <class T, class Mem = stealcheck::native_memory>
class opencilk_the {
  template <class U>
  using atomic = typename Mem::template atomic<U>;
  using slot = typename Mem::template nonatomic<T>;
  using lock_type = typename Mem::mutex;
  static constexpr auto relaxed = std::memory_order_relaxed;
  static constexpr auto acquire = std::memory_order_acquire;
  static constexpr auto release = std::memory_order_release;
  static constexpr auto seq_cst = std::memory_order_seq_cst;

 public:
  using value_type = T;

  /// deqdepth: the shadow stack's length (CILK_DEQDEPTH; cheetah's default is 1024, its range
  /// 1..99999). Requires deqdepth >= 1. The indices start at the base, as setup_for_execution
  /// leaves them before any frame is pushed (init.c's base + 1 is overwritten before use).
  explicit opencilk_the(std::int64_t deqdepth = 1024)
      : ltq_limit_(deqdepth),
        shadow_stack_(Mem::template create_array<slot>(size(), "shadow_stack")) {}
  ~opencilk_the() { Mem::destroy_array(shadow_stack_, size()); }
  opencilk_the(const opencilk_the&) = delete;
  opencilk_the& operator=(const opencilk_the&) = delete;

  /// Thread role: owner. __cilkrts_detach (cilk2c_inlined.c:150-170). false: full (where
  /// cheetah's CILK_ASSERT fails; see the file comment), nothing pushed.
  bool push(T v) {
    // relaxed (cilk2c_inlined.c:162-163): the owner's own last store of tail
    const std::int64_t t = tail_.load(relaxed);
    // CILK_ASSERT((tail + 1) < w->ltq_limit) (line 164): compiled out as shipped
    if (!(t + 1 < ltq_limit_)) return false;
    // plain store (line 167, `*tail++ = parent`): published by the release store of tail below
    shadow_stack_[t].write() = v;
    // release (line 169): pairs with do_dekker_on's acquire load of tail (scheduler.c:726-727)
    tail_.store(t + 1, release);
    return true;
  }

  /// Thread role: owner. __cilkrts_leave_frame_helper (cilk2c_inlined.c:277-293) and, on
  /// conflict, Cilk_exception_handler (scheduler.c:542-597). nullopt: a thief took the value
  /// (or the deque was empty).
  std::optional<T> pop() {
    // relaxed (cilk2c_inlined.c:277-278): the owner's own last store of tail
    const std::int64_t t = tail_.load(relaxed) - 1;
    // seq_cst store (line 282): with the seq_cst load of exc below, SB against the thief's
    // store of exc, seq_cst fence, load of tail (do_dekker_on, scheduler.c:712-727)
    tail_.store(t, seq_cst);
    // seq_cst load (lines 283-284): partner the thief's relaxed store exc + 1
    // (scheduler.c:102), ordered before its load of tail by its seq_cst fence (line 718)
    const std::int64_t e = exc_.load(seq_cst);
    if (e > t) return exception_handler();  // lines 289-290: a thief may hold the frame
    // not in cheetah (the owner knows its parent frame): the owner reads its own plain store
    return shadow_stack_[t].read();
  }

  /// Thread role: any. Closure_steal (scheduler.c:991-1084) with do_dekker_on (706-734) and
  /// promote_child's accesses of the deque (774, 885).
  stealcheck::steal_result<T> steal() {
    // The lock-free pre-test (scheduler.c:1001-1009).
    // relaxed (lines 1003-1004): a hint; head is decided again under the lock below
    const std::int64_t h0 = head_.load(relaxed);
    // relaxed (lines 1005-1006): a hint; tail is loaded again after the fence below
    const std::int64_t t0 = tail_.load(relaxed);
    if (h0 >= t0) return stealcheck::steal_result<T>::abort();

    // deque_trylock (line 1012; readydeque.h:60-71: relaxed load, weak CAS acq_rel/relaxed)
    std::unique_lock<lock_type> guard(lock_, std::try_to_lock);
    if (!guard.owns_lock()) return stealcheck::steal_result<T>::abort();

    // do_dekker_on: increment_exception_pointer (scheduler.c:91-104).
    // relaxed (lines 97-98): under the lock; the owner stores exc only under it (or with the
    // ready deque empty, see the file comment)
    const std::int64_t e = exc_.load(relaxed);
    // relaxed (line 102): ordered before the load of tail by the seq_cst fence below; partner:
    // pop's seq_cst load of exc (cilk2c_inlined.c:283-284)
    exc_.store(e + 1, relaxed);
    // seq_cst fence (line 718): the thief's half of SB; partner: pop's seq_cst store of tail
    // and seq_cst load of exc (cilk2c_inlined.c:282-284)
    Mem::fence(seq_cst);
    // relaxed (lines 724-725): under the lock; head is stored only under it
    const std::int64_t h = head_.load(relaxed);
    // acquire (lines 726-727): pairs with push's release store of tail (cilk2c_inlined.c:169):
    // the slot read below holds the pushed frame; ordered after the exc store by the fence
    const std::int64_t t = tail_.load(acquire);
    if (h >= t) {
      // decrement_exception_pointer (lines 106-115), then give_up (lines 1063-1067).
      // relaxed (lines 110-111): this thief's own store, under the lock
      const std::int64_t e2 = exc_.load(relaxed);
      // relaxed (line 113): partner pop's seq_cst load of exc; an owner that read exc + 1
      // decides under the lock, after this thief has released it
      exc_.store(e2 - 1, relaxed);
      return stealcheck::steal_result<T>::empty();
    }
    // promote_child: plain read (line 774, `frame_to_steal = *head`), ordered after the
    // owner's plain store by the acquire load of tail above
    T v = shadow_stack_[h].read();
    // release (line 885): no acquire load of head pairs with it (every load of head is
    // relaxed); the owner's handler and later thieves read head under the lock
    head_.store(h + 1, release);
    guard.unlock();  // deque_unlock (line 1040; readydeque.h:87-92: release store)
    return stealcheck::steal_result<T>::item(v);
  }

 private:
  std::size_t size() const { return static_cast<std::size_t>(ltq_limit_); }

  // Owner only, tail already decremented and exc > tail. Cilk_exception_handler(w, NULL).
  std::optional<T> exception_handler() {
    // deque_lock_self (scheduler.c:548; readydeque.h:40-52: a spin on a weak CAS acq_rel)
    std::unique_lock<lock_type> guard(lock_);
    // reset_exception_pointer (scheduler.c:117-124), line 557: exc = head.
    // relaxed (line 122): under the lock; thieves store head only under it
    const std::int64_t h0 = head_.load(relaxed);
    // release (lines 121-123): no acquire load of exc pairs with it (thieves load exc relaxed,
    // under the lock; the owner's seq_cst loads are its own); the lock orders it for thieves
    exc_.store(h0, release);
    // relaxed (lines 564-565): under the lock ("will not change while the deque is locked")
    const std::int64_t h = head_.load(relaxed);
    // relaxed (lines 566-567): the owner's own last store of tail (cheetah reloads it here)
    const std::int64_t tail = tail_.load(relaxed);
    if (h > tail) {  // line 568: "this is a steal!": the frame at tail went to a thief
      // cheetah: longjmp_to_runtime with the lock held (line 589; released at 1357-1358); the
      // reset of setup_for_execution (lines 146-149) runs later, outside the lock: see the
      // file comment for why it is here. relaxed (line 147): thieves read head under the lock
      head_.store(0, relaxed);
      exc_.store(0, relaxed);  // relaxed (line 148): thieves read exc under the lock
      // release (line 149): pairs with do_dekker_on's acquire load of tail (scheduler.c:727);
      // here also ordered by the lock
      tail_.store(0, release);
      return std::nullopt;  // the guard releases the lock (do_what_it_says, line 1358)
    }
    guard.unlock();  // false alarm: deque_unlock_self (line 593; readydeque.h:54-58)
    // not in cheetah (the owner knows its parent frame): the owner reads its own plain store
    return shadow_stack_[tail].read();
  }

  // worker.h:42-47. Names for the model checker's reports; natively no cost.
  atomic<std::int64_t> tail_{0, "tail"};
  atomic<std::int64_t> exc_{0, "exc"};
  atomic<std::int64_t> head_{0, "head"};
  const std::int64_t ltq_limit_;  // the shadow stack's length: ltq_limit - shadow_stack
  slot* shadow_stack_;
  lock_type lock_{"deque_lock"};  // ReadyDeque::mutex_owner of this worker
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
