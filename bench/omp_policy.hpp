// bench/omp_policy.hpp: the kernels' runtime policy on OpenMP tasks: `#pragma omp task` +
// `taskwait`, inside one `parallel` / `single` region per run. Compiled by g++ against libgomp
// (the `omp` runtime, bench/rt_omp.cpp) and by clang against LLVM's libomp (the `omp-llvm`
// module, bench/omp_llvm_module.cpp): the same source under both OpenMP runtimes.
//
// Thread role: omp_run from one thread outside any parallel region. Complexity: the kernel's.
#pragma once

#include <omp.h>

#include <cstdint>

#include "bench/kernels.hpp"

namespace stealcheck::bench {

struct omp_rt {
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    auto* pb = &b;  // b outlives the task: taskwait below
#pragma omp task firstprivate(pb)
    (*pb)();
    a();
#pragma omp taskwait
  }
  struct group {
    explicit group(omp_rt&) {}
    template <class F>
    void spawn(F f) {
#pragma omp task firstprivate(f)
      f();
    }
    void wait() {
#pragma omp taskwait
    }
  };
};

/// Kernel k on `threads` OpenMP threads; its check value.
inline std::uint64_t omp_run(kernel_id k, const kernel_params& params, matmul_data& m,
                             int threads) {
  std::uint64_t r = 0;
#pragma omp parallel num_threads(threads) default(shared)
  {
#pragma omp single
    {
      omp_rt rt;
      r = run_kernel(rt, k, params, m);
    }
  }
  return r;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
