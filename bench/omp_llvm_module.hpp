// bench/omp_llvm_module.hpp: the interface between `stealcheck bench` (g++) and the omp-llvm
// module (clang, bench/omp_llvm_module.cpp): two C functions, found by name after dlopen.
//   std::uint64_t stealcheck_omp_llvm_layout();  omp_llvm_layout() as the module was built
//   std::uint64_t stealcheck_omp_llvm_run(int kernel, const void* params, void* matmul,
//                                         int threads);  kernel_id, kernel_params*,
//                                         matmul_data*: the kernel's check value
// Both sides pass the bench's own types by pointer; omp_llvm_layout() guards that the two
// compilers agree on their layout (a module from another build is refused).
//
// Thread role: run from one thread outside any parallel region. Complexity: the kernel's.
#pragma once

#include <cstdint>

#include "bench/kernels.hpp"

namespace stealcheck::bench {

/// The sizes of the types that cross the boundary, and the number of kernels, in one number.
constexpr std::uint64_t omp_llvm_layout() noexcept {
  return (std::uint64_t{sizeof(kernel_params)} << 32) | (std::uint64_t{sizeof(matmul_data)} << 16) |
         (std::uint64_t{sizeof(uts_tree)} << 8) | known_kernels.size();
}

/// The module's file name; it is looked for in <directory of the executable>/../lib/stealcheck/.
inline constexpr const char* omp_llvm_module_name = "libstealcheck_omp_llvm.so";

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
