// models/explore/walk.hpp: the modes of a walk of the exploration tree. The explorer
// (trust.hpp) follows a walk's target piece down its path itself; below it, at every branch
// point, it asks the walk's mode which alternatives to run, and at every leaf whether the leaf
// is an execution of the result. A mode is a small object the explorer consults instead of
// flags, so a new way of choosing (sampling) is one more mode:
// - exhaustive_walk: every alternative, nothing asked inside the piece (the sequential DFS);
// - sharing_walk: every alternative, and before each one inside the piece the worker may give
//   away untried alternatives to an idle worker (explorer::run_pieces, models/explore/workers.hpp);
// - random_walk: one alternative drawn uniformly at each branch point; as a dive the leaf is
//   weighed, not counted (Knuth's estimator: models/divide/divide.hpp), as a sample it is an
//   execution of the result, checked as any (options::sampling, `stealcheck fuzz`).
//
// Thread role: the explorer's thread (a sharing_walk's source synchronizes with the others).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stealcheck/detail/harness/random.hpp"

namespace stealcheck::model::detail {

/// A node of the exploration tree, named by its path from the root. A branch point's
/// alternatives are calls of explorer::child, made one after another at one branching depth
/// (what lies below an alternative is nested inside its call, and each call's body meets at
/// most one branch point), so a node is the list, per branching depth, of the ordinal of the
/// call taken there. The exploration is deterministic, so a path names the same node in every
/// run of the same client, on every machine. The empty path is the root.
using piece_path = std::vector<std::uint32_t>;

/// A piece of the tree: the subtrees of the alternatives numbered `from` on at the branch
/// point of the node at `path` (from 0: the node's whole subtree). Pieces whose paths are the
/// leaves of one trie of splits, or that a worker gave away from its own (run_pieces),
/// partition the executions.
struct piece {
  piece_path path;
  std::uint32_t from = 0;
};

/// Where a worker's pieces come from, and where it gives work away (workers.hpp).
/// Thread role: the worker's thread; an implementation shared by workers synchronizes.
class piece_source {
 public:
  virtual ~piece_source() = default;
  /// The next piece to explore into `out`; false: there is no more (the worker stops). May
  /// wait for work another worker gives away.
  virtual bool next(piece& out) = 0;
  /// Whether another worker waits for work (asked at every branch point: keep it cheap).
  virtual bool hungry() const noexcept { return false; }
  /// Whether the run is over (another worker found a bug): the worker stops.
  virtual bool stopped() const noexcept { return false; }
  /// Takes the work a worker gives away.
  virtual void give(piece&& /*p*/) {}
  /// Called after each execution the worker counts, and after each piece it finishes (a
  /// source that runs its workers in lockstep waits here: workers.hpp, shared_source).
  virtual void executed() {}
  virtual void finished() {}
};

/// The alternatives [lo, hi) of a branch point that a walk runs; hi == every_alternative: all
/// from lo on (a worker may still give the untried ones away, which lowers hi).
inline constexpr std::size_t every_alternative = ~std::size_t{0} - 1;
struct alternatives {
  std::size_t lo = 0;
  std::size_t hi = every_alternative;
};

/// What splits untried alternatives off a walk: the explorer, for a sharing_walk.
class work_donor {
 public:
  /// Gives `to` the untried alternatives of the shallowest branch point the walk is inside
  /// that has any, and skips them from now on; false if there are none.
  virtual bool give_away(piece_source& to) = 0;

 protected:
  ~work_donor() = default;
};

/// How a walk treats the branch points below its target's path and the leaves it reaches.
class walk_mode {
 public:
  virtual ~walk_mode() = default;
  /// Whether the leaves below the target are executions of the result (counted, handed to
  /// options::on_complete, checked as bugs); false: only weighed (a dive).
  virtual bool explores() const noexcept = 0;
  /// Whether the explorer keeps a level per branch point inside the target piece and asks
  /// before_alternative there. False: inside the piece every alternative runs, with no
  /// bookkeeping (the sequential walk's fast path).
  virtual bool tracks_inside() const noexcept = 0;
  /// The alternatives to run at a branch point below the target's path, met with `count`
  /// alternatives (at least 2); `from`: the first the target piece holds at its own branch
  /// point, 0 below it.
  virtual alternatives choose(std::size_t count, std::size_t from) = 0;
  /// Before an alternative inside the piece runs (tracks_inside only): false stops the walk
  /// and the run (another worker found a bug). May give work away through `donor`.
  virtual bool before_alternative(work_donor& /*donor*/) { return true; }
  /// After each execution counted (explores only).
  virtual void after_execution() {}
};

/// Every alternative; the sequential exhaustive exploration (explorer::run).
class exhaustive_walk final : public walk_mode {
 public:
  bool explores() const noexcept override { return true; }
  bool tracks_inside() const noexcept override { return false; }
  alternatives choose(std::size_t /*count*/, std::size_t from) override {
    return {from, every_alternative};
  }
};

/// Every alternative, sharing work with other workers through `source` (explorer::run_pieces).
class sharing_walk final : public walk_mode {
 public:
  explicit sharing_walk(piece_source& source) : source_(source) {}
  bool explores() const noexcept override { return true; }
  bool tracks_inside() const noexcept override { return true; }
  alternatives choose(std::size_t /*count*/, std::size_t from) override {
    return {from, every_alternative};
  }
  bool before_alternative(work_donor& donor) override {
    if (source_.stopped()) return false;
    if (source_.hungry()) donor.give_away(source_);
    return true;
  }
  void after_execution() override { source_.executed(); }

 private:
  piece_source& source_;
};

/// One alternative drawn uniformly at each branch point from the splitmix64 stream `seed`.
/// - A dive (explorer::dive, counted == false): a random path, whose leaf weighs the product of
///   the branching factors below the target; it is no execution of the result.
/// - A sample (explorer::sample, counted == true): the leaf is an execution of the result,
///   checked as an exhaustive run checks it. A read takes one of the writes RC11 lets it read,
///   a write one of its mo positions or one of the reads it may revisit; only consistent
///   alternatives are offered, so every sampled execution is consistent. Not uniform over
///   executions: a subtree with fewer leaves is as likely as each of its siblings.
class random_walk final : public walk_mode {
 public:
  random_walk(std::uint64_t seed, bool counted) : state_(seed), counted_(counted) {}
  bool explores() const noexcept override { return counted_; }
  bool tracks_inside() const noexcept override { return true; }
  alternatives choose(std::size_t count, std::size_t /*from*/) override {
    const auto k = static_cast<std::size_t>(splitmix64_next(state_) % count);
    return {k, k + 1};
  }

 private:
  std::uint64_t state_;
  bool counted_;
};

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
