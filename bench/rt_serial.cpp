// bench/rt_serial.cpp: the serial baseline and the runtime registry.
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

class serial_runtime final : public calling_thread_runtime {
 public:
  std::string_view name() const override { return "serial"; }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    serial_rt rt;
    return run_kernel(rt, k, params, m);
  }
};

}  // namespace

std::unique_ptr<runtime> make_serial_runtime() {
  return std::make_unique<serial_runtime>();
}

std::vector<std::string> all_runtime_names() {
  return {"serial",
          "coro-serial",
          "sc-chase_lev",
          "sc-locked",
          "sc-steal_half",
          "sc-split",
          "sc-the",
          "sc-abp",
          "sc-fjp",
          "sc-dotnet",
          "sc-crossbeam_lifo",
          "cs-chase_lev",
          "cs-locked",
          "cs-steal_half",
          "cs-split",
          "cs-the",
          "cs-abp",
          "cs-fjp",
          "cs-dotnet",
          "cs-crossbeam_lifo",
          "tbb",
          "omp"};
}

std::unique_ptr<runtime> make_runtime(std::string_view name) {
  if (name == "serial") return make_serial_runtime();
  if (name == "coro-serial") return make_coro_serial_runtime();
  if (name == "tbb") return make_tbb_runtime();
  if (name == "omp") return make_omp_runtime();
  if (name.starts_with("sc-")) return make_pool_runtime(name.substr(3));
  if (name.starts_with("cs-")) return make_coro_pool_runtime(name.substr(3));
  return nullptr;
}

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
