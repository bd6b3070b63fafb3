// litmus/axioms.hpp: candidate execution graphs and the RC11 / SC consistency predicates used
// by the reference enumerator (reference.hpp). Internal to litmus/.
//
// Source: Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing Sequential Consistency in C/C++11",
// PLDI 2017, figure 4 (RC11), with the C++20 release sequence (P0982R1): rs = [W]; (rf; rmw)*.
#pragma once

#include <cstdint>
#include <vector>

#include "litmus/ast.hpp"

namespace stealcheck::litmus::detail {

/// One event. An RMW (a successful cas, an exchange, a fetch op) is one event that both reads
/// and writes; a failed cas is a read with the failure order; a fence has `loc == -1`.
struct event {
  int thread = -1;  ///< -1: the initial write of `loc`
  int loc = -1;
  bool r = false;
  bool w = false;
  mem_order ord = mem_order::relaxed;
  value_t rval = 0;
  value_t wval = 0;
};

/// A relation over at most 64 events: row i is the bitset of j with (i, j) in it.
using relation = std::vector<std::uint64_t>;

/// A candidate execution: events (initial writes first, then each thread's in program order),
/// rf (per event the index of the write it reads from, -1 if not a read), and mo (per location
/// the indices of its writes, initial write first).
struct graph {
  std::vector<event> ev;
  std::vector<int> rf;
  std::vector<std::vector<int>> mo;
};

/// sb: initial writes before every thread event; each thread's events in order.
relation program_order(const std::vector<event>& ev);

/// Whether (sb U rf) is acyclic (checked before mo is chosen, to prune).
bool sb_rf_acyclic(const graph& g, const relation& sb);

/// The model's consistency predicate (RC11 or SC), as in the file comment of reference.hpp.
/// Complexity: O(n^3 / 64) for n events.
bool consistent(const graph& g, const relation& sb, model_kind m);

}  // namespace stealcheck::litmus::detail
