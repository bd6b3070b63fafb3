// oracle/relation.hpp: binary relations over the events of one execution, as bit matrices,
// and the relation algebra the axioms are written in (union, composition, closures,
// restriction to event sets, acyclicity).
//
// A relation over n events is n rows of ceil(n / 64) words: row i holds the j with (i, j) in
// it. No cap on n.
// Complexity: union O(n^2 / 64); composition O(|a| * n / 64) for |a| pairs in the left
// operand; transitive closure (Warshall) O(n^3 / 64); acyclicity O(n^2 / 64 + |a|).
// Source: the relational notation of Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing
// Sequential Consistency in C/C++11", PLDI 2017, section 2 ([A] the identity on a set A,
// r? = r ∪ id, r+ the transitive closure, r;s composition).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stealcheck::oracle {

/// A set of events (bit i: event i).
class event_set {
 public:
  using word = std::uint64_t;
  explicit event_set(std::size_t n = 0) : n_(n), w_((n + 63) / 64, 0) {}
  /// Every one of n events.
  static event_set every(std::size_t n) {
    event_set s(n);
    for (std::size_t i = 0; i < n; ++i)
      s.set(i);
    return s;
  }
  std::size_t size() const noexcept { return n_; }
  bool test(std::size_t i) const noexcept { return ((w_[i / 64] >> (i % 64)) & 1U) != 0; }
  void set(std::size_t i) noexcept { w_[i / 64] |= word{1} << (i % 64); }
  bool empty() const noexcept;
  const std::vector<word>& words() const noexcept { return w_; }

 private:
  std::size_t n_;
  std::vector<word> w_;
};

class relation {
 public:
  using word = std::uint64_t;
  explicit relation(std::size_t n = 0) : n_(n), w_((n + 63) / 64), bits_(n * w_, 0) {}

  std::size_t size() const noexcept { return n_; }
  std::size_t words() const noexcept { return w_; }
  bool test(std::size_t i, std::size_t j) const noexcept {
    return ((row(i)[j / 64] >> (j % 64)) & 1U) != 0;
  }
  void set(std::size_t i, std::size_t j) noexcept { row(i)[j / 64] |= word{1} << (j % 64); }
  word* row(std::size_t i) noexcept { return bits_.data() + i * w_; }
  const word* row(std::size_t i) const noexcept { return bits_.data() + i * w_; }
  /// Calls f(j) for every (i, j) in the relation, j increasing.
  template <class F>
  void for_each_in_row(std::size_t i, F&& f) const {
    const word* r = row(i);
    for (std::size_t k = 0; k < w_; ++k)
      for (word b = r[k]; b != 0; b &= b - 1)
        f(k * 64 + static_cast<std::size_t>(__builtin_ctzll(b)));
  }

  relation& operator|=(const relation& o);
  friend relation operator|(relation a, const relation& b) { return a |= b; }
  friend bool operator==(const relation&, const relation&) = default;

 private:
  std::size_t n_, w_;
  std::vector<word> bits_;
};

/// a ; b
relation compose(const relation& a, const relation& b);
/// a+
relation closure(relation a);
/// a? (a ∪ id)
relation reflexive(relation a);
/// a^-1
relation inverse(const relation& a);
/// [dom] ; a ; [range]
relation restrict(const relation& a, const event_set& dom, const event_set& range);
/// a \ id
relation irreflexive_part(relation a);
/// [s] (the identity on s)
relation identity(const event_set& s);
/// a \ b
relation minus(relation a, const relation& b);
/// a ∩ b
relation intersect(relation a, const relation& b);
/// Whether (i, i) is in a for no i.
bool irreflexive(const relation& a);
/// Whether a+ is irreflexive (depth-first search: O(n^2 / 64 + |a|)).
bool acyclic(const relation& a);

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
