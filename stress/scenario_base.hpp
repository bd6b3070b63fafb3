// stress/scenario_base.hpp: what every stress scenario body (stress/scenarios.hpp) shares:
// the value types (ids, boxed payloads, counted values), the logged owner and thief operations,
// counters, the stop rule and jitter, and `owner_and_thieves`, the one harness that starts the
// owner and the thieves, joins them, drains the deque and checks conservation.
// Thread role: any one thread; starts owner + config.thieves threads and joins them.
// Complexity: O(config.ops) operations per thread; memory O(1) in the run's length (the
// ledger's window and the values in the deque, stress/ledger.hpp).
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/stress/ledger.hpp"
#include "stealcheck/detail/stress/oplog.hpp"
#include "stealcheck/detail/stress/stress.hpp"

namespace stealcheck::stress {
namespace detail {

/// A boxed value: 32 bytes, so the lock-free deques store it behind a pointer. The check
/// words are derived from the id: a thief that reads a box before its contents are published
/// sees them wrong (spsc's publication check).
struct payload {
  std::uint64_t id = 0;
  std::uint64_t check[3] = {0, 0, 0};
  explicit payload(std::uint64_t i) : id(i), check{~i, i * 31 + 7, i ^ 0x5555} {}
  bool intact() const noexcept {
    return check[0] == ~id && check[1] == id * 31 + 7 && check[2] == (id ^ 0x5555);
  }
};

/// A value with a destructor that counts, per id, how often a live value was destroyed.
class counted {
 public:
  counted(std::uint64_t id, std::atomic<std::uint32_t>* destroyed)
      : id_(id), destroyed_(destroyed) {}
  counted(counted&& o) noexcept : id_(o.id_), destroyed_(std::exchange(o.destroyed_, nullptr)) {}
  counted& operator=(counted&&) = delete;
  ~counted() {
    if (destroyed_ != nullptr) destroyed_[id_].fetch_add(1, std::memory_order_relaxed);  // tally
  }
  std::uint64_t id() const noexcept { return id_; }
  void disarm() noexcept { destroyed_ = nullptr; }  // a value that was never pushed

 private:
  std::uint64_t id_;
  std::atomic<std::uint32_t>* destroyed_;
};

inline std::uint64_t id_of(std::uint64_t v) {
  return v;
}
inline std::uint64_t id_of(const payload& v) {
  return v.id;
}
inline std::uint64_t id_of(const counted& v) {
  return v.id();
}
/// A heap-boxed id: a value taken twice is also freed twice (ASan's double free).
using boxed_id = std::unique_ptr<std::uint64_t>;
inline std::uint64_t id_of(const boxed_id& v) {
  return *v;
}

/// The owner's push, recorded in its operation log (stress/oplog.hpp); it also works for
/// bounded variants (push returns bool; false = full).
template <class D, class V>
bool try_push(D& d, V&& v) {
  oplog::begin(0, oplog::op::push, id_of(v), true);
  if constexpr (std::is_same_v<decltype(d.push(std::forward<V>(v))), bool>) {
    const bool pushed = d.push(std::forward<V>(v));
    oplog::finish(0, pushed ? oplog::outcome::done : oplog::outcome::full);
    return pushed;
  } else {
    d.push(std::forward<V>(v));
    oplog::finish(0, oplog::outcome::done);
    return true;
  }
}

/// d.pop() by `thread` (the owner, or a thief popping its own deque: op::own_pop), recorded.
template <class D>
auto logged_pop(D& d, std::uint32_t thread, oplog::op o = oplog::op::pop) {
  oplog::begin(thread, o);
  auto v = d.pop();
  if (v)
    oplog::finish(thread, oplog::outcome::value, id_of(*v));
  else
    oplog::finish(thread, oplog::outcome::empty);
  return v;
}

/// Records how a steal ended.
template <class V>
void finish_steal(std::uint32_t thread, steal_result<V>& r) {
  if (r.has_value())
    oplog::finish(thread, oplog::outcome::value, id_of(*r));
  else
    oplog::finish(thread, r.is_abort() ? oplog::outcome::abort : oplog::outcome::empty);
}

/// d.steal() by `thread`, recorded.
template <class D>
auto logged_steal(D& d, std::uint32_t thread) {
  oplog::begin(thread, oplog::op::steal);
  auto r = d.steal();
  finish_steal(thread, r);
  return r;
}

/// d.steal_into(mine) by `thread`, recorded.
template <class D>
auto logged_steal_into(D& d, D& mine, std::uint32_t thread) {
  oplog::begin(thread, oplog::op::steal_batch);
  auto r = d.steal_into(mine);
  finish_steal(thread, r);
  return r;
}

/// The owner's push of v, told to the ledger the owner's log is attached to (if any) before
/// and after it (stress/ledger.hpp); false if a bounded deque is full.
template <class D, class V>
bool tracked_push(D& d, take_log& log, V&& v) {
  const std::uint64_t id = id_of(v);
  value_ledger* const l = log.ledger();
  if (l != nullptr) l->pushing(id);
  if (!try_push(d, std::forward<V>(v))) return false;
  if (l != nullptr) l->pushed(id);
  return true;
}

/// Pushes a fresh counted value with this id; a bounded deque that is full keeps nothing and
/// the value is disarmed, so its id is not counted as destroyed.
template <class D>
bool push_counted(D& d, take_log& log, std::uint64_t id, std::atomic<std::uint32_t>* destroyed) {
  counted v(id, destroyed);
  if (tracked_push(d, log, std::move(v))) return true;
  v.disarm();  // NOLINT(bugprone-use-after-move): a refused push leaves `v` unmoved
  return false;
}

/// Per-thread counters, summed into the result after the join.
struct counters {
  std::uint64_t pushed = 0, push_full = 0, popped = 0, stolen = 0, steal_empty = 0, steal_abort = 0;
  std::uint64_t rounds = 0;  ///< the owner's calls of pop_backlog (stress/scenarios.hpp)
  bool renew = false;        ///< the owner stopped for a fresh deque (stop_rule)
  void add_to(result& r) const {
    r.pushed += pushed;
    r.push_full += push_full;
    r.popped += popped;
    r.stolen += stolen;
    r.steal_empty += steal_empty;
    r.steal_abort += steal_abort;
    r.renewals += renew ? 1 : 0;
  }
};

/// The owner's stop condition: an op count, or a duration. In a run by time inside a child
/// with a memory ceiling (oplog::board::memory_ceiling), also when the heap has grown by half
/// the ceiling since the rule was made: the owner's counters then say `renew`, and stress::run
/// goes on with a fresh deque (stress/scenarios.hpp).
class stop_rule {
 public:
  stop_rule(const config& c, counters& k)
      : ops_(c.ops),
        seconds_(c.seconds),
        start_(std::chrono::steady_clock::now()),
        k_(k),
        renew_growth_(c.seconds > 0 ? oplog::active()->memory_ceiling / 2 : 0),
        heap_start_(renew_growth_ != 0 ? oplog::heap_bytes() : 0) {}
  bool done(std::uint64_t ops_so_far) {
    if (seconds_ <= 0) return ops_so_far >= ops_;
    // the heap at most once a millisecond (heap_bytes walks the allocator's free lists), the
    // clock for it every 16th call
    if (renew_growth_ != 0 && (++calls_ & 15) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - heap_checked_ >= std::chrono::milliseconds(1)) {
        heap_checked_ = now;
        if (oplog::heap_bytes() > heap_start_ + renew_growth_) {
          k_.renew = true;
          return true;
        }
      }
    }
    if ((ops_so_far & 255) != 0) return false;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
           seconds_;
  }

