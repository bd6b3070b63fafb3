// litmus/hw.cpp: native runs of the generated litmus code (see hw.hpp).
#include "litmus/hw.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "litmus/hw_test.hpp"
#include "litmus/reference.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::litmus {
namespace {

constexpr std::uint64_t default_rounds = 100'000;
constexpr std::size_t batch_rounds = 5'000;

/// Runs one generated test for a number of rounds and counts the outcomes.
class hw_runner {
 public:
  hw_runner(const hw_test& h, const test& t) : h_(h), t_(t) {}

  std::map<outcome, std::uint64_t> run(std::uint64_t rounds) {
    std::map<outcome, std::uint64_t> counts;
    for (std::uint64_t done = 0; done < rounds;) {
      const std::size_t b =
          static_cast<std::size_t>(std::min<std::uint64_t>(batch_rounds, rounds - done));
      run_batch(b);
      collect(b, counts);
      done += b;
    }
    return counts;
  }

 private:
  const hw_test& h_;
  const test& t_;
  std::vector<hw_cell> cells_;
  std::vector<std::vector<value_t>> regs_, plains_;
  std::atomic<std::uint64_t> arrived_{0};

  std::size_t nlocs() const { return t_.locations.size(); }
  std::size_t nlocals(std::size_t th) const { return t_.threads[th].locals.size(); }

  void reset(std::size_t b) {
    cells_ = std::vector<hw_cell>(b * nlocs());
    for (std::size_t r = 0; r < b; ++r)
      for (std::size_t l = 0; l < nlocs(); ++l)
        cells_[r * nlocs() + l].v.store(t_.locations[l].init, std::memory_order_relaxed);
    regs_.assign(h_.threads, {});
    plains_.assign(h_.threads, {});
    for (std::size_t th = 0; th < h_.threads; ++th) {
      regs_[th].assign(b * nlocals(th), 0);
      for (std::size_t r = 0; r < b; ++r)
        for (const location& p : t_.plains)
          plains_[th].push_back(p.init);
    }
    arrived_.store(0, std::memory_order_relaxed);
  }

  /// Thread `th`: for each round, wait until every thread has arrived (a spin barrier that
  /// starts the threads of a round together), then run the test's thread on the round's cells.
  void worker(std::size_t th, std::size_t b, bool yield) {
    const std::uint64_t n = h_.threads;
    const std::size_t np = t_.plains.size();
    for (std::size_t r = 0; r < b; ++r) {
      // acq_rel: the barrier orders the reset (before the threads start) and nothing else;
      // the round itself runs with only the test's own orders.
      arrived_.fetch_add(1, std::memory_order_acq_rel);
      for (unsigned spins = 0; arrived_.load(std::memory_order_acquire) < n * (r + 1); ++spins)
        if (yield || spins > 2000) std::this_thread::yield();
      h_.bodies[th](&cells_[r * nlocs()], regs_[th].data() + r * nlocals(th),
                    plains_[th].data() + r * np);
    }
  }

  void run_batch(std::size_t b) {
    reset(b);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const bool pin = h_.threads <= cores;
    std::vector<std::thread> threads;
    for (std::size_t th = 0; th < h_.threads; ++th) {
      threads.emplace_back([this, th, b, pin] { worker(th, b, !pin); });
      if (!pin) continue;
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(th % cores, &set);
      pthread_setaffinity_np(threads.back().native_handle(), sizeof set, &set);  // best effort
    }
    for (std::thread& t : threads)
      t.join();
  }

