// stress/stress.hpp: native multi-threaded stress of a deque variant on real cores.
//
// One owner thread (pushes and pops) and N thieves run a scenario from crossbeam-deque's test
// ladder; values are unique ids, and after all threads join and the owner drains the deque,
// stress/ledger.hpp checks conservation (every pushed value taken exactly once, none
// invented), naming the offending value on failure. Runs oversubscribe the machine (owner +
// thieves > cores) and inject seeded random yields and short spins between operations to widen
// race windows. The seed fixes the operation mix and the injected delays; thread timing is not
// reproducible, so a replay re-runs the same mix, not the same interleaving (the model checker,
// models/, is where executions replay exactly).
//
// Scenarios (crossbeam-deque tests/lifo.rs ladder):
//   mixed          owner mixes push bursts (some large, forcing growth) and pops; thieves steal
//                  (batch variants: half of them use steal_into). Conservation.
//   spsc           owner only pushes, one thief steals: stolen values arrive in push order, and
//                  each boxed payload is intact (publication through the push fence).
//   stampede       many thieves, few items at a time (a round of 1-3 pushes counts as 10
//                  operations); boxed values, so a duplicate is also a
//                  double free (caught by ASan in the asan-ubsan preset).
//   last_item      owner push then pop of a single item, many times, racing thieves: the
//                  SB+scfs race of Chase-Lev's last item (catches chase_lev_no_pop_fence).
//   resize         capacity 1 and bursts of growing size while thieves steal.
//   no_starvation  every thief eventually succeeds while the owner keeps pushing (at full
//                  speed for the run, then one push a millisecond, at most 2,000, until every
//                  thief has won: a thief the machine had not scheduled gets the CPU).
//   destructors    non-trivial values: each destroyed exactly once, including those left in
//                  the deque when it is destroyed.
//
// Every deque call is recorded in the calling thread's ring of recent operations
// (stress/oplog.hpp); run in a child (stress/isolate.hpp), a scenario whose deque throws,
// crashes or hangs fails with one line naming that, the thread, its operation and the
// operations before it.
//
// Thread role: call run() from any one thread; it starts and joins its own threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/random.hpp"

namespace stealcheck::stress {

enum class scenario_kind : std::uint8_t {
  mixed,
  spsc,
  stampede,
  last_item,
  resize,
  no_starvation,
  destructors
};

inline constexpr std::array<scenario_kind, 7> all_scenarios = {
    scenario_kind::mixed,      scenario_kind::spsc,   scenario_kind::stampede,
    scenario_kind::last_item,  scenario_kind::resize, scenario_kind::no_starvation,
    scenario_kind::destructors};

/// True when scenario s pushes boxed, move-only values with destructors.
constexpr bool needs_any_values(scenario_kind s) noexcept {
  return s == scenario_kind::spsc || s == scenario_kind::stampede ||
         s == scenario_kind::destructors;
}

std::string_view scenario_name(scenario_kind s) noexcept;
std::optional<scenario_kind> parse_scenario(std::string_view name) noexcept;

struct config {
  int thieves = 3;            ///< thief threads; with the owner this oversubscribes 2 cores
  std::uint64_t ops = 20000;  ///< owner operations (stop condition unless seconds > 0)
  double seconds = 0;         ///< if > 0: run this long instead of `ops`
  std::uint64_t seed = 1;     ///< fixes the operation mix and the injected delays
  bool jitter = true;         ///< inject random yields / short spins between operations
  bool owner_shares = false;  ///< the variant's variant_info::owner_shares (spsc's thief)
  /// The variant's variant_info::spec: at_least_once lets the ledger accept a value taken
  /// more than once and spsc's thief take values out of push order.
  spec::spec_kind spec = spec::spec_kind::lifo_owner;
  /// The variant's variant_info::thieves_report_empty: false lets spsc's thief stop at an
  /// abort once the owner has finished.
  bool thieves_report_empty = true;

  /// Takes owner_shares, spec and thieves_report_empty from the variant's description.
  void describe(const variant_info& info) {
    owner_shares = info.owner_shares;
    spec = info.spec;
    thieves_report_empty = info.thieves_report_empty;
  }
};

struct result {
  scenario_kind which = scenario_kind::mixed;
  bool ok = true;
  bool skipped = false;  ///< the scenario does not apply to the variant (`failure` says why)
  std::string failure;   ///< one line naming the offending value when !ok
  /// What failed when !ok (deques/failure.hpp).
  failure_kind kind = failure_kind::wrong_result;
  std::uint64_t pushed = 0, push_full = 0, popped = 0, stolen = 0, steal_empty = 0, steal_abort = 0,
                drained = 0;
  /// A run by time: the fresh deques it went on with after the first, each when the heap had
  /// grown by half the memory ceiling (stress/scenarios.hpp, run).
  std::uint64_t renewals = 0;
  double seconds = 0;
};

/// A seeded per-thread source of injected delays (splitmix64).
class jitter {
 public:
  jitter(std::uint64_t seed, std::uint64_t thread, bool on) noexcept
      : state_(seed ^ (splitmix64_gamma * (thread + 1))), on_(on) {}
  std::uint64_t next() noexcept { return splitmix64_next(state_); }
  /// Between two operations: 1/64 yield, 1/8 a spin of up to 63 pauses, else nothing.
  void operator()() noexcept;

 private:
  std::uint64_t state_;
  bool on_;
};

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
