// bench/uts_tree.hpp: the trees of Unbalanced Tree Search as the literature runs them (Olivier,
// Huan, Liu, Prins, Dinan, Sadayappan, Tseng, "UTS: An Unbalanced Tree Search Benchmark",
// LCPC 2006): every node carries a 20-byte SHA-1 state, child i's state is SHA-1(parent's state,
// i as 4 big-endian bytes), the root's is SHA-1(16 zero bytes, the seed as 4 big-endian bytes),
// and a node's number of children is drawn from the last 4 bytes of its state (big-endian, top
// bit cleared, over 2^31). SHA-1 comes from Nettle (Debian's nettle-dev); nothing of it is
// written here. Layout and rules follow the UTS reference implementation (uts.c: uts_initRoot,
// uts_numChildren, uts_numChildren_bin, uts_numChildren_geo; rng/brg_sha1.c: rng_init,
// rng_spawn, rng_rand), rewritten here.
//
// The sample trees and their sizes are those of UTS's sample_workloads.csh (the list of "Small
// Workloads" and "Large Workloads" with the tree size to verify a run by):
//   T1  geometric, fixed shape, depth 10, b0 = 4, seed 19                  4,130,071 nodes
//   T3  binomial, b0 = 2000, q = 0.124875, m = 8, seed 42                   4,112,897 nodes
//   T1L geometric, fixed shape, depth 13, b0 = 4, seed 29                102,181,082 nodes
//   T3L binomial, b0 = 2000, q = 0.200014, m = 5, seed 7                 111,345,631 nodes
//
// Thread role: pure functions, any thread. Complexity: one SHA-1 of 24 bytes (one block) per
// uts_spawn, O(1) otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace stealcheck::bench {

enum class uts_shape : std::uint8_t {
  binomial,        ///< the root has b0 children; every other node m with probability q, else 0
  geometric_fixed  ///< geometric with mean b0 at every depth below gen_mx, none at gen_mx
};

/// One UTS tree. published_nodes: the size UTS's sample workloads give for it (0 when the tree
/// is not one of them, as the reduced trees of --quick).
struct uts_tree {
  std::string_view name;
  uts_shape shape = uts_shape::binomial;
  double b0 = 0;   ///< root branching factor (binomial), mean branching factor (geometric)
  int gen_mx = 0;  ///< depth of the geometric tree (its nodes at gen_mx have no children)
  double q = 0;    ///< binomial: probability that a non-root node has m children
  int m = 0;       ///< binomial: children of a non-leaf, non-root node
  std::int32_t seed = 0;
  std::uint64_t published_nodes = 0;
};

inline constexpr uts_tree uts_tree_t1{"T1", uts_shape::geometric_fixed, 4, 10, 0, 0, 19, 4130071};
inline constexpr uts_tree uts_tree_t3{"T3", uts_shape::binomial, 2000, 0, 0.124875, 8, 42, 4112897};
inline constexpr uts_tree uts_tree_t1l{"T1L",    uts_shape::geometric_fixed, 4, 13, 0, 0, 29,
                                       102181082};
inline constexpr uts_tree uts_tree_t3l{"T3L",    uts_shape::binomial, 2000, 0, 0.200014, 5, 7,
                                       111345631};

/// A node: its SHA-1 state and its depth (the root is at 0).
struct uts_sha1_node {
  std::array<std::uint8_t, 20> state{};
  int height = 0;
};

/// UTS's cap on the children of any node but a binomial root (MAXNUMCHILDREN in uts.h).
inline constexpr int uts_max_children = 100;

uts_sha1_node uts_root(const uts_tree& t) noexcept;
/// Child i of parent (i >= 0).
uts_sha1_node uts_spawn(const uts_sha1_node& parent, int i) noexcept;
/// The number of children of n in tree t (0 for a leaf).
int uts_num_children(const uts_tree& t, const uts_sha1_node& n) noexcept;

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
