// bench/kernels.hpp: the benchmark kernels, written once against a runtime policy `R` and
// instantiated for every runtime (serial, stealcheck's pool per deque, oneTBB, OpenMP).
//
// A policy R provides
//   rt.fork2(a, b)   run a() and b(), possibly in parallel, return when both are done;
//   typename R::group g(rt); g.spawn(f); g.wait();   a group of tasks.
// The recursive functions are [[gnu::noinline]] in every instantiation, the serial one included,
// so the serial baseline is the same recursion without scheduling (as libfork's suite does).
//
// Kernels (as the field reports them):
//   fib      fib(n) without cutoff: every call with n >= 2 forks. tasks = fib(n+1) - 1.
//   nqueens  all solutions of n queens; each child gets its own copy of the board array.
//   uts-t1, uts-t3   Unbalanced Tree Search (Olivier et al., LCPC 2006) on the sample trees T1
//            (geometric) and T3 (binomial) as the reference implementation builds them: SHA-1
//            node states (bench/uts_tree.hpp), so the node count is checked against the size
//            UTS publishes (4,130,071 and 4,112,897). uts-t1l and uts-t3l: the large trees T1L
//            and T3L (about 10^8 nodes), run only when named in --kernels. A node spawns all
//            its children but the last and calls the last (as libfork's UTS); a node with more
//            than 8 children splits their range in halves first (uts_range).
//   uts-fine a T3-like binomial tree whose node ids come from splitmix64 instead of SHA-1
//            (see uts_child): a few ns of work per node, so it measures the per-task overhead;
//            its tree (and node count) differ from T3.
//   matmul   C = A * B, n x n doubles holding small integers (so every order of sums is exact),
//            recursive quadrant split over (i, j) in 4 tasks, k halves in sequence, 64x64 leaves.
//   loop     one function spawns n tiny children in a loop, then waits once: child stealing keeps
//            every spawned, unstarted child alive (up to n), continuation stealing at most P*S1
//            frames (bench/coro_kernels.hpp runs it and the others as coroutines).
//   relay    n rounds, each spawning one tiny task (loop's) and waiting for it: a message handed
//            to a task and its answer awaited, one at a time (the short handlers of tokio#8065).
//            No parallelism at all: it measures what a spawn costs when other workers are idle
//            (the wake-ups it causes, the steals that move the task), run only when named.
// Every kernel returns a 64-bit check value compared against the serial run.
//
// Thread role: kernels run on the runtime's threads; data is per call. Complexity: as the
// algorithms. Source: kernels as in libfork's benchmark suite (ConorWilliams/libfork, bench/),
// rewritten here.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bench/uts_tree.hpp"
#include "stealcheck/detail/harness/random.hpp"

