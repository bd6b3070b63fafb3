// bench/rt_pool.cpp: stealcheck's scheduler (scheduler/pool.hpp) with each deque variant.
#include <memory>
#include <string>

#include "bench/runtimes.hpp"
#include "scheduler/variants.hpp"

namespace stealcheck::bench {
namespace {

template <class Pool>
struct pool_rt {
  Pool& pool;
  template <class A, class B>
  void fork2(A&& a, B&& b) {
    scheduler::fork_join(pool, a, b);
  }
  struct group {
    explicit group(pool_rt& r) : g(r.pool) {}
    scheduler::task_group<typename Pool::deque_type> g;
    template <class F>
    void spawn(F&& f) {
      g.spawn(std::forward<F>(f));
    }
    void wait() { g.wait(); }
  };
};

template <class Pool>
class pool_runtime final : public runtime {
 public:
  explicit pool_runtime(std::string_view variant) : name_("sc-" + std::string(variant)) {}
  std::string_view name() const override { return name_; }
  void set_threads(unsigned p) override {
    pool_.reset();
    pool_ = std::make_unique<Pool>(p);
  }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    pool_rt<Pool> rt{*pool_};
    return pool_->run([&] { return run_kernel(rt, k, params, m); });
  }
  std::optional<scheduler::scheduler_stats> take_stats() override {
    const scheduler::scheduler_stats s = pool_->stats();
    pool_->reset_stats();
    return s;
  }

 private:
  std::string name_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace

std::unique_ptr<runtime> make_pool_runtime(std::string_view variant) {
  std::unique_ptr<runtime> r;
  scheduler::for_each_pool_variant([&](auto tag, std::string_view name) {
    if (name == variant) r = std::make_unique<pool_runtime<typename decltype(tag)::type>>(name);
  });
  return r;
}

}  // namespace stealcheck::bench
