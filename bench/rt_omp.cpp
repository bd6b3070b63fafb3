// bench/rt_omp.cpp: the `omp` runtime: OpenMP tasks on g++'s libgomp (bench/omp_policy.hpp).
#include "bench/omp_policy.hpp"
#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

class omp_runtime final : public runtime {
 public:
  std::string_view name() const override { return "omp"; }
  void set_threads(unsigned p) override { threads_ = static_cast<int>(p); }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    return omp_run(k, params, m, threads_);
  }

 private:
  int threads_ = 1;
};

}  // namespace

std::unique_ptr<runtime> make_omp_runtime() {
  return std::make_unique<omp_runtime>();
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
