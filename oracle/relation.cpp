// oracle/relation.cpp: relation algebra over bit matrices (see relation.hpp).
#include "stealcheck/detail/oracle/relation.hpp"

#include <algorithm>
#include <utility>

namespace stealcheck::oracle {

bool event_set::empty() const noexcept {
  return std::all_of(w_.begin(), w_.end(), [](word x) { return x == 0; });
}

relation& relation::operator|=(const relation& o) {
  for (std::size_t k = 0; k < bits_.size(); ++k)
    bits_[k] |= o.bits_[k];
  return *this;
}

relation compose(const relation& a, const relation& b) {
  relation c(a.size());
  const std::size_t w = a.words();
  for (std::size_t i = 0; i < a.size(); ++i) {
    relation::word* out = c.row(i);
    a.for_each_in_row(i, [&](std::size_t k) {
      const relation::word* in = b.row(k);
      for (std::size_t x = 0; x < w; ++x)
        out[x] |= in[x];
    });
  }
  return c;
}

relation closure(relation a) {
  const std::size_t w = a.words();
  for (std::size_t k = 0; k < a.size(); ++k) {
    const relation::word* rk = a.row(k);
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a.test(i, k)) {
        relation::word* ri = a.row(i);
        for (std::size_t x = 0; x < w; ++x)
          ri[x] |= rk[x];
      }
  }
  return a;
}

relation reflexive(relation a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a.set(i, i);
  return a;
}

relation inverse(const relation& a) {
  relation c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    a.for_each_in_row(i, [&](std::size_t j) { c.set(j, i); });
  return c;
}

relation restrict(const relation& a, const event_set& dom, const event_set& range) {
  relation c(a.size());
  const std::size_t w = a.words();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!dom.test(i)) continue;
    const relation::word* in = a.row(i);
    relation::word* out = c.row(i);
    for (std::size_t x = 0; x < w; ++x)
      out[x] = in[x] & range.words()[x];
  }
  return c;
}

relation irreflexive_part(relation a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a.row(i)[i / 64] &= ~(relation::word{1} << (i % 64));
  return a;
}

relation identity(const event_set& s) {
  relation c(s.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s.test(i)) c.set(i, i);
  return c;
}

relation minus(relation a, const relation& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t x = 0; x < a.words(); ++x)
      a.row(i)[x] &= ~b.row(i)[x];
  return a;
}

relation intersect(relation a, const relation& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t x = 0; x < a.words(); ++x)
      a.row(i)[x] &= b.row(i)[x];
  return a;
}

bool irreflexive(const relation& a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a.test(i, i)) return false;
  return true;
}

bool acyclic(const relation& a) {
  const std::size_t n = a.size();
  std::vector<std::uint8_t> state(n, 0);                   // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (event, next successor to try)
  for (std::size_t root = 0; root < n; ++root) {
    if (state[root] != 0) continue;
    state[root] = 1;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [v, from] = stack.back();
      std::size_t next = n;
      for (std::size_t j = from; j < n; ++j)  // the next successor of v at or after `from`
        if ((a.row(v)[j / 64] >> (j % 64)) == 0) {
          j = (j / 64 + 1) * 64 - 1;  // nothing left in this word
        } else if (a.test(v, j)) {
          next = j;
          break;
        }
      if (next == n) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      from = next + 1;
      if (state[next] == 1) return false;
      if (state[next] == 0) {
        state[next] = 1;
        stack.emplace_back(next, 0);
      }
    }
  }
  return true;
}

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
