// bench/rt_tbb.cpp: oneTBB task_group (Debian's libtbb-dev), run in a task_arena of P slots
// under a global_control of P threads (so P = 4 really gets 4 threads on 2 cores).
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "bench/runtimes.hpp"

namespace stealcheck::bench {
namespace {

struct tbb_rt {
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    tbb::task_group g;
    g.run([&b] { b(); });
    a();
    g.wait();
  }
  struct group {
    explicit group(tbb_rt&) {}
    tbb::task_group g;
    template <class F>
    void spawn(F&& f) {
      g.run(std::forward<F>(f));
    }
    void wait() { g.wait(); }
  };
};

class tbb_runtime final : public runtime {
 public:
  std::string_view name() const override { return "tbb"; }
  void set_threads(unsigned p) override {
    arena_.reset();
    control_.reset();
    control_ =
        std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, p);
    arena_ = std::make_unique<tbb::task_arena>(static_cast<int>(p));
    arena_->initialize();
  }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    std::uint64_t r = 0;
    arena_->execute([&] {
      tbb_rt rt;
      r = run_kernel(rt, k, params, m);
    });
    return r;
  }

 private:
  std::unique_ptr<tbb::global_control> control_;
  std::unique_ptr<tbb::task_arena> arena_;
};

}  // namespace

std::unique_ptr<runtime> make_tbb_runtime() {
  return std::make_unique<tbb_runtime>();
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