  void collect(std::size_t b, std::map<outcome, std::uint64_t>& counts) const {
    std::vector<thread_state> st(h_.threads);
    std::vector<value_t> memory(nlocs());
    const std::size_t np = t_.plains.size();
    for (std::size_t r = 0; r < b; ++r) {
      for (std::size_t th = 0; th < h_.threads; ++th) {
        const value_t* regs = regs_[th].data() + r * nlocals(th);
        st[th].locals.assign(regs, regs + nlocals(th));
        const value_t* pl = plains_[th].data() + r * np;
        st[th].plains.assign(pl, pl + np);
      }
      for (std::size_t l = 0; l < nlocs(); ++l)
        memory[l] = cells_[r * nlocs() + l].v.load(std::memory_order_relaxed);
      ++counts[observe(t_, st, memory)];
    }
  }
};

const hw_test* find_hw_test(const std::string& name) {
  for (std::size_t i = 0; i < hw_tests_count; ++i)
    if (hw_tests[i].name == name) return &hw_tests[i];
  return nullptr;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct hw_summary {
  std::size_t tests = 0, missing = 0, forbidden_tests = 0, condition_seen = 0;
  nlohmann::json json = nlohmann::json::array();
};

/// Prints the observed states of one test, marking those RC11 forbids; adds its JSON.
void report_states(const test& t, const std::map<outcome, std::uint64_t>& counts,
                   const run_result& model, std::uint64_t n, std::ostream& out, nlohmann::json& j) {
  std::uint64_t seen = 0, forbidden = 0;
  nlohmann::json states = nlohmann::json::array();
  for (const auto& [o, c] : counts) {
    const bool allowed = model.error.empty() && model.outcomes.count(o) != 0;
    fmt::print(out, "  {} {:<40} {:>9} ({:.3f}%){}\n", satisfies(t, o) ? '*' : ' ',
               format_outcome(t, o), c, 100.0 * static_cast<double>(c) / static_cast<double>(n),
               allowed ? "" : "  FORBIDDEN by rc11");
    seen += satisfies(t, o) ? c : 0;
    forbidden += allowed ? 0 : c;
    states.push_back({{"outcome", format_outcome(t, o)}, {"count", c}, {"rc11_allowed", allowed}});
  }
  fmt::print(out, "  Condition {} {}: satisfied in {} of {} rounds (rc11 says {})\n",
             to_string(t.quant), format_prop(t.condition), seen, n,
             to_string(verdict_of(t, model)));
  if (forbidden != 0)
    fmt::print(out, "FORBIDDEN {}: {} rounds show outcomes RC11 forbids\n", t.name, forbidden);
  j["states"] = states;
  j["condition_rounds"] = seen;
  j["forbidden_rounds"] = forbidden;
}

/// Runs one test on the hardware and prints its report. A test without native code in this
/// build (or whose file changed since) is counted as missing.
void run_one(const test& file_test, std::uint64_t rounds, std::ostream& out, std::ostream& err,
             hw_summary& sum) {
  const hw_test* h = find_hw_test(file_test.name);
  if (h == nullptr || h->source != read_text(file_test.file)) {
    fmt::print(err,
               "{}:1:1: no native code for test '{}' in this build{} (--hw runs the "
               "suite compiled in at build time)\n",
               file_test.file, file_test.name, h ? " (the file changed: rebuild)" : "");
    ++sum.missing;
    return;
  }
  const test t = std::get<test>(parse_litmus(h->source, file_test.file));
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t n = h->threads > cores ? std::max<std::uint64_t>(rounds / 10, 1) : rounds;
  const auto start = std::chrono::steady_clock::now();
  const std::map<outcome, std::uint64_t> counts = hw_runner(*h, t).run(n);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(out, "Test {} (hw, {} rounds, {} threads, {:.2f} s)\n", t.name, n, h->threads, secs);
  nlohmann::json j = {{"stealcheck_version", harness::version()},
                      {"name", t.name},
                      {"file", file_test.file},
                      {"rounds", n},
                      {"seconds", secs}};
  report_states(t, counts, enumerate_reference(compile(t), model_kind::rc11), n, out, j);
  ++sum.tests;
  sum.forbidden_tests += j["forbidden_rounds"].get<std::uint64_t>() != 0 ? 1 : 0;
  sum.condition_seen += j["condition_rounds"].get<std::uint64_t>() != 0 ? 1 : 0;
  sum.json.push_back(std::move(j));
}

}  // namespace

int run_hardware(const std::vector<test>& tests, const litmus_options& opt, std::ostream& out,
                 std::ostream& err) {
  const std::uint64_t rounds = opt.rounds != 0 ? opt.rounds : default_rounds;
  hw_summary sum;
  for (const test& t : tests)
    run_one(t, rounds, out, err, sum);
  fmt::print(out,
             "litmus --hw: {} tests run ({} rounds each, /10 when threads > cores), "
             "condition observed in {}, {} with FORBIDDEN outcomes, {} without native code\n",
             sum.tests, rounds, sum.condition_seen, sum.forbidden_tests, sum.missing);
  if (!opt.json_file.empty()) {
    std::ofstream j(opt.json_file);
    j << sum.json.dump(2) << "\n";
  }
  if (sum.missing != 0) return 2;
  return sum.forbidden_tests != 0 ? 1 : 0;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
