// models/divide/divide.hpp: one exploration tree divided among shards (machines of a batch
// engine), the division's estimates and counts, and how evenly workers share it. Builds on the
// explorer (models/explore/): a piece of the tree is a subtree named by its path
// (models/explore/walk.hpp), a dive is one random walk (Knuth's estimator), and a shard's
// pieces are explored by the same workers as options::jobs (models/explore/workers.hpp).
//
//   model::shard_options s{.index = 2, .count = 8};
//   model::shard_result r = model::explore_shard(opt, s, body);  // shard 2 of 8
//   // r.run: this shard's executions; the 8 shards' add up to explore(opt, body)'s
//
// Thread role: any one OS thread (options::jobs threads are started and joined inside).
// Errors: none of its own; a bug is reported in the result as explore() reports it.
// Source: Knuth, "Estimating the efficiency of backtrack programs" (Math. Comp. 1975), as
// GenMC's estimation mode uses it; longest-processing-time-first assignment (Graham 1969).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "stealcheck/detail/models/explore/explore.hpp"

namespace stealcheck::model {

/// Sharding over machines: this exploration is shard `index` (0 .. count - 1) of `count`. The
/// tree is divided into pieces (subtrees named by their paths) by splitting the piece with the
/// largest estimated size (random dives, as estimate_exploration) until each is small against
/// the total, and the pieces are assigned to the shards largest first, each to the shard with
/// the least estimated work. All of it is deterministic: the same division and assignment on
/// every machine, which shard_division::fingerprint shows. The shards' executions partition the
/// client's: their counts add up to the sequential ones (`stealcheck merge`). A tree with no
/// branch point is one piece, shard 0's. Combines with options::jobs (the shard's pieces shared
/// among its threads), not with options::replay or max_executions. The estimates are rough on
/// lopsided trees, so the shards' shares are uneven (measure_balance says how much); `counts`
/// evens them.
struct shard_options {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  /// The executions below nodes of the tree, counted by an earlier run of the same client
  /// (shard_division::counted, added up over its shards). The division then takes a node's
  /// count for its size instead of estimating it, and splits only nodes it has a count for
  /// (and their children), so a piece the estimates would leave too large is split: the
  /// shards' shares follow the counts. Counts of another client or version only misguide the
  /// division, never the partition: the shards still add up to the sequential counts.
  std::shared_ptr<const node_counts> counts;
};

/// What a shard's division was, and what it counted.
struct shard_division {
  std::uint64_t pieces = 0;       ///< the pieces the tree was divided into
  std::size_t depth = 0;          ///< the branching depth of the deepest (0: one piece)
  std::uint64_t fingerprint = 0;  ///< of the pieces' paths (FNV-1a): the shards of a run agree
  /// The executions below nodes this shard explored: those on the way to its pieces, and below
  /// a piece, down to counted_depth, the children of each node holding 1/64 of the shard's
  /// executions. The shards' counts add up to the client's (stealcheck merge), which the next
  /// run's division can use (shard_options::counts).
  node_counts counted;
  std::size_t counted_depth = 0;
};

struct shard_result {
  result run;  ///< this shard's executions (and its bug, as explore() reports one)
  shard_division division;
};

/// Explores shard s.index of s.count (see shard_options). With s.count <= 1: the whole tree,
/// as explore(). Complexity: the division's dives (at most 256 per piece, 256 pieces per
/// shard) plus this shard's share of the executions.
shard_result explore_shard(const options& opt, const shard_options& s,
                           const std::function<void(client&)>& body);

/// How big an exploration is, before running it: Knuth's estimator ("Estimating the efficiency
/// of backtrack programs", Math. Comp. 1975), as GenMC's estimation mode uses it. Each sample
/// is one random path from the root of the exploration tree: at each branch point one
/// alternative drawn uniformly; the leaf it reaches counts as the product of the branching
/// factors on the path, an unbiased estimate of the number of leaves (executions). The mean of
/// the samples, with a 95% interval of the mean (normal approximation: mean +- 1.96 sd/sqrt(K);
/// the estimator's distribution is skewed on lopsided trees, so the interval is a guide), and
/// the time on this machine: that estimate times the seconds per execution of a short
/// exploration (at most 2,000 executions). Sequential; options::jobs and shards do not apply.
struct estimate {
  std::uint64_t samples = 0;
  std::uint64_t seed = 0;
  double executions = 0;  ///< complete + blocked
  double low = 0, high = 0;
  double seconds = 0, seconds_low = 0, seconds_high = 0;
  double elapsed = 0;  ///< what the estimate itself took, in seconds
};
estimate estimate_exploration(const options& opt, const std::function<void(client&)>& body,
                              std::uint64_t samples, std::uint64_t seed);

/// How evenly a client's exploration is shared among N workers, in executions, for each N
/// asked for (divide.cpp).
/// - Shards (shard_options): the client is explored once, piece by piece (on
///   options::jobs threads), with the division for the largest N, counting each piece's
///   executions; the division for a smaller N is coarser (the same splits, fewer of them), so
///   each of its pieces holds a known set of those. Each shard's executions follow from the
///   fixed assignment shards use. The division and the assignment run on estimates (dives);
///   the counts are exact.
/// - Shards of a second run: the counts a first run's shards would have written (the nodes
///   down to count_below levels under its deepest piece), and the division for N from them
///   (shard_options::counts); each piece's executions come from the same exploration,
///   which counts nodes deep enough for every such piece.
/// - Jobs (options::jobs): N explorer threads in lockstep, one execution per round each while it
///   has work, giving work away as in a parallel run (a round waits for a thread not yet woken
///   for a piece): the number of rounds is when the last of N equally fast workers would finish.
/// A share is the busiest worker's executions (rounds, for jobs) against the mean (1: all
/// equal): N workers are at most N / share times as fast as one.
struct balance_row {
  std::uint32_t workers = 0;
  std::uint64_t pieces = 0;   ///< shards: the division's pieces
  std::size_t depth = 0;      ///< shards: the deepest piece's branching depth
  std::uint64_t busiest = 0;  ///< shards: the busiest shard's executions
  double share = 0;           ///< shards: busiest / (executions / workers)
  double divide_seconds = 0;  ///< shards: what building this division took
  std::uint64_t rounds = 0;   ///< jobs: rounds in lockstep
  double jobs_share = 0;      ///< jobs: rounds / (executions / workers)
  std::uint64_t given = 0;    ///< jobs: pieces handed out (the root and those given away)
  /// Shards of a second run, divided by the counts of a first one (shard_options::counts):
  /// its pieces and its busiest shard's executions and share.
  std::uint64_t counted_pieces = 0;
  std::uint64_t counted_busiest = 0;
  double counted_share = 0;
};
struct balance {
  result total;  ///< the exploration (counts as the sequential run's)
  std::vector<balance_row> rows;
};
/// Throws std::logic_error if a division is not a refinement of the next one (a bug).
balance measure_balance(const options& opt, const std::function<void(client&)>& body,
                        const std::vector<std::uint32_t>& workers);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
