// stress/scenarios.hpp: the bodies of the stress scenarios and stress::run, which picks one
// (users include stress/run.hpp).
// Each scenario is an owner body and a thief body handed to one harness, `owner_and_thieves`.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "stealcheck/detail/stress/scenario_base.hpp"

namespace stealcheck::stress::detail {

/// The owner pushes the next id; false (and push_full counted) if a bounded deque is full.
template <class D>
bool owner_push(D& d, take_log& log, counters& k) {
  if (!tracked_push(d, log, std::uint64_t{k.pushed})) {
    ++k.push_full;
    return false;
  }
  ++k.pushed;
  return true;
}

/// The owner's d.size_hint(), recorded.
template <class D>
std::int64_t logged_size_hint(D& d) {
  oplog::begin(0, oplog::op::size_hint);
  const std::int64_t n = d.size_hint();
  oplog::finish(0, oplog::outcome::value, static_cast<std::uint64_t>(n));
  return n;
}

/// The owner pops once and records what it got; false if the deque was empty.
template <class D>
bool owner_pop(D& d, take_log& log, counters& k) {
  if (auto v = logged_pop(d, 0)) {
    ++k.popped;
    log.record(id_of(*v), 0, taker_kind::pop, k.pushed);  // the owner knows what it pushed
    return true;
  }
  return false;
}

/// Values a run keeps in its deque at most (about): the thieves of an oversubscribed run take
/// fewer than the owner's bursts leave, and a long run's deque would grow with its length.
/// Runs of the default sizes stay below it.
inline constexpr std::uint64_t live_cap = std::uint64_t{1} << 18;

/// Called by the owner once a round: every 32nd call it looks at the thieves' counts (reading
/// their cache lines every round would slow them), and past live_cap values in the deque it
/// pops down to half of it, as a worker runs its own backlog.
template <class D>
void pop_backlog(D& d, take_log& log, counters& k) {
  const value_ledger* l = log.ledger();
  if ((++k.rounds & 31) != 0 || l == nullptr || l->live(k.pushed) <= live_cap) return;
  while (l->live(k.pushed) > live_cap / 2 && owner_pop(d, log, k)) {
  }
}

/// Thread 0 runs owner(jitter&, log&, counters&); threads 1..thieves run
/// thief(me, jitter&, log&, counters&, done) until the owner has finished (done == true).
/// Then, unless `drain` is false, the owner drains d and conservation is checked.
template <class D, class Owner, class Thief>
result owner_and_thieves(scenario_kind which, const config& c, int thieves, D& d, Owner owner,
                         Thief thief, bool drain = true) {
  result r;
  r.which = which;
  std::vector<take_log> logs(static_cast<std::size_t>(thieves) + 1);
  std::vector<counters> ks(static_cast<std::size_t>(thieves) + 1);
  std::atomic<bool> done{false};
  // The ledger's window: the ids an op-bounded run pushes, at most the default (8 MB), which a
  // run by time uses: older values are forgotten once judged (stress/ledger.hpp).
  value_ledger ledger(spec::allows_duplicates(c.spec),
                      c.seconds > 0 ? value_ledger::default_window
                                    : static_cast<std::size_t>(std::min<std::uint64_t>(
                                          c.ops + 1024, value_ledger::default_window)));
  for (auto& l : logs)
    ledger.attach(l);
  oplog::reset();  // before the threads start: the log holds this run only
  const auto start = std::chrono::steady_clock::now();
  run_together(thieves + 1, [&](int i) {
    const auto me = static_cast<std::uint32_t>(i);
    jitter j(c.seed, me, c.jitter);
    if (i == 0) {
      owner(j, logs[0], ks[0]);
      done.store(true, std::memory_order_release);  // pairs with the thieves' acquire loads
    } else {
      thief(me, j, logs[me], ks[me], done);
    }
  });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& k : ks)
    k.add_to(r);
  if (drain) drain_and_check(d, logs, r);
  if (!ledger.verdict().empty()) {  // the first wrong result, as it returned
    r.ok = false;
    r.failure = ledger.verdict();
    r.kind = ledger.verdict_kind();
  }
  return r;
}

/// The thieves of most scenarios: steal until the owner is done. With `batch`, odd thieves of
/// a batch-stealing variant use steal_into a deque of their own.
template <class D>
auto plain_thief(D& d, bool batch) {
  return [&d, batch](std::uint32_t me, jitter& j, take_log& log, counters& k,
                     const std::atomic<bool>& done) {
    std::unique_ptr<D> mine;
    if (batch && (me % 2) == 1) mine = std::make_unique<D>(64);
    // at least one steal, even when the owner is done before this thread first runs (an
    // oversubscribed machine): every thief exercises steal in every run
    do {
      steal_once(d, mine.get(), me, log, k);
      j();
    } while (!done.load(std::memory_order_acquire));  // pairs with the owner's release store
  };
}

