// tokio_idle.hpp: how Tokio's multi-thread scheduler finds a task in a busy worker's stealable
// LIFO slot, transcribed as a model test (stealcheck/model.hpp) in the versions that made the
// slot stealable and then weighed what pushing to it should wake:
//
//   tokio_1_51    commit eeb55c733ba9a83c51d08b1629dca6a5ec0f4b2b (2026-04-03), "runtime: steal
//                 tasks from the LIFO slot (#7431)", released in 1.51.0 and reverted in 1.51.2
//                 and 1.52.2 for the cost of the wake-ups it added (#8065, #8100): a push into
//                 the empty slot notifies a parked worker, as any other push does;
//   pr8069        commit 04353af3ea4e3820e204b9511cfd8c4822d74582 (2026-04-18), "clear the bit",
//                 on the branch of PR #8069: a push into the empty slot notifies only when the
//                 ANY_LIFO bit of Idle::state was clear; a worker that parks while the bit is
//                 set sleeps at most 100 ms and then scans the slots (steal_stranded_lifo),
//                 clearing the bit when it finds none;
//   pr8120        commit 6a30b345aab9f5194989dfd81a2852e204a58785 (2026-05-08), the head of
//                 PR #8120 (branch eliza/lifo-steal-2): the slot's swap and take AcqRel and
//                 is_some Acquire (commit 634e4a74, "change AtomicNotified back to AcqRel"), and
//                 a push into the empty slot notifies only in UnparkingMode::Cautious, not in
//                 the default UnparkingMode::Traditional.
//
// Source, in each: tokio/src/runtime/scheduler/multi_thread/worker.rs (Handle::schedule_local,
// notify_parked_local, notify_if_work_pending; Core::transition_to_parked,
// transition_from_parked; Context::park and, in pr8069, steal_stranded_lifo),
// multi_thread/idle.rs (Idle::worker_to_notify, transition_worker_to_parked,
// unpark_worker_by_id, is_parked, notify_should_wakeup, and in pr8069 put_lifo, clear_lifo,
// should_attempt_lifo_steal; State::unpark_one, dec_num_unparked), multi_thread/queue.rs
// (Local::push_lifo, Steal::len, Steal::steal_into's take of the slot) and
// runtime/task/atomic_notified.rs (AtomicNotified::swap, take, is_some). Every access of
// Idle::state and of the slot keeps the order written there (SeqCst unless said). Left out:
// the ring of the queue (empty in this scenario: its head and tail loads read constants), the
// inject queue (empty), the driver, metrics and shutdown. Stands in for more: the Unparker of
// park.rs (a SeqCst swap of its state and a mutex and condition variable) is one release
// store by unpark and one acquire load by park, which is what it guarantees to the code here;
// Synced::sleepers, guarded by the scheduler's mutex, is one flag (two workers).
//
// The scenario (scenario() below), the one that #4941 asked the stealable slot for: two
// workers. Worker 0 runs a task that wakes task 1, which goes to worker 0's empty LIFO slot,
// and then keeps running (a task that does not yield). Worker 1 is the last searching worker:
// it makes its last steal pass (the slot included) and parks. For #8069, ANY_LIFO is set when
// the scenario starts (an earlier push of the same wave set it: #8069's loom test does the
// same), or, with `earlier_push`, a third worker sets it: it wakes task 2 into its own empty
// slot and then runs it. The property: task 1 is taken by worker 1, or worker 1 is awake (it
// took a task and will search again), or a wake-up that sends it to the slot is still coming
// (an unpark, or a timed park with the ANY_LIFO bit still set); otherwise task 1 is
// *stranded*: it waits for worker 0's task to return while worker 1 sleeps.
// docs/case-studies/tokio.md gives each version's verdict, the executions, and the fix of pr8069.
//
// Thread roles: scenario() is the body of a model::check (or STEALCHECK_MODEL_TEST); it starts
// the workers as model threads. Errors: the property's STEALCHECK_ASSERT. Complexity: tens of
// executions per version with two workers, a few thousand with three (under RC11).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stealcheck/model.hpp>

