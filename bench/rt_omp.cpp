// bench/rt_omp.cpp: OpenMP tasks (g++'s libgomp): `#pragma omp task` + `taskwait` inside one
// `parallel` / `single` region per run.
#include <omp.h>

#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

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

class omp_runtime final : public runtime {
 public:
  std::string_view name() const override { return "omp"; }
  void set_threads(unsigned p) override { threads_ = static_cast<int>(p); }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    std::uint64_t r = 0;
#pragma omp parallel num_threads(threads_) default(shared)
    {
#pragma omp single
      {
        omp_rt rt;
        r = run_kernel(rt, k, params, m);
      }
    }
    return r;
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
