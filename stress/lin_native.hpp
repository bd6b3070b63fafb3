// stress/lin_native.hpp: run a lincheck scenario natively and record its history.
//
// run_native<D>(scenario, seed, jitter): the prefix on the calling thread, then the owner and
// one thread per thief started together (threads are ready before the start signal), each
// operation stamped by a shared stealcheck::stress::lincheck::recorder, seeded random yields/spins
// between operations when `jitter`; then the final drain. Every deque call is recorded in the
// thread's operation log (stress/oplog.hpp); an exception thrown by one ends its thread, and
// run_native then throws a native_fault naming the exception, the thread and the operation. A
// bounded deque's failed push is not recorded (the spec's "full" records no push). Thieves of a
// batch-stealing variant do steal_batch steps as victim.steal_into(own deque) and record every
// value that arrived; a steal@N steals from thief N's deque, and what it takes there joins N's
// batch (complete_batches); the step itself is kept aside, for reports only. Thread role: any one
// thread; it starts and joins the others.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/stress/history.hpp"
#include "stealcheck/detail/stress/run.hpp"
#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::stress::lincheck {
namespace detail {

template <class D>
void owner_do(D& d, owner_step step, std::uint64_t& next_value, recorder& clock,
              std::vector<operation>& log) {
  operation op;
  op.thread = 0;
  op.invoke = clock.stamp();
  if (step == owner_step::push) {
    op.kind = op_kind::push;
    op.has_value = true;
    op.value = next_value;
    if (!stress::detail::try_push(d, std::uint64_t{next_value})) return;  // full: not a push
    ++next_value;
  } else {
    op.kind = op_kind::pop;
    const std::optional<std::uint64_t> v = stress::detail::logged_pop(d, 0);
    op.has_value = v.has_value();
    op.value = v.value_or(0);
  }
  op.response = clock.stamp();
  log.push_back(std::move(op));
}

/// A thief's deque that other thieves steal from (steal@N): the batch its owner took into it
/// (the operation's index in the owner's log and what it popped there after its last step) and
/// the values the others stole from it; completed after the join (complete_batches).
template <class D>
struct shared_deque {
  D d{64};
  std::size_t at = 0;
  bool opened = false;
  std::vector<std::uint64_t> popped;
  std::mutex m;  // guards stolen: several thieves add to it
  std::vector<std::uint64_t> stolen;
};

/// Sets the batch of `op`, a steal_batch that returned its first value: that value, then
/// `rest` (oldest first).
inline void set_batch(operation& op, const std::vector<std::uint64_t>& rest) {
  if (op.kind != op_kind::steal_batch || !op.has_value) return;
  op.batch.push_back(op.value);
  op.batch.insert(op.batch.end(), rest.begin(), rest.end());
}

/// One thief step of thread `me`; `pushes` bounds the values the owner pushes in the run.
template <class D>
void thief_do(D& d, D* mine, thief_step step, std::uint32_t me, recorder& clock,
              std::vector<operation>& log, shared_deque<D>* own,
              std::vector<std::unique_ptr<shared_deque<D>>>& shared, std::size_t pushes) {
  operation op;
  op.thread = me;
  op.kind = op_kind::steal;
  op.invoke = clock.stamp();
  steal_result<std::uint64_t> r = steal_result<std::uint64_t>::empty();
  std::vector<std::uint64_t> popped;  // steal_batch: what arrived in mine besides the result
  if constexpr (batch_stealing_deque<D>) {
    if (step.k == thief_step::kind::steal_thief) {  // not an operation of the owner's deque
      shared_deque<D>& from = *shared[step.from - 1U];
      r = stress::detail::logged_steal(from.d, me);
      op.response = clock.stamp();
      if (r.has_value()) {
        const std::scoped_lock lock(from.m);
        from.stolen.push_back(*r);
      }
      op.set_stolen(r);
      op.from_thief = step.from;  // set aside by run_native
      log.push_back(std::move(op));
      return;
    }
    if (own != nullptr) mine = &own->d;
    if (step == thief_step::steal_batch && mine != nullptr) {
      op.kind = op_kind::steal_batch;
      r = stress::detail::logged_steal_into(d, *mine, me);
      op.response = clock.stamp();
      if (own == nullptr)  // a deque others steal from waits until the thief's last step
        popped = pop_until_empty(
            [&] { return stress::detail::logged_pop(*mine, me, oplog::op::own_pop); }, pushes);
    }
  }
  if (op.kind == op_kind::steal) {
    r = stress::detail::logged_steal(d, me);
    op.response = clock.stamp();
  }
  op.set_stolen(r);
  if (op.kind == op_kind::steal_batch && own != nullptr) {  // others may hold part of it
    own->at = log.size();
    own->opened = true;
    log.push_back(std::move(op));
    return;
  }
  set_batch(op, {popped.rbegin(), popped.rend()});
  log.push_back(std::move(op));
  if constexpr (batch_in_steps<D>) spec::split_batch(log, log.size() - 1);
}

/// After the join: the batch of every thief whose deque others stole from, from the values
/// they stole (oldest first), what is left in that deque (popped by this thread, at most one
/// more than `pushed`: a pop that never reports empty stops there) and what its owner popped.
template <class D>
void complete_batches(std::vector<std::unique_ptr<shared_deque<D>>>& shared,
                      std::vector<std::vector<operation>>& logs, std::uint64_t pushed) {
  for (std::size_t i = 0; i < shared.size(); ++i) {
    shared_deque<D>* sd = shared[i].get();
    if (sd == nullptr || !sd->opened) continue;
    const std::vector<std::uint64_t> left = pop_until_empty(
        [&] { return stress::detail::logged_pop(sd->d, 0, oplog::op::own_pop); }, pushed);
    std::vector<operation>& log = logs[i + 1];
    set_batch(log[sd->at], stolen_batch_rest(std::move(sd->stolen), left, sd->popped));
    if constexpr (batch_in_steps<D>) spec::split_batch(log, sd->at, /*after_it=*/true);
  }
}

}  // namespace detail

