// bench/coro_kernels.hpp: the kernels of bench/kernels.hpp as fork-join coroutines
// (scheduler/coro_task.hpp), for the continuation-stealing pool (`cs-*` runtimes) and for its
// serial execution (scheduler/coro_serial.hpp), which gives S1. A coroutine cannot run under the
// rt.fork2 / group.spawn policy (a spawned closure returns before its children are joined, a
// coroutine suspends), so the recursion shape is written again here with fork/call/join; every
// serial piece is the policy kernels' own: queen_fits, uts_child, uts_children, uts_spawn,
// uts_num_children, the matmul leaf and hash, loop_leaf and loop_sum. Each returns the same check
// value as its policy twin.
//
// Thread role: as the context C says (workers of a coro_pool, or the calling thread).
// Complexity: as the algorithms; one frame per call.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "bench/kernels.hpp"
#include "scheduler/coro_task.hpp"

namespace stealcheck::bench {

using scheduler::call;
using scheduler::coro_task;
using scheduler::fork;
using scheduler::join;

template <class C>
coro_task<std::uint64_t, C> coro_fib(int n) {
  if (n < 2) co_return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0, y = 0;
  co_await fork(x, coro_fib<C>(n - 1));
  co_await call(y, coro_fib<C>(n - 2));
  co_await join();
  co_return x + y;
}

template <class C>
coro_task<std::uint64_t, C> coro_nqueens(int n, int row, board b) {
  if (row == n) co_return 1;
  std::array<std::uint64_t, 16> found{};
  for (int c = 0; c < n; ++c) {
    if (!queen_fits(b, row, c)) continue;
    board child = b;  // the child's own copy
    child[static_cast<std::size_t>(row)] = static_cast<signed char>(c);
    co_await fork(found[static_cast<std::size_t>(c)], coro_nqueens<C>(n, row + 1, child));
  }
  co_await join();
  co_return sum_children(found, found.size());
}

template <class C>
coro_task<std::uint64_t, C> coro_uts_node(const uts_params& p, std::uint64_t id, int kids) {
  if (kids == 0) co_return 1;
  std::array<std::uint64_t, 8> counts{};  // Requires: m <= 8
  for (int i = 0; i + 1 < kids; ++i) {
    const std::uint64_t child = uts_child(id, i);
    co_await fork(counts[static_cast<std::size_t>(i)],
                  coro_uts_node<C>(p, child, uts_children(p, child)));
  }
  const std::uint64_t last = uts_child(id, kids - 1);  // called, as in uts_node
  co_await call(counts[static_cast<std::size_t>(kids - 1)],
                coro_uts_node<C>(p, last, uts_children(p, last)));
  co_await join();
  co_return sum_children(counts, static_cast<std::size_t>(kids), 1);
}

// One batch of up to 50 root children (uts() in kernels.hpp batches them the same way).
template <class C>
coro_task<std::uint64_t, C> coro_uts_batch(const uts_params& p, int bi) {
  const int lo = bi * 50, hi = std::min(lo + 50, p.b0);
  std::array<std::uint64_t, 50> sub{};
  for (int i = lo; i + 1 < hi; ++i) {
    const std::uint64_t child = uts_child(p.seed, i);
    co_await fork(sub[static_cast<std::size_t>(i - lo)],
                  coro_uts_node<C>(p, child, uts_children(p, child)));
  }
  const std::uint64_t last = uts_child(p.seed, hi - 1);  // called, as in uts_batch
  co_await call(sub[static_cast<std::size_t>(hi - 1 - lo)],
                coro_uts_node<C>(p, last, uts_children(p, last)));
  co_await join();
  co_return sum_children(sub, sub.size());
}

template <class C>
coro_task<std::uint64_t, C> coro_uts(const uts_params& p) {
  const int batches = (p.b0 + 49) / 50;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(batches));
  for (int bi = 0; bi + 1 < batches; ++bi)
    co_await fork(counts[static_cast<std::size_t>(bi)], coro_uts_batch<C>(p, bi));
  co_await call(counts[static_cast<std::size_t>(batches - 1)], coro_uts_batch<C>(p, batches - 1));
  co_await join();
  co_return sum_children(counts, counts.size(), 1);  // + the root
}

template <class C>
coro_task<std::uint64_t, C> coro_uts_ref_node(const uts_tree& t, uts_sha1_node n);