namespace stealcheck::bench {

enum class kernel_id : std::uint8_t {
  fib,
  nqueens,
  uts_t1,
  uts_t3,
  uts_t1l,
  uts_t3l,
  uts_fine,
  matmul,
  loop,
  relay
};
/// Every kernel `--kernels` knows.
inline constexpr std::array<kernel_id, 10> known_kernels = {
    kernel_id::fib,     kernel_id::nqueens, kernel_id::uts_t1,   kernel_id::uts_t3,
    kernel_id::uts_t1l, kernel_id::uts_t3l, kernel_id::uts_fine, kernel_id::matmul,
    kernel_id::loop,    kernel_id::relay};
/// What runs without --kernels: all but the large UTS trees.
inline constexpr std::array<kernel_id, 7> default_kernels = {
    kernel_id::fib,      kernel_id::nqueens, kernel_id::uts_t1, kernel_id::uts_t3,
    kernel_id::uts_fine, kernel_id::matmul,  kernel_id::loop};

constexpr std::string_view kernel_name(kernel_id k) noexcept {
  switch (k) {
    case kernel_id::fib:
      return "fib";
    case kernel_id::nqueens:
      return "nqueens";
    case kernel_id::uts_t1:
      return "uts-t1";
    case kernel_id::uts_t3:
      return "uts-t3";
    case kernel_id::uts_t1l:
      return "uts-t1l";
    case kernel_id::uts_t3l:
      return "uts-t3l";
    case kernel_id::uts_fine:
      return "uts-fine";
    case kernel_id::matmul:
      return "matmul";
    case kernel_id::loop:
      return "loop";
    case kernel_id::relay:
      return "relay";
  }
  return "?";
}

struct uts_params {
  int b0 = 2000;        ///< root children
  int m = 8;            ///< children of a non-leaf node
  double q = 0.124875;  ///< probability that a node has m children (T3: m*q = 0.999)
  std::uint64_t seed = 42;
};

struct kernel_params {
  int fib_n = 32;
  int queens_n = 12;
  uts_params uts;
  uts_tree t1 = uts_tree_t1, t3 = uts_tree_t3, t1l = uts_tree_t1l, t3l = uts_tree_t3l;
  int matmul_n = 512;
  int loop_n = 1000000;
  int relay_n = 1000000;
  static kernel_params quick() {
    kernel_params p;
    p.fib_n = 20;
    p.queens_n = 8;
    p.uts = uts_params{200, 8, 0.12, 42};
    // Reduced trees of the same shapes (no published size: checked against the serial run).
    p.t1 = uts_tree{"T1 at depth 6", uts_shape::geometric_fixed, 4, 6, 0, 0, 19, 0};
    p.t3 = uts_tree{"T3 with b0 = 20", uts_shape::binomial, 20, 0, 0.124875, 8, 42, 0};
    p.t1l = p.t1;
    p.t3l = p.t3;
    p.matmul_n = 128;
    p.loop_n = 10000;
    p.relay_n = 10000;
    return p;
  }
};

/// The SHA-1 tree kernel k runs (nullptr for the kernels that are not uts-t*).
constexpr const uts_tree* reference_tree(kernel_id k, const kernel_params& p) noexcept {
  switch (k) {
    case kernel_id::uts_t1:
      return &p.t1;
    case kernel_id::uts_t3:
      return &p.t3;
    case kernel_id::uts_t1l:
      return &p.t1l;
    case kernel_id::uts_t3l:
      return &p.t3l;
    default:
      return nullptr;
  }
}

/// The matrices of matmul, built once per size outside the timed region.
struct matmul_data {
  explicit matmul_data(int n);
  int n;
  std::vector<double> a, b, c;
};

// ---- fib --------------------------------------------------------------------------------------
/// The n-th Fibonacci number, iteratively: the independent check of the fib kernel's result.
constexpr std::uint64_t fib_number(int n) noexcept {
  std::uint64_t a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t c = a + b;
    a = b;
    b = c;
  }
  return a;
}

template <class R>
[[gnu::noinline]] std::uint64_t fib(R& rt, int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t x = 0, y = 0;
  rt.fork2([&] { x = fib(rt, n - 1); }, [&] { y = fib(rt, n - 2); });
  return x + y;
}

/// init plus the sum of the first n entries of a (the kernels' reductions over children).
template <class A>
std::uint64_t sum_children(const A& a, std::size_t n, std::uint64_t init = 0) noexcept {
  for (std::size_t i = 0; i < n; ++i)
    init += a[i];
  return init;
}

// ---- nqueens ----------------------------------------------------------------------------------
using board = std::array<signed char, 16>;

inline bool queen_fits(const board& b, int row, int col) noexcept {
  for (int r = 0; r < row; ++r) {
    const int d = b[static_cast<std::size_t>(r)] - col;
    if (d == 0 || d == row - r || d == r - row) return false;
  }
  return true;
}