namespace case_studies::tokio_idle {

namespace model = stealcheck::model;

/// What a push of task into an *empty* LIFO slot does (Handle::schedule_local's should_notify).
enum class empty_slot_push : std::uint8_t {
  notify,             ///< notify_parked_local, as every other push (1.51; #8120's Cautious)
  no_notify,          ///< nothing (#8120's Traditional, the default; Tokio before 1.51)
  notify_unless_bit,  ///< notify only if Idle::put_lifo found ANY_LIFO clear (#8069)
};

/// One version of the protocol: the orders and choices that differ between the commits.
struct version {
  const char* name;
  std::memory_order slot_swap;  ///< AtomicNotified::swap and take
  std::memory_order slot_load;  ///< AtomicNotified::is_some
  empty_slot_push push;
  /// Steal::len counts a task in the slot, so notify_if_work_pending sees it (1.51 on).
  bool len_counts_slot = true;
  /// Idle::notify_should_wakeup reads Idle::state with fetch_add(0, SeqCst), as shipped;
  /// false: with a SeqCst load (a one-change variant, not shipped).
  bool should_wakeup_rmw = true;
  /// #8069: a worker parked while ANY_LIFO is set wakes after a timeout and runs
  /// steal_stranded_lifo (ANY_LIFO is set when the scenario starts: an earlier push in the
  /// same wave set it, and its task has since run).
  bool timed_park = false;
  /// The fix of #8069 checked here: steal_stranded_lifo scans the slots again after clearing
  /// the bit.
  bool rescan_after_clear = false;
};

inline constexpr version tokio_1_51{.name = "tokio_1_51",
                                    .slot_swap = std::memory_order_seq_cst,
                                    .slot_load = std::memory_order_seq_cst,
                                    .push = empty_slot_push::notify};
inline constexpr version pr8120_cautious{.name = "pr8120_cautious",
                                         .slot_swap = std::memory_order_acq_rel,
                                         .slot_load = std::memory_order_acquire,
                                         .push = empty_slot_push::notify};

/// `base` with one field changed by `change`, named `name`.
template <class Change>
constexpr version changed(version base, const char* name, Change change) {
  base.name = name;
  change(base);
  return base;
}

inline constexpr version pr8120_traditional = changed(
    pr8120_cautious, "pr8120_traditional", [](version& v) { v.push = empty_slot_push::no_notify; });
inline constexpr version pr8069 = changed(tokio_1_51, "pr8069", [](version& v) {
  v.push = empty_slot_push::notify_unless_bit;
  v.timed_park = true;
});
/// Control: pr8069 with steal_stranded_lifo scanning again after clear_lifo.
inline constexpr version pr8069_rescan =
    changed(pr8069, "pr8069_rescan", [](version& v) { v.rescan_after_clear = true; });
/// One change to 1.51: Steal::len without the slot (as it was before 1.51, when the slot
/// could not be stolen).
inline constexpr version len_without_slot =
    changed(tokio_1_51, "len_without_slot", [](version& v) { v.len_counts_slot = false; });
/// One change to pr8120_cautious: notify_should_wakeup as a SeqCst load of Idle::state.
inline constexpr version pr8120_should_wakeup_load = changed(
    pr8120_cautious, "pr8120_should_wakeup_load", [](version& v) { v.should_wakeup_rmw = false; });
/// The same change to tokio_1_51 (SeqCst slot).
inline constexpr version v1_51_should_wakeup_load = changed(
    tokio_1_51, "v1_51_should_wakeup_load", [](version& v) { v.should_wakeup_rmw = false; });

/// The runtime's shared state for two or three workers and their functions, as in the sources.
class runtime {
 public:
  static constexpr std::int64_t task = 1;  // worker 0's running task wakes task 1

  /// With `earlier_push`, a third worker (worker 2) first wakes task 2 into its own slot and
  /// then runs it: the push that sets ANY_LIFO (otherwise set when the scenario starts).
  runtime(const version& v, bool earlier_push)
      : v_(v), workers_(earlier_push ? 3 : 2), state_(initial(v, workers_), "Idle::state") {}

  /// Worker 0: Handle::schedule_local(task 1, is_yield = false) into its empty slot.
  void worker0_wakes_task() { wake_into_own_slot(0, task); }

  /// Worker 2: wakes task 2 into its own slot, then runs it (Core::next_task: pop_lifo first).
  void worker2_wakes_and_runs_task() {
    wake_into_own_slot(1, 2);
    // Local::pop_lifo = AtomicNotified::take: the owner's own box (its acquire half pairs with
    // nothing here; a thief may have taken task 2 first).
    slots_[1].exchange(0, v_.slot_swap);
  }