template <class D>
result mixed(const config& c, std::int64_t capacity) {
  D d(capacity);
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    stop_rule stop(c, k);
    std::uint64_t ops = 0;
    while (!stop.done(ops)) {
      const std::uint64_t r = j.next();
      if (r % 3 != 0) {
        std::uint64_t burst = 1 + (r >> 8) % 8;
        if ((r >> 16) % 32 == 0) burst = 64;  // a large burst forces growth
        for (std::uint64_t b = 0; b < burst; ++b, ++ops) {
          if (!owner_push(d, log, k)) break;
        }
      } else {
        for (std::uint64_t b = 0; b < 1 + (r >> 8) % 4; ++b, ++ops) {
          owner_pop(d, log, k);
        }
      }
      pop_backlog(d, log, k);
      j();
    }
  };
  return owner_and_thieves(scenario_kind::mixed, c, c.thieves, d, owner,
                           plain_thief(d, batch_stealing_deque<D>));
}

template <class D>
result spsc(const config& c) {
  D d(64);
  std::atomic<bool> corrupt_seen{false};
  std::string failure;
  failure_kind kind = failure_kind::wrong_result;
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    stop_rule stop(c, k);
    for (std::uint64_t ops = 0; !stop.done(ops); ++ops) {
      while (!tracked_push(d, log, payload(k.pushed)))
        std::this_thread::yield();  // bounded: wait
      // the thief alone takes: past live_cap the owner waits for it (an owner_shares deque
      // shares only as its owner pushes: there it goes on)
      while (!c.owner_shares && log.ledger()->live(k.pushed) > live_cap)
        std::this_thread::yield();
      ++k.pushed;
      j();
    }
  };
  auto thief = [&](std::uint32_t me, jitter& j, take_log& log, counters& k,
                   const std::atomic<bool>& done) {
    std::uint64_t last = 0;
    bool first = true;
    for (;;) {
      const bool finished = done.load(std::memory_order_acquire);  // pairs: owner's release
      auto s = logged_steal(d, me);
      if (!s.has_value()) {
        // An owner_shares deque keeps what its stopped owner did not share, and a deque whose
        // thieves never report empty says abort when it finds nothing: the drain takes the rest.
        const bool abort_ends = c.owner_shares || !c.thieves_report_empty;
        if (finished && (s.is_empty() || (abort_ends && s.is_abort()))) break;
        continue;
      }
      ++k.stolen;
      log.record(s->id, me, taker_kind::steal);
      const bool in_order = !spec::ordered(c.spec) || first || s->id > last;
      if (failure.empty() && (!s->intact() || !in_order)) {
        // a corrupt payload is a wrong result; a steal out of order, one no order explains
        kind = s->intact() ? failure_kind::not_linearizable : failure_kind::wrong_result;
        failure =
            !s->intact()
                ? fmt::format("value {} read with a corrupt payload (publication)", s->id)
                : fmt::format("value {} stolen after value {} (FIFO order broken)", s->id, last);
        corrupt_seen.store(true, std::memory_order_relaxed);  // only read after the join
      }
      last = s->id;
      first = false;
      j();
    }
  };
  result r = owner_and_thieves(scenario_kind::spsc, c, 1, d, owner, thief);
  if (corrupt_seen.load(std::memory_order_relaxed) && r.ok) {  // after the join
    r.ok = false;
    r.failure = failure;
    r.kind = kind;
  }
  return r;
}

template <class D>
result stampede(const config& c) {
  D d(64);
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    stop_rule stop(c, k);
    // A round pushes 1-3 items and waits for the thieves: it counts as 10 operations.
    for (std::uint64_t ops = 0; !stop.done(ops); ops += 10) {
      const std::uint64_t n = 1 + j.next() % 3;  // few items, many thieves
      for (std::uint64_t i = 0; i < n; ++i) {
        if (tracked_push(d, log, std::make_unique<std::uint64_t>(k.pushed))) ++k.pushed;
      }
      // Waits for the thieves, except on an owner_shares deque: there they cannot take what
      // the owner has not shared (its pop below shares half when asked), so waiting only spins.
      for (int spins = 0; !c.owner_shares && logged_size_hint(d) > 0 && spins < 64; ++spins)
        std::this_thread::yield();
      owner_pop(d, log, k);
      pop_backlog(d, log, k);
      j();
    }
  };
  const int thieves = std::max(c.thieves, 2) * 2;
  return owner_and_thieves(scenario_kind::stampede, c, thieves, d, owner, plain_thief(d, false));
}