template <class R>
[[gnu::noinline]] std::uint64_t nqueens(R& rt, int n, int row, board b) {
  if (row == n) return 1;
  std::array<std::uint64_t, 16> found{};
  typename R::group g(rt);
  for (int c = 0; c < n; ++c) {
    if (!queen_fits(b, row, c)) continue;
    board child = b;  // the child's own copy
    child[static_cast<std::size_t>(row)] = static_cast<signed char>(c);
    std::uint64_t* out = &found[static_cast<std::size_t>(c)];
    g.spawn([&rt, n, row, child, out] { *out = nqueens(rt, n, row + 1, child); });
  }
  g.wait();
  return sum_children(found, found.size());
}

// ---- uts-fine ---------------------------------------------------------------------------------
/// Child i's id: splitmix64 of (parent, i). A documented stand-in for UTS's SHA-1 splitting:
/// deterministic, well mixed, 3 multiplies instead of a SHA-1 block.
constexpr std::uint64_t uts_child(std::uint64_t parent, int i) noexcept {
  return splitmix64_mix(parent + splitmix64_gamma * (static_cast<std::uint64_t>(i) + 1));
}
/// Children of a non-root node: m with probability q (the id's top 53 bits as a uniform [0,1)).
inline int uts_children(const uts_params& p, std::uint64_t id) noexcept {
  const double u = static_cast<double>(id >> 11) * 0x1.0p-53;
  return u < p.q ? p.m : 0;
}

template <class R>
std::uint64_t uts_node(R& rt, const uts_params& p, std::uint64_t id, int kids);

/// Children lo..hi-2 of `parent` are spawned and child hi-1 runs as a call before the join, as
/// in libfork's UTS (its libfork, oneTBB and OpenMP versions alike): a spawn right before the
/// join would only hand a thief the task its parent runs next. The called child adds no spawn
/// level to the span. Child i's count goes to out[i - lo]. Requires: lo < hi.
template <class R>
void uts_subtrees(R& rt, const uts_params& p, std::uint64_t parent, int lo, int hi,
                  std::uint64_t* out) {
  typename R::group g(rt);
  for (int i = lo; i + 1 < hi; ++i) {
    const std::uint64_t child = uts_child(parent, i);
    std::uint64_t* o = out + (i - lo);
    g.spawn([&rt, &p, child, o] { *o = uts_node(rt, p, child, uts_children(p, child)); });
  }
  const std::uint64_t last = uts_child(parent, hi - 1);
  out[hi - 1 - lo] = uts_node(rt, p, last, uts_children(p, last));
  g.wait();
}

template <class R>
[[gnu::noinline]] std::uint64_t uts_node(R& rt, const uts_params& p, std::uint64_t id, int kids) {
  if (kids == 0) return 1;
  std::array<std::uint64_t, 8> counts{};  // Requires: m <= 8 (checked by the runner)
  uts_subtrees(rt, p, id, 0, kids, counts.data());
  return sum_children(counts, static_cast<std::size_t>(kids), 1);
}

/// Batch bi of the root's children: i in [50 bi, min(50 bi + 50, b0)).
template <class R>
std::uint64_t uts_batch(R& rt, const uts_params& p, int bi) {
  const int lo = bi * 50, hi = lo + 50 < p.b0 ? lo + 50 : p.b0;
  std::array<std::uint64_t, 50> sub{};
  uts_subtrees(rt, p, p.seed, lo, hi, sub.data());
  return sum_children(sub, sub.size());
}

/// The root's b0 children, in batches of up to 50 under b0/50 + 1 internal nodes that are not
/// counted as tree nodes (keeps uts_node's frame small); the last batch runs as a call.
template <class R>
std::uint64_t uts(R& rt, const uts_params& p) {
  const int batches = (p.b0 + 49) / 50;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(batches));
  typename R::group g(rt);
  for (int bi = 0; bi + 1 < batches; ++bi)
    g.spawn(
        [&rt, &p, &counts, bi] { counts[static_cast<std::size_t>(bi)] = uts_batch(rt, p, bi); });
  counts[static_cast<std::size_t>(batches - 1)] = uts_batch(rt, p, batches - 1);
  g.wait();
  return sum_children(counts, counts.size(), 1);  // + the root
}

