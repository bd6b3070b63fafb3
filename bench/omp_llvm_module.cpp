// bench/omp_llvm_module.cpp: the kernels under LLVM's OpenMP runtime (libomp), built by clang
// into a module that `stealcheck bench` loads for the `omp-llvm` runtime (bench/rt_omp_llvm.cpp).
// One process cannot link both libgomp and libomp (both define omp_* and GOMP_*), so this module
// is loaded with its own symbol scope. The same policy source as `omp` (bench/omp_policy.hpp).
#include "bench/omp_llvm_module.hpp"

#include "bench/omp_policy.hpp"

extern "C" {

std::uint64_t stealcheck_omp_llvm_layout() {
  return stealcheck::bench::omp_llvm_layout();
}

std::uint64_t stealcheck_omp_llvm_run(int kernel, const void* params, void* matmul, int threads) {
  using namespace stealcheck::bench;
  return omp_run(static_cast<kernel_id>(kernel), *static_cast<const kernel_params*>(params),
                 *static_cast<matmul_data*>(matmul), threads);
}

}  // extern "C"
// SPDX-License-Identifier: Apache-2.0