template <class D>
result last_item(const config& c) {
  D d(64);
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    stop_rule stop(c, k);
    for (std::uint64_t ops = 0; !stop.done(ops);) {
      // Rounds of one item (the last-item CAS race) and of two items, where the owner pops
      // index 1 without a CAS while thieves take indices 0 and 1: only pop's seq_cst fence
      // stops both from taking index 1 (the oracle's "pop vs two steals").
      const std::uint64_t n = 1 + (j.next() & 1);
      for (std::uint64_t i = 0; i < n; ++i, ++ops) {
        owner_push(d, log, k);
      }
      for (std::uint64_t i = 0; i < n; ++i, ++ops) {
        owner_pop(d, log, k);
      }
      if ((j.next() & 15) == 0) j();  // rarely: the race needs the pops to follow fast
    }
  };
  auto thief = [&](std::uint32_t me, jitter&, take_log& log, counters& k,
                   const std::atomic<bool>& done) {
    while (!done.load(std::memory_order_acquire)) {  // pairs with the owner's release store
      steal_once(d, static_cast<D*>(nullptr), me, log, k);
    }
  };
  return owner_and_thieves(scenario_kind::last_item, c, c.thieves, d, owner, thief);
}

template <class D>
result resize(const config& c) {
  D d(1);
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    stop_rule stop(c, k);
    std::uint64_t ops = 0;
    for (unsigned round = 0; !stop.done(ops); ++round) {
      const std::uint64_t burst = std::uint64_t{1} << (round % 11);  // 1 .. 1024
      for (std::uint64_t i = 0; i < burst; ++i, ++ops) {
        if (!owner_push(d, log, k)) break;
      }
      for (std::uint64_t i = 0; i < burst / 2; ++i, ++ops) {
        owner_pop(d, log, k);
      }
      pop_backlog(d, log, k);
      j();
    }
  };
  return owner_and_thieves(scenario_kind::resize, c, c.thieves, d, owner, plain_thief(d, false));
}