 private:
  std::uint64_t ops_;
  double seconds_;
  std::chrono::steady_clock::time_point start_;
  counters& k_;
  std::uint64_t renew_growth_;  // 0: never renew
  std::uint64_t heap_start_;
  std::uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point heap_checked_ = start_;
};

/// Starts `n` threads, waits until all are running, releases them together, runs body(i) in
/// each and joins them.
template <class Body>
void run_together(int n, Body body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&ready, &go, &body, i] {
      ready.fetch_add(1, std::memory_order_relaxed);  // a count; go carries the ordering
      while (!go.load(std::memory_order_acquire))
        std::this_thread::yield();  // pairs: release below
      body(i);
    });
  }
  while (ready.load(std::memory_order_relaxed) < n)
    std::this_thread::yield();
  go.store(true, std::memory_order_release);  // start line; pairs with the acquire spin above
  for (auto& t : threads)
    t.join();
}

/// One steal by thief `me`, recorded in its log. Batch variants steal into `mine` (when
/// given) and pop everything that arrived there, recording it as steal_into.
template <class D>
bool steal_once(D& d, D* mine, std::uint32_t me, take_log& log, counters& k) {
  steal_result<typename D::value_type> r = [&] {
    if constexpr (batch_stealing_deque<D>) {
      if (mine != nullptr) return logged_steal_into(d, *mine, me);
    }
    return logged_steal(d, me);
  }();
  if (r.is_empty()) ++k.steal_empty;
  if (r.is_abort()) ++k.steal_abort;
  if (!r.has_value()) return false;
  ++k.stolen;
  log.record(id_of(*r), me, mine != nullptr ? taker_kind::steal_into : taker_kind::steal);
  if (mine != nullptr) {
    while (auto v = logged_pop(*mine, me, oplog::op::own_pop)) {
      ++k.stolen;
      log.record(id_of(*v), me, taker_kind::steal_into);
    }
  }
  return true;
}

/// After the join: drain the deque as the owner, then check conservation (the ledger the logs
/// are attached to). The drain stops one pop after the values ever pushed: a pop that never
/// reports empty is then reported by the first value taken wrongly (or as never reporting
/// empty), not a hang.
template <class D>
void drain_and_check(D& d, std::vector<take_log>& logs, result& r) {
  value_ledger& ledger = *logs[0].ledger();
  while (auto v = logged_pop(d, 0)) {
    ++r.drained;
    logs[0].record(id_of(*v), 0, taker_kind::drain, r.pushed);
    if (r.drained > r.pushed) {
      r.ok = false;
      const auto bad = ledger.check(r.pushed);
      r.kind = bad ? bad->kind : failure_kind::value_invented;
      r.failure = (bad ? bad->text + "; " : std::string()) + "the owner's final drain popped " +
                  std::to_string(r.drained) + " values, more than the " + std::to_string(r.pushed) +
                  " ever pushed: pop never reports empty";
      return;
    }
  }
  if (auto bad = ledger.check(r.pushed)) {
    r.ok = false;
    r.kind = bad->kind;
    r.failure = bad->text;
  }
}

}  // namespace detail

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
