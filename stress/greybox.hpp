// stress/greybox.hpp: the greybox strategy of `stealcheck fuzz` (fuzz.hpp): scenarios kept in a
// corpus when their executions reach new reads-from coverage, and mutated, as RFF guides its
// schedules by reads-from pairs (Wolff, Shi, Duck, Mathur, Roychoudhury, "Greybox Fuzzing for
// Concurrency Testing", ASPLOS 2024) and AFL keeps inputs that reach new edges.
//
// Coverage: the set of tuples (read access, write access it read from, same thread or not,
// CAS succeeded or not) over every execution drawn, an access named by its source line
// (file and line of the deque's code: with the variant's sites, one per atomic operation). A
// scenario whose executions add a tuple joins the corpus. Each round takes an entry (one of
// the eight newest half the time, any entry otherwise) and mutates it: one to three edits
// among an owner step flipped, inserted or deleted, a steal added or removed, a thief added
// (a copy of another's steps) or removed, a steal turned into a batch steal and back (batch
// variants), a thief's steps taken from another entry. One round in eight draws a fresh
// scenario instead. The executions of each scenario are drawn by one of the samplers, by the
// scenario's seed modulo 3: PCT, uniform (both forward: models/explore/forward.hpp) or the
// walk of the exploration tree, so that each reaches what it is best at (PCT a thread that
// stalls, uniform many stale reads, the tree walk rare read-write pairs; a scenario of more than
// 200 steps by PCT alone, fuzz_campaign.hpp's greybox_pct_above), the built-in clients by the
// tree walk, and
// `fuzz --strategy greybox --scenario TEXT --scenario-seed S` repeats the draws of a bug.
//
// Corpus directory (--corpus DIR): one small file per entry, the scenario as `describe`
// writes it, named by its hash; read at the start (a campaign resumes where it stopped, and
// campaigns that wrote into one directory merge), written as entries join.
//
// Thread role: the fuzzing thread. Determinism: the same seed, sizes and corpus give the same
// rounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::model {
class graph;
}

namespace stealcheck::stress::fuzz {

/// Reads-from coverage (see the file comment).
class coverage {
 public:
  /// Adds the tuples of g's reads; returns how many were new. O(events).
  std::size_t add(const model::graph& g);
  std::size_t size() const noexcept { return seen_.size(); }

 private:
  std::unordered_set<std::uint64_t> seen_;
};

/// The greybox corpus and its mutations.
class corpus {
 public:
  /// `max_thieves`, `max_steps`: the largest scenario a mutation makes (thieves; steps of one
  /// thread); `batch`: the variant steals batches; `cross`: thieves steal from each other's
  /// deques too (steal@N).
  corpus(std::size_t max_thieves, std::size_t max_steps, bool batch, bool cross)
      : max_thieves_(max_thieves), max_steps_(max_steps), batch_(batch), cross_(batch && cross) {}
  /// Reads every file of `dir` (created when missing) as an entry and writes new entries
  /// there from now on. Throws harness::usage_error naming a file that is not a scenario or a
  /// directory that cannot be made.
  void open(const std::string& dir);
  /// Adds an entry (and writes its file when a directory is open).
  void add(const lincheck::scenario& s);
  std::size_t size() const noexcept { return entries_.size(); }
  const std::vector<lincheck::scenario>& entries() const noexcept { return entries_; }
  /// The next scenario to run: a mutated entry, or `fresh` (one round in eight, and while the
  /// corpus is empty). `stream`: the campaign's splitmix64 state.
  lincheck::scenario next(std::uint64_t& stream, const lincheck::scenario& fresh) const;

 private:
  void mutate(lincheck::scenario& s, std::uint64_t& stream) const;
  std::size_t max_thieves_, max_steps_;
  bool batch_, cross_;
  std::vector<lincheck::scenario> entries_;
  std::string dir_;
  std::unordered_set<std::string> known_;  // entries' texts
};

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