// ---- uts-t1, uts-t3 (SHA-1 trees) -------------------------------------------------------------
/// Children beyond which uts_range splits a node's children in halves before spawning them.
inline constexpr int uts_range_leaf = 8;

template <class R>
[[gnu::noinline]] std::uint64_t uts_ref_node(R& rt, const uts_tree& t, const uts_sha1_node& n);

/// Subtree sizes of children lo..hi-1 of n into out[i - lo]: up to uts_range_leaf children are
/// spawned (the last one called); a wider range is split in two halves by fork2 first, so the
/// 2000 children of a binomial root become a tree of depth 8 instead of one deque of 1999 tasks.
/// A child's SHA-1 is computed by the task that runs it. Requires: lo < hi.
template <class R>
void uts_range(R& rt, const uts_tree& t, const uts_sha1_node& n, int lo, int hi,
               std::uint64_t* out) {
  if (hi - lo > uts_range_leaf) {
    const int mid = lo + (hi - lo) / 2;
    rt.fork2([&] { uts_range(rt, t, n, lo, mid, out); },
             [&] { uts_range(rt, t, n, mid, hi, out + (mid - lo)); });
    return;
  }
  typename R::group g(rt);
  for (int i = lo; i + 1 < hi; ++i) {
    std::uint64_t* o = out + (i - lo);
    g.spawn([&rt, &t, &n, i, o] { *o = uts_ref_node(rt, t, uts_spawn(n, i)); });
  }
  out[hi - 1 - lo] = uts_ref_node(rt, t, uts_spawn(n, hi - 1));
  g.wait();
}

/// The size of n's subtree.
template <class R>
[[gnu::noinline]] std::uint64_t uts_ref_node(R& rt, const uts_tree& t, const uts_sha1_node& n) {
  const int kids = uts_num_children(t, n);
  if (kids == 0) return 1;
  std::array<std::uint64_t, uts_range_leaf> few{};
  std::vector<std::uint64_t> many;  // nodes with more than uts_range_leaf children (a root)
  if (kids > uts_range_leaf) many.resize(static_cast<std::size_t>(kids));
  std::uint64_t* out = many.empty() ? few.data() : many.data();
  uts_range(rt, t, n, 0, kids, out);
  std::uint64_t total = 1;
  for (int i = 0; i < kids; ++i)
    total += out[i];
  return total;
}

// ---- matmul -----------------------------------------------------------------------------------
inline constexpr int matmul_leaf = 64;

/// C[i0.., j0..] += A[i0.., k0..] * B[k0.., j0..] for an s x s block (row-major, stride n).
void matmul_leaf_kernel(const matmul_data& d, int i0, int j0, int k0, int s) noexcept;

template <class R>
[[gnu::noinline]] void matmul_rec(R& rt, matmul_data& d, int i0, int j0, int k0, int s) {
  if (s <= matmul_leaf) {
    matmul_leaf_kernel(d, i0, j0, k0, s);
    return;
  }
  const int h = s / 2;
  for (int kk = 0; kk < 2; ++kk) {  // the two k halves in sequence: same sum order everywhere
    const int k = k0 + kk * h;
    typename R::group g(rt);
    g.spawn([&rt, &d, i0, j0, k, h] { matmul_rec(rt, d, i0, j0, k, h); });
    g.spawn([&rt, &d, i0, j0, k, h] { matmul_rec(rt, d, i0, j0 + h, k, h); });
    g.spawn([&rt, &d, i0, j0, k, h] { matmul_rec(rt, d, i0 + h, j0, k, h); });
    g.spawn([&rt, &d, i0, j0, k, h] { matmul_rec(rt, d, i0 + h, j0 + h, k, h); });
    g.wait();
  }
}

/// A hash of C's bit patterns (exact comparison across runtimes).
inline std::uint64_t matmul_hash(const matmul_data& d) noexcept {
  std::uint64_t h = 0;
  for (double v : d.c)
    h = uts_child(h ^ std::bit_cast<std::uint64_t>(v), 0);
  return h;
}

