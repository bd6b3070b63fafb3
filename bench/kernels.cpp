// bench/kernels.cpp: the kernels' out-of-line pieces (see kernels.hpp). Compiled into the bench
// and into the omp-llvm module alike.
#include "bench/kernels.hpp"

namespace stealcheck::bench {

matmul_data::matmul_data(int size)
    : n(size),
      a(static_cast<std::size_t>(size) * static_cast<std::size_t>(size)),
      b(a.size()),
      c(a.size()) {
  // Small integers: every partial sum is an exact double, whatever the order.
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(static_cast<int>((i * 7 + 3) % 13) - 6);
    b[i] = static_cast<double>(static_cast<int>((i * 5 + 1) % 11) - 5);
  }
}

void matmul_leaf_kernel(const matmul_data& d, int i0, int j0, int k0, int s) noexcept {
  const auto n = static_cast<std::size_t>(d.n);
  double* c = const_cast<double*>(d.c.data());  // the caller owns this block of C
  for (int i = i0; i < i0 + s; ++i) {
    for (int k = k0; k < k0 + s; ++k) {
      const double aik = d.a[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(k)];
      const double* brow = &d.b[static_cast<std::size_t>(k) * n];
      double* crow = &c[static_cast<std::size_t>(i) * n];
      for (int j = j0; j < j0 + s; ++j)
        crow[j] += aik * brow[j];
    }
  }
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