template <class D>
result no_starvation(const config& c) {
  D d(64);
  const int thieves = std::max(c.thieves, 1);
  std::vector<std::atomic<std::uint64_t>> wins(static_cast<std::size_t>(thieves) + 1);
  auto all_won = [&] {
    for (std::size_t i = 1; i < wins.size(); ++i) {
      if (wins[i].load(std::memory_order_relaxed) == 0) return false;  // a counter, no sync
    }
    return true;
  };
  std::vector<std::atomic<std::uint64_t>> tries(wins.size());
  std::atomic<std::uint64_t> slow_pushes{0};
  auto owner = [&](jitter& j, take_log& log, counters& k) {
    // "Eventually" under a fair scheduler: push at full speed for the run's length, then, while
    // a thief has not won, one push a millisecond (at most 2,000), so that a thief an
    // oversubscribed or sanitized machine had not scheduled gets the CPU. A thief that never
    // wins through both phases is starved by the deque, not by the machine.
    stop_rule stop(c, k);
    std::uint64_t ops = 0;
    for (; !stop.done(ops) && !all_won(); ++ops) {
      owner_push(d, log, k);
      std::this_thread::yield();  // give every thief its chance
      j();
    }
    for (std::uint64_t slow = 0; slow < 2000 && !all_won(); ++slow) {
      owner_push(d, log, k);
      slow_pushes.store(slow + 1, std::memory_order_relaxed);  // read after the join
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  auto thief = [&](std::uint32_t me, jitter& j, take_log& log, counters& k,
                   const std::atomic<bool>& done) {
    while (!done.load(std::memory_order_acquire)) {       // pairs with the owner's release store
      tries[me].fetch_add(1, std::memory_order_relaxed);  // a counter, read after the join
      if (steal_once(d, static_cast<D*>(nullptr), me, log, k)) {
        wins[me].fetch_add(1, std::memory_order_relaxed);
      }
      j();
    }
  };
  result r = owner_and_thieves(scenario_kind::no_starvation, c, thieves, d, owner, thief);
  for (std::size_t i = 1; i < wins.size() && r.ok; ++i) {
    if (wins[i].load(std::memory_order_relaxed) == 0) {
      r.ok = false;
      r.kind = failure_kind::no_progress;
      r.failure = fmt::format(
          "thief {} never succeeded in {} steal attempts while the owner pushed {} values (the "
          "last {} one a millisecond)",
          i, tries[i].load(std::memory_order_relaxed), r.pushed,
          slow_pushes.load(std::memory_order_relaxed));
    }
  }
  return r;
}

template <class D>
result destructors(const config& c) {
  const std::uint64_t cap = c.ops + 64;
  std::vector<std::atomic<std::uint32_t>> destroyed(cap);
  result r;
  {
    D d(16);
    auto owner = [&](jitter& j, take_log& log, counters& k) {
      stop_rule stop(config{c.thieves, std::min(c.ops, cap - 64), 0, c.seed, c.jitter}, k);
      for (std::uint64_t ops = 0; !stop.done(ops); ++ops) {
        if ((j.next() & 3) != 0) {
          if (push_counted(d, log, k.pushed, destroyed.data())) ++k.pushed;
        } else if (auto v = logged_pop(d, 0)) {
          ++k.popped;  // destroyed right here
        }
        j();
      }
      for (int i = 0; i < 32; ++i) {  // leave values in the deque for its destructor
        if (push_counted(d, log, k.pushed, destroyed.data())) ++k.pushed;
      }
    };
    r = owner_and_thieves(scenario_kind::destructors, c, c.thieves, d, owner, plain_thief(d, false),
                          /*drain=*/false);
  }  // d destroyed: the values left in it must be destroyed now
  for (std::uint64_t id = 0; id < r.pushed && r.ok; ++id) {
    const std::uint32_t n = destroyed[id].load(std::memory_order_relaxed);  // after the join
    if (n != 1) {
      r.ok = false;
      r.kind = n == 0 ? failure_kind::leak : failure_kind::double_free;
      r.failure = n == 0 ? fmt::format("value {} never destroyed (leaked)", id)
                         : fmt::format("value {} destroyed {} times", id, n);
    }
  }
  return r;
}

}  // namespace stealcheck::stress::detail

namespace stealcheck::stress {

namespace detail {
template <class Tag, class V>
using deque_of = sized<typename Tag::template deque<V, native_memory>>;
}

namespace detail {
/// One deque's part of stress::run.
template <class Tag, value_support Values>
result run_one(scenario_kind s, const config& c) {
  switch (s) {
    case scenario_kind::mixed:
      return detail::mixed<deque_of<Tag, std::uint64_t>>(c, 16);
    case scenario_kind::last_item:
      return detail::last_item<deque_of<Tag, std::uint64_t>>(c);
    case scenario_kind::resize:
      return detail::resize<deque_of<Tag, std::uint64_t>>(c);
    case scenario_kind::no_starvation:
      return detail::no_starvation<deque_of<Tag, std::uint64_t>>(c);
    case scenario_kind::spsc:
    case scenario_kind::stampede:
    case scenario_kind::destructors:
      break;
  }
  if constexpr (Values == value_support::any) {
    switch (s) {
      case scenario_kind::spsc:
        return detail::spsc<deque_of<Tag, detail::payload>>(c);
      case scenario_kind::stampede:
        return detail::stampede<deque_of<Tag, detail::boxed_id>>(c);
      case scenario_kind::destructors:
        return detail::destructors<deque_of<Tag, detail::counted>>(c);
      default:
        break;
    }
  }
  result r;
  r.which = s;
  r.skipped = true;
  r.failure = "needs values with destructors (the variant holds scalar values only)";
  return r;
}

/// Adds a later deque's part of a run by time to the run's result.
inline void add_part(result& total, const result& part) {
  total.ok = part.ok;
  total.failure = part.failure;
  total.kind = part.kind;
  total.pushed += part.pushed;
  total.push_full += part.push_full;
  total.popped += part.popped;
  total.stolen += part.stolen;
  total.steal_empty += part.steal_empty;
  total.steal_abort += part.steal_abort;
  total.drained += part.drained;
  total.renewals += part.renewals;
  total.seconds += part.seconds;
}
}  // namespace detail

/// Runs scenario s on Tag's deque. Scenarios that push boxed, move-only values (spsc, stampede,
/// destructors) run only when Values is value_support::any; otherwise the result is skipped.
/// A run by time whose heap grows by half the child's memory ceiling (stop_rule) drains,
/// checks and destroys its deque and goes on with a fresh one for the time left, so memory a
/// deque keeps until it is destroyed (retired rings) does not end a long run at the ceiling;
/// memory it never frees still grows from deque to deque, and the ceiling still stops it.
/// result::renewals counts the fresh deques.
template <class Tag, value_support Values = value_support::any>
result run(scenario_kind s, const config& c) {
  const auto start = std::chrono::steady_clock::now();
  result total = detail::run_one<Tag, Values>(s, c);
  for (std::uint64_t parts = 1; total.ok && total.renewals == parts; ++parts) {
    config rest = c;
    rest.seconds -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (rest.seconds <= 0) break;
    // the destroyed deque's memory back to the system: the memory ceiling counts resident
    // pages, and freed rings of many sizes would otherwise stay resident, fragmented
    oplog::return_free_memory();
    detail::add_part(total, detail::run_one<Tag, Values>(s, rest));
  }
  return total;
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