/// Zeroes C, multiplies, returns matmul_hash.
template <class R>
std::uint64_t matmul(R& rt, matmul_data& d) {
  std::fill(d.c.begin(), d.c.end(), 0.0);
  matmul_rec(rt, d, 0, 0, 0, d.n);
  return matmul_hash(d);
}

// ---- loop -------------------------------------------------------------------------------------
/// Child i's work: one splitmix64 round, folded to 32 bits.
inline std::uint32_t loop_leaf(int i) noexcept {
  return static_cast<std::uint32_t>(uts_child(0, i) >> 32);
}
inline std::uint64_t loop_sum(const std::vector<std::uint32_t>& out) noexcept {
  std::uint64_t t = 0;
  for (std::uint32_t v : out)
    t += v;
  return t;
}

template <class R>
[[gnu::noinline]] std::uint64_t loop(R& rt, int n) {
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n));
  typename R::group g(rt);
  for (int i = 0; i < n; ++i) {
    std::uint32_t* o = &out[static_cast<std::size_t>(i)];
    g.spawn([o, i] { *o = loop_leaf(i); });
  }
  g.wait();
  return loop_sum(out);
}

// ---- relay ------------------------------------------------------------------------------------
/// The sum of loop_leaf(i) for i < n: loop's and relay's check value.
inline std::uint64_t leaf_sum(int n) noexcept {
  std::uint64_t sum = 0;
  for (int i = 0; i < n; ++i)
    sum += loop_leaf(i);
  return sum;
}

template <class R>
[[gnu::noinline]] std::uint64_t relay(R& rt, int n) {
  std::uint64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    std::uint32_t out = 0;
    typename R::group g(rt);
    g.spawn([&out, i] { out = loop_leaf(i); });
    g.wait();
    sum += out;
  }
  return sum;
}

/// Runs kernel k under runtime rt; returns its check value.
template <class R>
std::uint64_t run_kernel(R& rt, kernel_id k, const kernel_params& p, matmul_data& m) {
  switch (k) {
    case kernel_id::fib:
      return fib(rt, p.fib_n);
    case kernel_id::nqueens:
      return nqueens(rt, p.queens_n, 0, board{});
    case kernel_id::uts_t1:
    case kernel_id::uts_t3:
    case kernel_id::uts_t1l:
    case kernel_id::uts_t3l: {
      const uts_tree& t = *reference_tree(k, p);
      return uts_ref_node(rt, t, uts_root(t));
    }
    case kernel_id::uts_fine:
      return uts(rt, p.uts);
    case kernel_id::matmul:
      return matmul(rt, m);
    case kernel_id::loop:
      return loop(rt, p.loop_n);
    case kernel_id::relay:
      return relay(rt, p.relay_n);
  }
  return 0;
}

/// The serial program (the baseline Ts): fork2 and spawn call in place.
struct serial_rt {
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    a();
    b();
  }
  struct group {
    explicit group(serial_rt&) noexcept {}
    template <class F>
    void spawn(F&& f) {
      f();
    }
    void wait() noexcept {}
  };
};

/// A serial run that counts spawned tasks and the deepest spawn nesting (the span in fork
/// levels, the T_inf scale of the Blumofe-Leiserson steal bound). Not timed.
struct counting_rt {
  std::uint64_t tasks = 0;
  int depth = 0;
  int max_depth = 0;
  void enter() noexcept {
    ++tasks;
    if (++depth > max_depth) max_depth = depth;
  }
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    enter();
    a();
    b();
    --depth;
  }
  struct group {
    explicit group(counting_rt& r) noexcept : rt(r) {}
    counting_rt& rt;
    template <class F>
    void spawn(F&& f) {
      rt.enter();
      f();
      --rt.depth;
    }
    void wait() noexcept {}
  };
};

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
