// bench/rt_omp_llvm.cpp: the `omp-llvm` runtime: OpenMP tasks on LLVM's libomp, run by the module
// clang builds from the same kernels (bench/omp_llvm_module.hpp). The module is opened with its
// own symbol scope (RTLD_DEEPBIND), so its omp_* and __kmpc_* calls reach libomp while the `omp`
// runtime of this process keeps libgomp. Sanitizer runtimes refuse RTLD_DEEPBIND: in those builds
// omp-llvm is not available, and says so.
#include <dlfcn.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "bench/omp_llvm_module.hpp"
#include "bench/runtimes.hpp"
#include "stealcheck/detail/harness/env.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STEALCHECK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STEALCHECK_SANITIZED 1
#endif
#endif

namespace stealcheck::bench {
namespace {

using run_fn = std::uint64_t (*)(int, const void*, void*, int);
using layout_fn = std::uint64_t (*)();

struct loaded_module {
  run_fn run = nullptr;
  std::string error;  ///< why run is null
};

#ifndef STEALCHECK_SANITIZED
// STEALCHECK_OMP_LLVM_MODULE, else <directory of the executable>/../lib/stealcheck/<module>: the
// build tree puts the module there for tools/ and bench/, the package under /usr/lib/stealcheck.
std::string module_path() {
  if (auto env = harness::env_value("STEALCHECK_OMP_LLVM_MODULE")) return std::move(*env);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return omp_llvm_module_name;
  return (exe.parent_path().parent_path() / "lib" / "stealcheck" / omp_llvm_module_name).string();
}
#endif

loaded_module open_module() {
  loaded_module m;
#ifdef STEALCHECK_SANITIZED
  m.error = "not in a sanitizer build (the sanitizers refuse RTLD_DEEPBIND)";
#else
  const std::string path = module_path();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (handle == nullptr) {
    const char* why = dlerror();  // NOLINT(concurrency-mt-unsafe): glibc keeps it per thread
    m.error = std::string(why != nullptr ? why : path) +
              " (built when clang and LLVM's libomp are installed: apt-get install clang-16 "
              "libomp-16-dev)";
    return m;
  }
  const auto layout = std::bit_cast<layout_fn>(dlsym(handle, "stealcheck_omp_llvm_layout"));
  const auto run = std::bit_cast<run_fn>(dlsym(handle, "stealcheck_omp_llvm_run"));
  if (layout == nullptr || run == nullptr)
    m.error = path + " is not an omp-llvm module";
  else if (layout() != omp_llvm_layout())
    m.error = path + " was built from other sources than this bench";
  else
    m.run = run;
#endif
  return m;
}

const loaded_module& the_module() {
  static const loaded_module m = open_module();
  return m;
}

class omp_llvm_runtime final : public runtime {
 public:
  std::string_view name() const override { return "omp-llvm"; }
  void set_threads(unsigned p) override { threads_ = static_cast<int>(p); }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    return the_module().run(static_cast<int>(k), &params, &m, threads_);
  }

 private:
  int threads_ = 1;
};

}  // namespace

std::optional<std::string> omp_llvm_unavailable() {
  const loaded_module& m = the_module();
  return m.run != nullptr ? std::nullopt : std::optional<std::string>(m.error);
}

std::unique_ptr<runtime> make_omp_llvm_runtime() {
  if (omp_llvm_unavailable()) return nullptr;
  return std::make_unique<omp_llvm_runtime>();
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