  /// Worker 1: the last pass of Core::steal_work (steal_into takes a slot when the ring is
  /// empty), then Context::park.
  void worker1_searches_then_parks() {
    if (steal_any()) return;
    // Core::transition_to_parked -> Idle::transition_worker_to_parked(is_searching = true):
    // under the lock, State::dec_num_unparked (fetch_sub, SeqCst) and the sleeper pushed.
    synced_.lock();
    const std::uint64_t prev = state_.fetch_sub(unpark_one + 1, std::memory_order_seq_cst);
    sleeping_.write() = true;
    synced_.unlock();
    if ((prev & search_mask) == 1) notify_if_work_pending();  // the last searcher looks again
    // #8069: TransitionToParked::Yes(Some(LIFO_EXCLUSIVITY_TIMEOUT)) when ANY_LIFO was set.
    const bool timed = v_.timed_park && (prev & any_lifo) != 0;
    // Context::park's loop, one round: park_internal returns on an unpark (Unparker: this
    // acquire load pairs with the release store of unpark()), or when the timeout elapses.
    if (unpark_.load(std::memory_order_acquire) == 1) {
      awake_ = true;  // transition_from_parked: not in sleepers; searching again
      steal_any();
      return;
    }
    if (!timed) return;  // parked with no timeout: only an unpark wakes it
    if (!is_parked() || steal_stranded_lifo()) {
      awake_ = true;
      steal_any();
      return;
    }
    parked_timed_ = true;  // parks again with the same timeout: the loop's next round
  }

  /// After every worker is joined: task 1 is taken, or worker 1 is awake (it searches again
  /// after the task it took), or a wake-up that sends it to the slot is coming.
  void check_not_stranded() {
    if (slots_[0].load(std::memory_order_relaxed) == 0 || awake_) return;  // (after join)
    const bool unparked = unpark_.load(std::memory_order_relaxed) == 1;
    const bool timer_scans_again =
        parked_timed_ && (state_.load(std::memory_order_relaxed) & any_lifo) != 0;
    STEALCHECK_ASSERT(unparked || timer_scans_again,
                      "task 1 is stranded: it waits in worker 0's LIFO slot while worker 0 runs "
                      "its task and worker 1 sleeps with no wake-up coming");
  }

 private:
  // Handle::schedule_local(t, is_yield = false) on the worker whose slot is slots_[i], empty.
  void wake_into_own_slot(std::size_t i, std::int64_t t) {
    // Local::push_lifo = AtomicNotified::swap. Its release half pairs with worker 1's take or
    // is_some; 1.51's SeqCst adds nothing those pairs need (the notify path synchronizes by
    // the RMWs of Idle::state, below).
    const std::int64_t prev = slots_[i].exchange(t, v_.slot_swap);
    STEALCHECK_ASSERT(prev == 0, "the slot was empty");
    bool notify = true;
    if (v_.push == empty_slot_push::no_notify) notify = false;
    // Idle::put_lifo: fetch_or(ANY_LIFO, SeqCst); notify if the bit was clear.
    if (v_.push == empty_slot_push::notify_unless_bit)
      notify = (state_.fetch_or(any_lifo, std::memory_order_seq_cst) & any_lifo) == 0;
    if (notify) notify_parked_local();
  }

  // Idle::state: num_searching in the low bits, num_unparked above, ANY_LIFO above both.
  // Tokio shifts by 16 (1.51) or 30 (#8069, ANY_LIFO the top bit); 8 and bit 16 here keep the
  // values in reports short (256 = one unparked worker, 65536 = ANY_LIFO); three workers
  // read the same in either layout.
  static constexpr std::uint64_t unpark_one = std::uint64_t{1} << 8;
  static constexpr std::uint64_t search_mask = unpark_one - 1;
  static constexpr std::uint64_t any_lifo = std::uint64_t{1} << 16;

  // Every worker unparked, worker 1 searching; with two workers, ANY_LIFO set where the
  // version has it.
  static std::uint64_t initial(const version& v, std::uint64_t workers) {
    return workers * unpark_one + 1 + (v.timed_park && workers == 2 ? any_lifo : 0);
  }

  // Idle::notify_should_wakeup: no worker searching and one parked. fetch_add(0, SeqCst) as
  // shipped: an RMW, so it is ordered in Idle::state's mo with transition_worker_to_parked's
  // fetch_sub and synchronizes with it in either order (idle.rs's comment at worker_to_notify:
  // "Acquire / Release does not provide sufficient guarantees").
  bool notify_should_wakeup() {
    const std::uint64_t s = v_.should_wakeup_rmw
                                ? state_.fetch_add(0, std::memory_order_seq_cst)
                                : state_.load(std::memory_order_seq_cst);  // the variant's load
    return (s & search_mask) == 0 && ((s & ~any_lifo) >> 8) < workers_;
  }

