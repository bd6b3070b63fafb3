// bench/rt_pool.cpp: stealcheck's scheduler with each deque variant, in its two modes: child
// stealing (`child-*`: scheduler/pool.hpp's fork_join and task_group under the kernels' policy)
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
  // name: the runtime's full name ("child-split", "child-split/t4"); opts: the pool's options.
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

namespace {

// The policy whose name (scheduler's *_name) is `part`, among `all`; nullopt for none.
template <class E, std::size_t N>
std::optional<E> policy_named(std::string_view part, const E (&all)[N],
                              std::string_view (*name)(E) noexcept) {
  for (const E e : all)
    if (name(e) == part) return e;
  return std::nullopt;
}

constexpr scheduler::victim_policy victim_orders[] = {scheduler::victim_policy::uniform,
                                                      scheduler::victim_policy::sweep,
                                                      scheduler::victim_policy::last_victim};
constexpr scheduler::idle_policy idle_waits[] = {
    scheduler::idle_policy::pause, scheduler::idle_policy::snooze, scheduler::idle_policy::yield};

}  // namespace

std::optional<pool_name> parse_pool_name(std::string_view name) {
  pool_name out;
  std::size_t slash = name.find('/');
  out.deque = name.substr(0, slash);
  bool throttle = false, victims = false, spin = false, amount = false, idle = false,
       search = false;
  while (slash != std::string_view::npos) {
    const std::size_t next = name.find('/', slash + 1);
    const std::string_view part = name.substr(
        slash + 1, next == std::string_view::npos ? std::string_view::npos : next - slash - 1);
    slash = next;
    if (part.starts_with("spin") && !spin) {
      const std::optional<std::uint32_t> us = parse_uint(part.substr(4), 0, max_spin_us);
      if (!us) return std::nullopt;
      out.options.spin = std::chrono::microseconds(*us);
      spin = true;
    } else if (part.starts_with("t") && !throttle) {
      const std::optional<std::uint32_t> k = parse_uint(part.substr(1), 1, max_throttle);
      if (!k) return std::nullopt;
      out.options.throttle = *k;
      throttle = true;
    } else if (const auto v = policy_named(part, victim_orders, scheduler::victim_policy_name);
               v && !victims) {
      out.options.victims = *v;
      victims = true;
    } else if (const auto w = policy_named(part, idle_waits, scheduler::idle_policy_name);
               w && !idle) {
      out.options.idle = *w;
      idle = true;
    } else if (!search && (part == "search_any" || part == "search_half")) {
      out.options.search =
          part == "search_half" ? scheduler::search_limit::half : scheduler::search_limit::any;
      search = true;
    } else if (!amount && (part == "one" || part == "half")) {
      out.options.steal =
          part == "one" ? scheduler::steal_amount::one : scheduler::steal_amount::half;
      amount = true;
    } else {
      return std::nullopt;  // unknown, or said twice
    }
  }
  return out;
}

std::unique_ptr<runtime> make_pool_runtime(std::string_view variant) {
  const std::optional<pool_name> parsed = parse_pool_name(variant);
  if (!parsed) return nullptr;
  std::unique_ptr<runtime> r;
  auto pick = [&](auto tag, std::string_view name) {
    if (name == parsed->deque)
      r = std::make_unique<pool_runtime<typename decltype(tag)::type>>(
          "child-" + std::string(variant), parsed->options);
  };
  scheduler::for_each_pool_variant(pick);
  scheduler::for_each_lifo_slot_pool(pick);
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
