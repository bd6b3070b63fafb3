// stress/lin_model.hpp: lincheck scenarios explored exhaustively by the model checker.
//
// model_finder<Tag>(options) turns each generated scenario (stress/scenario.hpp) into a model
// checker client: the owner runs the prefix, spawns one model thread per thief, runs its
// steps, joins, and drains; every operation is recorded with its first and last event, and
// *every* consistent RC11 (or SC) execution is checked by models/front/history.hpp: no value taken
// twice (unless the spec allows it), none invented, nothing lost, and some linearization that
// respects happens-before between operations is a legal run of the variant's spec
// (deques/spec.hpp). Unlike native mode this is
// deterministic: a failing scenario fails on every replay, so RapidCheck's shrinking is exact.
//
// Values: the i-th successful push pushes i (from 1). Use small scenarios
// (run_options::small): the number of executions grows exponentially with the scenario.
// Thread role: the RapidCheck thread. Complexity: one exhaustive exploration per scenario.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/stress/lincheck_run.hpp"
#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::stress::lincheck {

/// The scenario as a model-checker client of deque template D, constructed with `capacity`
/// (0: 4, as the generated scenarios' default; thieves' own deques for batch steals: 4).
/// A thief whose deque others steal from (steal@N) has it before the threads start and pops it
/// empty after its last step, not at once; the values it popped, the values the others stole
/// there and what is left after the join form its batch (valid_thief_steps: it takes one). On a
/// variant without batch steals, steal@N is a steal.
template <template <class, class> class D>
void scenario_client(model::client& c, const scenario& s, spec::spec_kind kind,
                     std::int64_t capacity = 0) {
  using deque = sized<D<model::clients::value, model::memory>>;
  using model::clients::value;
  model::clients::owned<deque> o(model::clients::cap_or(capacity, 4), kind);
  value next = 1;
  auto owner_step_do = [&](owner_step step) {
    if (step == owner_step::push) {
      o.push(c, next++);
    } else {
      o.pop(c);
    }
  };
  for (owner_step step : s.prefix)
    owner_step_do(step);
  // thief i's deque when others steal from it; the batch it took there (its operation's
  // index and what it popped); the values the others stole from it
  struct shared_deque {
    std::unique_ptr<deque> d;
    std::size_t at = 0;
    bool opened = false;
    std::vector<value> popped, stolen;
  };
  std::vector<shared_deque> shared(s.thieves.size());
  if constexpr (batch_stealing_deque<deque>)
    for_each_stolen_from(s, [&](std::size_t i) { shared[i].d = std::make_unique<deque>(4); });
  const std::size_t pushes = s.prefix.size() + s.owner.size();  // at most, before the join
  std::vector<std::size_t> threads;
  threads.reserve(s.thieves.size());
  for (std::size_t i = 0; i < s.thieves.size(); ++i) {
    threads.push_back(c.spawn([&, &steps = s.thieves[i], &own = shared[i]] {
      std::unique_ptr<deque> mine;
      for (thief_step t : steps) {
        if constexpr (batch_stealing_deque<deque>) {
          if (t == thief_step::steal_batch && own.d) {
            own.at = o.steal_into_open(c, *own.d);
            own.opened = true;
            continue;
          }
          if (t == thief_step::steal_batch) {
            if (!mine) mine = std::make_unique<deque>(4);
            o.steal_into(c, *mine, {});
            continue;
          }
          if (t.k == thief_step::kind::steal_thief) {
            shared_deque& from = shared[t.from - 1U];
            o.h.record_steal_from_thief(c, t.from, [&](model::deque_op& x) {
              auto r = from.d->steal();
              if (r.has_value()) from.stolen.push_back(*r);
              x.set_stolen(std::move(r));
            });
            continue;
          }
        }
        o.steal(c);
      }
      if constexpr (batch_stealing_deque<deque>) {
        if (own.d)  // its batch waited for the others' steals until now
          own.popped = pop_until_empty([&] { return own.d->pop(); }, pushes);
      }
    }));
  }
  for (owner_step step : s.owner)
    owner_step_do(step);
  for (std::size_t t : threads)
    c.join(t);
  if constexpr (batch_stealing_deque<deque>) {
    // the batches, the latest operation first (completing one may insert steps after it)
    std::vector<shared_deque*> open;
    for (shared_deque& sd : shared)
      if (sd.opened) open.push_back(&sd);
    std::sort(open.begin(), open.end(), [](auto* x, auto* y) { return x->at > y->at; });
    for (shared_deque* sd : open) {
      c.operation("pop of the drain of a thief's deque");
      const std::vector<value> left =
          pop_until_empty([&] { return sd->d->pop(); }, o.pushed.size());
      c.operation(nullptr);
      o.complete_batch(sd->at, stolen_batch_rest(std::move(sd->stolen), left, sd->popped));
    }
  }
  o.finish(c);
}

/// A model checker's bug as the lincheck and fuzz reports print it: kind, message, the failing
/// execution's trace and its replay token.
inline std::string bug_text(const model::bug_report& b) {
  return fmt::format("{}\n{}  replay token: {}", model::kind_and_message(b), b.trace,
                     b.replay_token);
}

/// A failure_finder that model-checks each scenario exhaustively under `opt`, its histories
/// against the spec `kind` (the variant's variant_info::spec), the deque constructed with
/// `capacity` (0: the scenarios' default, see scenario_client).
template <class Tag>
failure_finder model_finder(spec::spec_kind kind, const model::options& opt,
                            std::uint64_t* executions = nullptr, std::int64_t capacity = 0) {
  return [kind, opt, executions, capacity](const scenario& s,
                                           std::uint64_t) -> std::optional<found_failure> {
    const model::result r = model::explore(opt, [&s, kind, capacity](model::client& c) {
      scenario_client<Tag::template deque>(c, s, kind, capacity);
    });
    if (executions != nullptr) *executions += r.complete + r.blocked;
    if (r.ok()) return std::nullopt;
    return found_failure{{}, bug_text(*r.bug), {}, r.bug->failure};
  };
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