/// An operation of a native run threw; what() names the exception, the thread and the
/// operation (oplog::threw).
struct native_fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `aside`, when given, receives the run's steal@N steps (operation::from_thief), which the
/// returned history leaves out.
template <class D>
history run_native(const scenario& s, std::uint64_t seed, bool jitter, history* aside = nullptr) {
  oplog::reset();  // before the threads start: the log holds this run only
  D d(4);
  recorder clock;
  std::mutex fault_mutex;
  std::string fault;  // the first exception a thread threw
  std::uint64_t next_value = 0;
  std::vector<std::vector<operation>> logs(s.thieves.size() + 1);
  std::vector<std::unique_ptr<detail::shared_deque<D>>> shared(s.thieves.size());
  if constexpr (batch_stealing_deque<D>)
    for_each_stolen_from(
        s, [&](std::size_t i) { shared[i] = std::make_unique<detail::shared_deque<D>>(); });
  const std::size_t pushes = s.prefix.size() + s.owner.size();  // at most
  for (owner_step step : s.prefix)
    detail::owner_do(d, step, next_value, clock, logs[0]);
  const int threads = static_cast<int>(s.thieves.size()) + 1;
  stress::detail::run_together(threads, [&](int i) {
    const auto me = static_cast<std::uint32_t>(i);
    stress::jitter j(seed, me, jitter);
    try {
      if (i == 0) {
        for (owner_step step : s.owner) {
          detail::owner_do(d, step, next_value, clock, logs[0]);
          j();
        }
        return;
      }
      std::unique_ptr<D> mine;
      if constexpr (batch_stealing_deque<D>) mine = std::make_unique<D>(64);
      detail::shared_deque<D>* own = shared[me - 1].get();
      for (thief_step step : s.thieves[me - 1]) {
        detail::thief_do(d, mine.get(), step, me, clock, logs[me], own, shared, pushes);
        j();
      }
      if constexpr (batch_stealing_deque<D>) {
        if (own != nullptr)  // its batch waited for the others' steals until now
          own->popped = pop_until_empty(
              [&] { return stress::detail::logged_pop(own->d, me, oplog::op::own_pop); }, pushes);
      }
    } catch (...) {  // the thread stops; the others run their (finite) steps to the end
      std::string what = oplog::threw(std::current_exception(), *oplog::active(), i);
      const std::scoped_lock lock(fault_mutex);
      if (fault.empty()) fault = std::move(what);
    }
  });
  if (!fault.empty()) throw native_fault(fault);
  if constexpr (batch_stealing_deque<D>) detail::complete_batches(shared, logs, next_value);
  // The final drain, recorded: a lost value makes its "empty" illegal. At most one pop more
  // than values were pushed: a pop that never reports empty has by then returned a value
  // twice or one never pushed, which the history shows, instead of draining forever.
  for (std::uint64_t k = 0; k <= next_value; ++k) {
    const std::size_t before = logs[0].size();
    detail::owner_do(d, owner_step::pop, next_value, clock, logs[0]);
    if (!logs[0][before].has_value) break;
  }
  history h;
  for (auto& l : logs)
    for (operation& op : l) {
      if (op.from_thief == 0)
        h.push_back(std::move(op));
      else if (aside != nullptr)
        aside->push_back(std::move(op));
    }
  return h;
}

}  // namespace stealcheck::stress::lincheck

#include "stealcheck/detail/stress/lincheck.hpp"
#include "stealcheck/detail/stress/lincheck_run.hpp"

namespace stealcheck::stress::lincheck {

/// A failure_finder for variant Tag: runs the scenario natively `runs` times (seeds
/// seed, seed+1, ...) and returns the first history that is not linearizable under the spec
/// `kind` (the variant's variant_info::spec), or the first exception an operation threw
/// (found_failure::cause).
template <class Tag>
failure_finder native_finder(spec::spec_kind kind, int runs, bool jitter,
                             std::uint64_t* histories = nullptr) {
  return [kind, runs, jitter, histories](const scenario& s,
                                         std::uint64_t seed) -> std::optional<found_failure> {
    using D = sized<typename Tag::template deque<std::uint64_t, native_memory>>;
    for (int i = 0; i < runs; ++i) {
      history h, aside;
      try {
        h = run_native<D>(s, seed + static_cast<std::uint64_t>(i), jitter, &aside);
      } catch (const native_fault& f) {  // thrown on a thread: named there
        return found_failure{{}, {}, f.what()};
      } catch (...) {  // thrown in the prefix or the drain, on this thread
        return found_failure{
            {},
            {},
            oplog::threw(std::current_exception(), *oplog::active(), oplog::current_thread())};
      }
      if (histories != nullptr) ++*histories;
      if (!check(h, kind).linearizable)
        return found_failure{std::move(h), {}, {}, {}, std::move(aside)};
    }
    return std::nullopt;
  };
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
