// stress/bind.hpp: the native checkers' bindings of a registered variant
// (harness/registry.hpp): the stress ladder and the linearizability checker.
//
// bind<D, Values>(v) stores, in variant v, the stress scenarios instantiated for D with native
// memory (stress/run.hpp) and the linearizability finders, native (stress/lin_native.hpp) and
// model-checked (stress/lin_model.hpp). `Values` says which values D can hold: with
// value_support::scalar the scenarios that push boxed, move-only values are not instantiated
// (they report "skipped"). The `stress` and `lincheck` checkers and commands find the
// bindings there.
// Thread role: bind during registration; checker units run on the calling thread.
#pragma once

#include <cstdint>
#include <functional>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/stress/lin_model.hpp"
#include "stealcheck/detail/stress/lin_native.hpp"
#include "stealcheck/detail/stress/run.hpp"

namespace stealcheck::stress {

struct binding {
  /// Runs one scenario (in the calling process; wrap it in run_isolated to survive crashes).
  std::function<result(scenario_kind, const config&)> run;
};

/// The `stress` checker: each scenario of the ladder, last_item `last_item_runs` times with
/// consecutive seeds. Values per scenario: `ops` (quick: 20,000; else 200,000), times the scale.
harness::checker checker();

/// The replay command of a stress failure.
harness::command_line replay_command(std::string_view variant, scenario_kind s, int threads,
                                     const config& c);

}  // namespace stealcheck::stress

namespace stealcheck::stress::lincheck {

/// The finders of a variant; `kind` is its spec (variant_info::spec, run_options::spec).
struct binding {
  std::function<failure_finder(spec::spec_kind kind, int runs, bool jitter,
                               std::uint64_t* histories)>
      native;
  /// `capacity`: the deque's initial capacity (0: the scenarios' default, 4).
  std::function<failure_finder(spec::spec_kind kind, std::int64_t capacity, model::options,
                               std::uint64_t* executions)>
      model;
};

/// The `lincheck` checker: generated scenarios run natively (scenarios x runs), then smaller
/// ones model-checked exhaustively; one unit per mode.
harness::checker checker();

/// The replay command of a lincheck failure (all the options the run used).
harness::command_line replay_command(std::string_view variant, std::string_view mode,
                                     const run_options& o, const std::string& reproduce);

}  // namespace stealcheck::stress::lincheck

namespace stealcheck::stress {

template <template <class, class> class D, value_support Values = value_support::any>
void bind(harness::variant& v) {
  using tag = variant_tag<D>;
  v.bind(binding{[](scenario_kind s, const config& c) { return run<tag, Values>(s, c); }});
  v.bind(lincheck::binding{
      [](spec::spec_kind kind, int runs, bool jitter, std::uint64_t* histories) {
        return lincheck::native_finder<tag>(kind, runs, jitter, histories);
      },
      [](spec::spec_kind kind, std::int64_t capacity, model::options o, std::uint64_t* executions) {
        return lincheck::model_finder<tag>(kind, std::move(o), executions, capacity);
      }});
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
