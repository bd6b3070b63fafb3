// harness/random.hpp: splitmix64, the one seeded generator and 64-bit mixer that the checkers,
// the scheduler and the benchmarks share (stress jitter, lincheck's value keys, the
// scheduler's victim selection seeds, UTS node ids, randomized tests).
//
// Source: Steele, Lea, Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA 2014
// (the gamma and the mix of SplittableRandom), with the mixing constants of Vigna's
// splitmix64.c. Thread role: a state belongs to one thread. Complexity: O(1), no allocation.
#pragma once

#include <cstdint>

namespace stealcheck {

/// The golden-ratio increment added to the state before each output.
inline constexpr std::uint64_t splitmix64_gamma = 0x9e3779b97f4a7c15ULL;

/// splitmix64's output function: a bijection of 64-bit words with good avalanche.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Advances `state` by the gamma and returns the mix of the new state.
constexpr std::uint64_t splitmix64_next(std::uint64_t& state) noexcept {
  state += splitmix64_gamma;
  return splitmix64_mix(state);
}

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