  // Handle::notify_parked_local -> Idle::worker_to_notify, then unpark the sleeper.
  void notify_parked_local() {
    if (!notify_should_wakeup()) return;
    synced_.lock();
    if (!notify_should_wakeup()) {
      synced_.unlock();
      return;
    }
    state_.fetch_add(unpark_one + 1, std::memory_order_seq_cst);  // State::unpark_one(1)
    const bool popped = sleeping_.read();
    if (popped) sleeping_.write() = false;
    synced_.unlock();
    // Unparker::unpark: its release pairs with park's acquire load (worker 1's wake).
    if (popped) unpark_.store(1, std::memory_order_release);
  }

  // Handle::notify_if_work_pending: a queue that is not empty (Steal::is_empty: len() == 0).
  void notify_if_work_pending() {
    // Steal::len: the ring's length (zero here) plus the slot's task (AtomicNotified::is_some).
    if (v_.len_counts_slot && any_slot_has_task()) notify_parked_local();
  }

  // The other workers' slots, in the order worker 1 visits them (worker 0's, worker 2's).
  std::size_t slots() const { return workers_ - 1; }

  // AtomicNotified::is_some on each slot: its acquire pairs with the owner's swap.
  bool any_slot_has_task() {
    for (std::size_t i = 0; i < slots(); ++i)
      if (slots_[i].load(v_.slot_load) != 0) return true;
    return false;
  }

  // Steal::steal_into on each worker, the ring empty: AtomicNotified::take of its slot. Its
  // acquire half pairs with the owner's swap (the task's contents).
  bool steal_any() {
    for (std::size_t i = 0; i < slots(); ++i) {
      const std::int64_t t = slots_[i].exchange(0, v_.slot_swap);
      if (t == 0) continue;
      STEALCHECK_ASSERT(t == static_cast<std::int64_t>(i) + 1, "a slot holds its owner's task");
      awake_ = true;  // runs it, then searches again
      return true;
    }
    return false;
  }

  // Idle::is_parked: worker 1 still in Synced::sleepers.
  bool is_parked() {
    synced_.lock();
    const bool parked = sleeping_.read();
    synced_.unlock();
    return parked;
  }

  // Context::steal_stranded_lifo (#8069, commit 04353af3), with the fix when rescan_after_clear.
  bool steal_stranded_lifo() {
    // Idle::should_attempt_lifo_steal: fetch_add(0, SeqCst).
    if ((state_.fetch_add(0, std::memory_order_seq_cst) & any_lifo) == 0) return false;
    if (any_slot_has_task()) return unpark_self();
    state_.fetch_and(~any_lifo, std::memory_order_seq_cst);  // Idle::clear_lifo
    // The fix: this clear reads worker 0's put_lifo when it came later in Idle::state's mo
    // (an RMW reads the write just before it), so the scan below sees worker 0's swap.
    if (v_.rescan_after_clear && any_slot_has_task()) return unpark_self();
    return false;
  }

  // Idle::unpark_worker_by_id(worker 1): out of the sleepers, State::unpark_one(0).
  bool unpark_self() {
    synced_.lock();
    if (sleeping_.read()) {
      sleeping_.write() = false;
      state_.fetch_add(unpark_one, std::memory_order_seq_cst);
    }
    synced_.unlock();
    return true;
  }

  const version& v_;
  std::uint64_t workers_;
  model::atomic<std::uint64_t> state_;
  // The LIFO slots of worker 0 and worker 2 (worker 1's own is empty and nobody reads it).
  std::array<model::atomic<std::int64_t>, 2> slots_{{{0, "lifo_slot_0"}, {0, "lifo_slot_2"}}};
  model::mutex synced_{"synced"};                                          // the scheduler's mutex
  model::nonatomic<bool> sleeping_{stealcheck::named{"sleepers"}, false};  // worker 1 sleeps
  model::atomic<int> unpark_{0, "unpark"};  // worker 1's Unparker: 1 once unparked
  bool parked_timed_ = false;               // worker 1's own, as awake_; read after the join
  bool awake_ = false;
};

/// The model test's body: the workers of the scenario at the top of this file; with
/// `earlier_push`, worker 2 too.
inline void scenario(const version& v, bool earlier_push = false) {
  runtime rt(v, earlier_push);
  model::thread w0([&rt] { rt.worker0_wakes_task(); });
  model::thread w1([&rt] { rt.worker1_searches_then_parks(); });
  model::thread w2;
  if (earlier_push) w2 = model::thread([&rt] { rt.worker2_wakes_and_runs_task(); });
  w0.join();
  w1.join();
  if (earlier_push) w2.join();
  rt.check_not_stranded();
}

}  // namespace case_studies::tokio_idle
// SPDX-License-Identifier: Apache-2.0
