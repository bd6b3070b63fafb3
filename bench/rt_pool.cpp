// bench/rt_pool.cpp: stealcheck's scheduler with each deque variant, in its two modes: child
// stealing (`sc-*`: scheduler/pool.hpp's fork_join and task_group under the kernels' policy)
// and continuation stealing (`cs-*`: scheduler/coro_pool.hpp running bench/coro_kernels.hpp).
//
// Live tasks of child stealing: while counting is on (the runner's untimed warm-up run), every
// fork2 second branch and every spawned closure is counted from its creation until it finished,
// per worker (the creator adds, the runner subtracts), and the workers' peaks are summed: an
// upper bound of the pool's peak, as frame_arena.hpp's count of continuation stealing's frames.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/coro_kernels.hpp"
#include "bench/runtimes.hpp"
#include "scheduler/coro_serial.hpp"
#include "scheduler/variants.hpp"

namespace stealcheck::bench {
namespace {

// The pool's counters since the last call (resets them, and the frames' peaks).
template <class P>
scheduler::scheduler_stats take_pool_stats(P& pool) {
  const scheduler::scheduler_stats s = pool.stats();
  pool.reset_stats();
  return s;
}

// One live_peak per worker, indexed by the calling worker.
template <class D>
struct live_tasks {
  struct alignas(64) slot {
    scheduler::live_peak count;
  };
  explicit live_tasks(unsigned p) : slots(p) {}
  std::vector<slot> slots;
  void add(std::int64_t d) noexcept { slots[scheduler::current_worker<D>->index].count.add(d); }
  std::int64_t peak_sum() noexcept {
    std::int64_t s = 0;
    for (auto& x : slots) {
      s += x.count.peak();
      x.count.reset();
    }
    return s;
  }
};

template <class Pool, bool Count>
struct pool_rt {
  using D = typename Pool::deque_type;
  Pool& pool;
  live_tasks<D>* live;
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    if constexpr (Count) live->add(+1);  // fork_join returns on the worker it started on
    scheduler::fork_join(pool, a, b);
    if constexpr (Count) live->add(-1);
  }
  struct group {
    explicit group(pool_rt& r) : g(r.pool), live(r.live) {}
    scheduler::task_group<D> g;
    live_tasks<D>* live;
    template <class F>
    void spawn(F&& f) {
      if constexpr (Count) {
        live->add(+1);
        g.spawn([f = std::forward<F>(f), l = live]() mutable {
          f();
          l->add(-1);
        });
      } else {
        g.spawn(std::forward<F>(f));
      }
    }
    void wait() { g.wait(); }
  };
};

template <class Pool>
class pool_runtime final : public runtime {
 public:
  // name: the runtime's full name ("sc-split", "sc-split/t4"); opts: the pool's options.
  pool_runtime(std::string name, scheduler::pool_options opts)
      : name_(std::move(name)), opts_(opts) {}
  std::string_view name() const override { return name_; }
  void set_threads(unsigned p) override {
    pool_.reset();
    pool_ = std::make_unique<Pool>(p, opts_);
    live_ = std::make_unique<live_tasks<typename Pool::deque_type>>(p);
  }
  void count_live(bool on) override { counting_ = on; }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    if (counting_) {
      pool_rt<Pool, true> rt{*pool_, live_.get()};
      return pool_->run([&] { return run_kernel(rt, k, params, m); });
    }
    pool_rt<Pool, false> rt{*pool_, live_.get()};
    return pool_->run([&] { return run_kernel(rt, k, params, m); });
  }
  std::optional<std::int64_t> take_peak_live() override {
    if (!counting_) return std::nullopt;
    return live_->peak_sum();
  }
  std::optional<scheduler::scheduler_stats> take_stats() override {
    return take_pool_stats(*pool_);
  }
  std::optional<double> own_cpu_seconds() const override { return pool_->workers_cpu_seconds(); }

 private:
  std::string name_;
  scheduler::pool_options opts_;
  std::unique_ptr<Pool> pool_;
  std::unique_ptr<live_tasks<typename Pool::deque_type>> live_;
  bool counting_ = false;
};

// Frames are always counted (the frame arena's own count, part of every timed run).
template <class D>
class coro_pool_runtime final : public runtime {
 public:
  using pool_type = scheduler::coro_pool<D>;
  explicit coro_pool_runtime(std::string_view variant) : name_("cs-" + std::string(variant)) {}
  std::string_view name() const override { return name_; }
  void set_threads(unsigned p) override {
    pool_.reset();
    pool_ = std::make_unique<pool_type>(p);
  }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    return pool_->run([&] { return run_coro_kernel<pool_type>(k, params, m); });
  }
  std::optional<std::int64_t> take_peak_live() override { return pool_->peak_frames(); }
  std::optional<scheduler::scheduler_stats> take_stats() override {
    return take_pool_stats(*pool_);
  }
  std::optional<double> own_cpu_seconds() const override { return pool_->workers_cpu_seconds(); }

 private:
  std::string name_;
  std::unique_ptr<pool_type> pool_;
};

// The coroutine kernels run serially on the calling thread (scheduler/coro_serial.hpp): no
// deque, no worker, every fork a call. What it costs over `serial` is the cost of the coroutine
// calls themselves (frame allocation, resumption, destruction), the floor under every cs-* row.
class coro_serial_runtime final : public calling_thread_runtime {
 public:
  std::string_view name() const override { return "coro-serial"; }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    return scheduler::coro_serial::run(
        [&] { return run_coro_kernel<scheduler::coro_serial>(k, params, m); }, &peak_);
  }
  std::optional<std::int64_t> take_peak_live() override { return peak_; }

 private:
  std::int64_t peak_ = -1;
};

}  // namespace

std::unique_ptr<runtime> make_coro_serial_runtime() {
  return std::make_unique<coro_serial_runtime>();
}

std::unique_ptr<runtime> make_pool_runtime(std::string_view variant) {
  scheduler::pool_options opts;
  std::string_view deque = variant;
  if (const std::size_t slash = variant.find("/t"); slash != std::string_view::npos) {
    const std::optional<std::uint32_t> k = parse_uint(variant.substr(slash + 2), 1, max_throttle);
    if (!k) return nullptr;
    opts.throttle = *k;
    deque = variant.substr(0, slash);
  }
  std::unique_ptr<runtime> r;
  scheduler::for_each_pool_variant([&](auto tag, std::string_view name) {
    if (name == deque)
      r = std::make_unique<pool_runtime<typename decltype(tag)::type>>("sc-" + std::string(variant),
                                                                       opts);
  });
  return r;
}

std::unique_ptr<runtime> make_coro_pool_runtime(std::string_view variant) {
  std::unique_ptr<runtime> r;
  scheduler::for_each_pool_variant([&](auto tag, std::string_view name) {
    using D = typename decltype(tag)::type::deque_type;
    if (name == variant) r = std::make_unique<coro_pool_runtime<D>>(name);
  });
  return r;
}

std::int64_t serial_frames(kernel_id k, const kernel_params& params, matmul_data& m,
                           std::uint64_t& result) {
  std::int64_t s1 = 0;
  result = scheduler::coro_serial::run(
      [&] { return run_coro_kernel<scheduler::coro_serial>(k, params, m); }, &s1);
  return s1;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
