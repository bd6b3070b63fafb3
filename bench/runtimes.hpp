// bench/runtimes.hpp: the runtimes the benchmark compares, behind one small interface so each
// lives in its own translation unit (OpenMP code needs -fopenmp; oneTBB its headers).
//
// Thread role: a runtime object is driven by one thread (the runner's); run() blocks until the
// kernel finished. Complexity: that of the kernel.
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "bench/kernels.hpp"
#include "scheduler/pool_options.hpp"
#include "scheduler/task.hpp"

namespace stealcheck::bench {

/// What a runtime that times itself measured in its last run (a peer in another process,
/// bench/rt_peer.cpp): the runner takes it instead of its own clocks.
struct own_measure {
  double seconds = 0;             ///< the kernel's wall time
  double cpu_seconds = 0;         ///< its process's CPU time over the kernel
  std::int64_t peak_rss_kb = -1;  ///< its process's peak resident memory, KiB (-1: unknown)
  std::int64_t steals = -1;       ///< steals its runtime counted in the run (-1: it counts none)
};

class runtime {
 public:
  virtual ~runtime() = default;
  /// "serial", "coro-serial", "child-<variant>" and "cs-<variant>" for each variant of
  /// scheduler/variants.hpp (chase_lev, locked, steal_half, split, the, abp,
  /// fjp, dotnet, crossbeam_lifo, bwos; for child-* also chase_lev+lifo, chase_lev+lifo_steal,
  /// chase_lev+lifo_steal_quiet: scheduler/lifo_slot.hpp), "tbb", "omp", "omp-llvm"; a child-*
  /// name may carry a fork throttle, "child-split/t4" (make_pool_runtime).
  virtual std::string_view name() const = 0;
  /// False: runs on the calling thread only (measured at P = 1, not in the idle check).
  virtual bool parallel() const { return true; }
  /// Requires: p >= 1. (Re)creates the runtime's threads for p workers.
  virtual void set_threads(unsigned p) = 0;
  /// Runs kernel k (from a non-worker thread) and returns its check value.
  virtual std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) = 0;
  /// Scheduler counters since the last call (stealcheck's pools only).
  virtual std::optional<scheduler::scheduler_stats> take_stats() { return std::nullopt; }
  /// Child stealing: count live tasks in the following runs (costs time: untimed runs only).
  virtual void count_live(bool /*on*/) {}
  /// Peak live frames (cs-*) or live tasks (child-*, while counting) since the last call, summed
  /// over workers; nullopt when not measured. Call before take_stats(), which resets it.
  virtual std::optional<std::int64_t> take_peak_live() { return std::nullopt; }
  /// CPU seconds the runtime's own threads used so far (stealcheck's pools only: the workers'
  /// thread clocks); nullopt for runtimes whose threads are not known.
  virtual std::optional<double> own_cpu_seconds() const { return std::nullopt; }
  /// The last run's own measure (peers only; nullopt for the runtimes of this process).
  virtual std::optional<own_measure> take_own_measure() { return std::nullopt; }
};

/// A runtime that runs every kernel on the calling thread: no threads to set, measured at
/// P = 1 only.
class calling_thread_runtime : public runtime {
 public:
  bool parallel() const override { return false; }
  void set_threads(unsigned /*p*/) override {}
};

std::unique_ptr<runtime> make_serial_runtime();
/// The coroutine kernels run serially (scheduler/coro_serial.hpp): the coroutine calls' own
/// cost, without any scheduler.
std::unique_ptr<runtime> make_coro_serial_runtime();
/// variant: a name of scheduler/variants.hpp ("chase_lev", "the", ...), optionally followed by
/// policies, each at most once, in any order (parse_pool_name); nullptr for any other name.
std::unique_ptr<runtime> make_pool_runtime(std::string_view variant);
inline constexpr std::uint32_t max_throttle = 65536;
inline constexpr std::uint32_t max_spin_us = 1000000;

/// A pool runtime's name taken apart: "split/t4/sweep/spin0" is the split deque's pool with
/// forks throttled at 4 waiting tasks (scheduler::pool_options::throttle, K in 1..max_throttle),
/// victims in sweep order (pool_options::victims: uniform, sweep or last_victim) and idle workers
/// that park after one round (pool_options::spin in microseconds, 0..max_spin_us);
/// "steal_half/one" steals one task at a time from a batch-stealing deque
/// (pool_options::steal: one or half); "chase_lev/snooze" waits between failed attempts as
/// crossbeam's Backoff::snooze (pool_options::idle: pause, snooze or yield);
/// "chase_lev/search_half" lets at most half of the workers search at once (pool_options::search:
/// search_any or search_half).
struct pool_name {
  std::string_view deque;
  scheduler::pool_options options;
};
/// nullopt when a part is unknown, out of range or given twice; the deque name is not checked.
std::optional<pool_name> parse_pool_name(std::string_view name);

/// The whole of s as a decimal integer in [lo, hi] (thread counts, throttles); nullopt for
/// anything else (empty, a sign, trailing characters, out of range).
inline std::optional<std::uint32_t> parse_uint(std::string_view s, std::uint32_t lo,
                                               std::uint32_t hi) {
  std::uint32_t v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || ptr != end || v < lo || v > hi) return std::nullopt;
  return v;
}
/// The continuation-stealing pool on that variant's deque; nullptr for any other name.
std::unique_ptr<runtime> make_coro_pool_runtime(std::string_view variant);
/// S1: the peak of live frames of kernel k run as coroutines serially (coro_serial); its
/// check value goes to `result`.
std::int64_t serial_frames(kernel_id k, const kernel_params& params, matmul_data& m,
                           std::uint64_t& result);
std::unique_ptr<runtime> make_tbb_runtime();
std::unique_ptr<runtime> make_omp_runtime();
/// omp-llvm (bench/rt_omp_llvm.cpp): nullptr when its module cannot be loaded; then
/// omp_llvm_unavailable() says why (one line).
std::unique_ptr<runtime> make_omp_llvm_runtime();
std::optional<std::string> omp_llvm_unavailable();

/// The peers: another language's runtime in a child process (bench/rt_peer.cpp). java-fjp
/// (Java's ForkJoinPool) and java-serial (plain Java recursion, its own serial baseline); go
/// (goroutines joined by a WaitGroup) and go-serial (plain Go recursion); rayon (rayon::join and
/// rayon::scope) and rayon-serial (plain Rust recursion); dotnet-mono (.NET's tasks on Mono) and
/// dotnet-serial (plain C# recursion).
bool is_peer_runtime(std::string_view name);
/// Why peer runtime `name` cannot start (one line: its program was not built, no JVM); nullopt
/// when it can. Starts no process.
std::optional<std::string> peer_unavailable(std::string_view name);
/// The serial runtime of peer runtime `name` (java-serial for java-fjp); nullopt for any other
/// name.
std::optional<std::string_view> peer_serial_runtime(std::string_view name);
/// Every peer runtime that can start, each peer's serial name before its parallel one.
std::vector<std::string> available_peer_runtimes();
/// The peer runtime called name, its process started; nullptr when unavailable.
std::unique_ptr<runtime> make_peer_runtime(std::string_view name);

/// Every runtime name, in table order.
std::vector<std::string> all_runtime_names();
/// The runtime called name; nullptr if unknown.
std::unique_ptr<runtime> make_runtime(std::string_view name);

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