// uts_range of kernels.hpp: halves first above uts_range_leaf children, then forks.
template <class C>
coro_task<void, C> coro_uts_range(const uts_tree& t, const uts_sha1_node& n, int lo, int hi,
                                  std::uint64_t* out) {
  if (hi - lo > uts_range_leaf) {
    const int mid = lo + (hi - lo) / 2;
    co_await fork(coro_uts_range<C>(t, n, lo, mid, out));
    co_await call(coro_uts_range<C>(t, n, mid, hi, out + (mid - lo)));
    co_await join();
    co_return;
  }
  for (int i = lo; i + 1 < hi; ++i)
    co_await fork(out[i - lo], coro_uts_ref_node<C>(t, uts_spawn(n, i)));
  co_await call(out[hi - 1 - lo], coro_uts_ref_node<C>(t, uts_spawn(n, hi - 1)));
  co_await join();
}

template <class C>
coro_task<std::uint64_t, C> coro_uts_ref_node(const uts_tree& t, uts_sha1_node n) {
  const int kids = uts_num_children(t, n);
  if (kids == 0) co_return 1;
  std::array<std::uint64_t, uts_range_leaf> few{};
  std::vector<std::uint64_t> many;  // more than uts_range_leaf children (a root)
  if (kids > uts_range_leaf) many.resize(static_cast<std::size_t>(kids));
  std::uint64_t* out = many.empty() ? few.data() : many.data();
  co_await call(coro_uts_range<C>(t, n, 0, kids, out));
  co_await join();
  std::uint64_t total = 1;
  for (int i = 0; i < kids; ++i)
    total += out[i];
  co_return total;
}

template <class C>
coro_task<void, C> coro_matmul_rec(matmul_data& d, int i0, int j0, int k0, int s) {
  if (s <= matmul_leaf) {
    matmul_leaf_kernel(d, i0, j0, k0, s);
    co_return;
  }
  const int h = s / 2;
  for (int kk = 0; kk < 2; ++kk) {  // the two k halves in sequence, as matmul_rec
    const int k = k0 + kk * h;
    co_await fork(coro_matmul_rec<C>(d, i0, j0, k, h));
    co_await fork(coro_matmul_rec<C>(d, i0, j0 + h, k, h));
    co_await fork(coro_matmul_rec<C>(d, i0 + h, j0, k, h));
    co_await call(coro_matmul_rec<C>(d, i0 + h, j0 + h, k, h));
    co_await join();
  }
}

template <class C>
coro_task<std::uint64_t, C> coro_matmul(matmul_data& d) {
  std::fill(d.c.begin(), d.c.end(), 0.0);
  co_await call(coro_matmul_rec<C>(d, 0, 0, 0, d.n));
  co_await join();
  co_return matmul_hash(d);
}

template <class C>
coro_task<std::uint32_t, C> coro_loop_leaf(int i) {
  co_return loop_leaf(i);
}

template <class C>
coro_task<std::uint64_t, C> coro_loop(int n) {
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    co_await fork(out[static_cast<std::size_t>(i)], coro_loop_leaf<C>(i));
  co_await join();
  co_return loop_sum(out);
}

template <class C>
coro_task<std::uint64_t, C> coro_relay(int n) {
  std::uint64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    std::uint32_t out = 0;
    co_await fork(out, coro_loop_leaf<C>(i));
    co_await join();
    sum += out;
  }
  co_return sum;
}

/// Kernel k as a coroutine (the outermost frame of the program, counted in S1).
template <class C>
coro_task<std::uint64_t, C> run_coro_kernel(kernel_id k, const kernel_params& p, matmul_data& m) {
  std::uint64_t r = 0;
  switch (k) {
    case kernel_id::fib:
      co_await call(r, coro_fib<C>(p.fib_n));
      break;
    case kernel_id::nqueens:
      co_await call(r, coro_nqueens<C>(p.queens_n, 0, board{}));
      break;
    case kernel_id::uts_t1:
    case kernel_id::uts_t3:
    case kernel_id::uts_t1l:
    case kernel_id::uts_t3l: {
      const uts_tree& t = *reference_tree(k, p);
      co_await call(r, coro_uts_ref_node<C>(t, uts_root(t)));
      break;
    }
    case kernel_id::uts_fine:
      co_await call(r, coro_uts<C>(p.uts));
      break;
    case kernel_id::matmul:
      co_await call(r, coro_matmul<C>(m));
      break;
    case kernel_id::loop:
      co_await call(r, coro_loop<C>(p.loop_n));
      break;
    case kernel_id::relay:
      co_await call(r, coro_relay<C>(p.relay_n));
      break;
  }
  co_await join();
  co_return r;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
