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
  std::vector<std::string> names = {"serial",
                                    "coro-serial",
                                    "child-chase_lev",
                                    "child-locked",
                                    "child-steal_half",
                                    "child-split",
                                    "child-the",
                                    "child-abp",
                                    "child-fjp",
                                    "child-dotnet",
                                    "child-crossbeam_lifo",
                                    "child-bwos",
                                    "child-split/t4",  // forks throttled: fib's per-task target
                                    "cs-chase_lev",
                                    "cs-locked",
                                    "cs-steal_half",
                                    "cs-split",
                                    "cs-the",
                                    "cs-abp",
                                    "cs-fjp",
                                    "cs-dotnet",
                                    "cs-crossbeam_lifo",
                                    "cs-bwos",
                                    "tbb",
                                    "omp"};
  if (!omp_llvm_unavailable()) names.emplace_back("omp-llvm");
  for (std::string& peer : available_peer_runtimes())
    names.push_back(std::move(peer));
  return names;
}

std::unique_ptr<runtime> make_runtime(std::string_view name) {
  if (name == "serial") return make_serial_runtime();
  if (name == "coro-serial") return make_coro_serial_runtime();
  if (name == "tbb") return make_tbb_runtime();
  if (name == "omp") return make_omp_runtime();
  if (name == "omp-llvm") return make_omp_llvm_runtime();
  if (is_peer_runtime(name)) return make_peer_runtime(name);
  if (name.starts_with("child-")) return make_pool_runtime(name.substr(6));
  if (name.starts_with("cs-")) return make_coro_pool_runtime(name.substr(3));
  return nullptr;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
