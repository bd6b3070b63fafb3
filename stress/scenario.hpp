// stress/scenario.hpp: a concurrent scenario for linearizability checking.
//
// A scenario is: a sequential prefix run by the owner alone, then a parallel part where the
// owner runs its steps while each thief runs its own, then (after all threads join) a final
// drain by the owner (pop until empty), so that a lost value shows up as an illegal "empty".
// A thief steals from the owner's deque (steal), steals a batch into its own deque and pops it
// empty (steal_batch), or steals from another thief's own deque (steal@N, thief N's deque,
// batch-stealing variants only; a steal elsewhere): the values another thief takes there belong
// to N's batch, so a thief whose deque is stolen from takes exactly one batch
// (valid_thief_steps).
// Values are assigned at run time: the i-th successful push pushes i. RapidCheck generates
// scenarios (stress/lincheck_run.hpp) on the main thread and shrinks failing ones.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stealcheck::stress::lincheck {

enum class owner_step : std::uint8_t { push, pop };
/// One thief step: `steal` and `steal_batch` take from the owner's deque; steal_from(N) steals
/// from thief N's own deque (N from 1, as describe numbers the thieves).
struct thief_step {
  enum class kind : std::uint8_t { steal, steal_batch, steal_thief };
  kind k = kind::steal;
  std::uint8_t from = 0;  ///< steal_thief: the thief whose deque (from 1); else 0
  static const thief_step steal, steal_batch;
  static constexpr thief_step steal_from(std::size_t thief) noexcept {
    return {kind::steal_thief, static_cast<std::uint8_t>(thief)};
  }
  friend constexpr auto operator<=>(const thief_step&, const thief_step&) = default;
};
inline constexpr thief_step thief_step::steal{thief_step::kind::steal, 0};
inline constexpr thief_step thief_step::steal_batch{thief_step::kind::steal_batch, 0};

struct scenario {
  std::vector<owner_step> prefix;
  std::vector<owner_step> owner;
  std::vector<std::vector<thief_step>> thieves;
  friend bool operator==(const scenario&, const scenario&) = default;
};

/// The scenario's operations: the prefix's, the owner's and every thief's steps.
std::size_t steps(const scenario& s) noexcept;

/// "prefix [ push push ] owner [ pop push ] thief1 [ steal steal_batch ] thief2 [ steal@1 ]"
std::string describe(const scenario& s);

/// Whether s's steal@N steps name another thief of s that takes exactly one batch (the values
/// taken from its deque belong to that batch); if not, `error` says which step breaks it.
bool valid_thief_steps(const scenario& s, std::string& error);

/// Makes s valid (valid_thief_steps) the least way: a stolen-from thief's batches after its
/// first become steals, then a steal@N of itself, of no thief or of a thief without a batch
/// becomes a steal.
void repair_thief_steps(scenario& s);

/// Removes thief `t` (from 0): steals from its deque become steals, later thieves' numbers
/// shift down by one.
void remove_thief(scenario& s, std::size_t t);

/// Per thief (from 0): whether some step steals from its deque.
std::vector<bool> stolen_from(const scenario& s);

/// Calls f(i) for every thief i (from 0) whose deque some step steals from (stolen_from): the
/// thieves whose own deque must exist before the threads start.
template <class F>
void for_each_stolen_from(const scenario& s, F f) {
  const std::vector<bool> victims = stolen_from(s);
  for (std::size_t i = 0; i < victims.size(); ++i)
    if (victims[i]) f(i);
}

/// What `pop` (a callable returning an optional value) returns until it reports empty, newest
/// first; at most `bound + 1` values, with `bound` the values ever pushed: a pop that never
/// reports empty has by then returned a value twice or one never pushed, which the history
/// shows, instead of popping forever.
template <class Pop>
auto pop_until_empty(Pop pop, std::size_t bound) {
  std::vector<typename decltype(pop())::value_type> out;
  while (out.size() <= bound)
    if (auto v = pop())
      out.push_back(*v);
    else
      break;
  return out;
}

/// The batch of a thief whose deque the others stole from (steal@N), after the value its
/// steal_into returned, oldest first: what the others stole (from its top, so the oldest; sorted,
/// as values grow with their push), what was left in its deque at the join and what the thief
/// popped after its last step (both popped newest first, so reversed).
template <class V>
std::vector<V> stolen_batch_rest(std::vector<V> stolen, const std::vector<V>& left,
                                 const std::vector<V>& popped) {
  std::sort(stolen.begin(), stolen.end());
  stolen.insert(stolen.end(), left.rbegin(), left.rend());
  stolen.insert(stolen.end(), popped.rbegin(), popped.rend());
  return stolen;
}

/// The scenario `describe` wrote (spaces around the brackets optional; thieves numbered 1, 2,
/// ... in order), or nullopt with `error` naming the first word that does not fit.
std::optional<scenario> parse_scenario(std::string_view text, std::string& error);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
