// bench/measure.cpp: see measure.hpp.
#include "bench/measure.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::bench {

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

bool reset_peak_rss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

std::int64_t peak_rss_kb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long long kb = -1;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      std::sscanf(line + 6, "%lld", &kb);
      break;
    }
  }
  std::fclose(f);
  return kb;
}

namespace {

// Waits until `x` holds `want`: spins, and yields now and then so that two threads sharing one
// CPU still make progress.
void wait_for_value(const std::atomic<long>& x, long want) noexcept {
  // relaxed: the value is the whole message (no other data rides on the handoff), and
  // coherence alone makes the other thread's store of `want` visible here.
  for (unsigned spins = 1; x.load(std::memory_order_relaxed) != want; ++spins) {
    if (spins % 1024 == 0) {
      std::this_thread::yield();
    } else {
      cpu_relax();
    }
  }
}

// Pins the calling thread to one CPU; false if the kernel refused.
bool pin_to(int cpu) noexcept {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

// Seconds for `round_trips` handoffs there and back, the calling thread on CPU a, the other on b.
double ping_pong_seconds(int round_trips, int a, int b) {
  alignas(64) std::atomic<long> ball{0};
  const long n = 2L * round_trips;
  (void)pin_to(a);
  std::thread other([&] {
    (void)pin_to(b);
    for (long i = 1; i < n; i += 2) {
      wait_for_value(ball, i);
      ball.store(i + 1, std::memory_order_relaxed);  // relaxed: see wait_for_value
    }
  });
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; i += 2) {
    wait_for_value(ball, i);
    ball.store(i + 1, std::memory_order_relaxed);  // relaxed: see wait_for_value
  }
  wait_for_value(ball, n);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  other.join();
  return s;
}

}  // namespace

bool wait_until_quiet(double limit_seconds) {
  constexpr double window = 5e-3;  // >= one tick: see measure.hpp
  for (double waited = 0; waited < limit_seconds; waited += window) {
    const double c0 = process_cpu_seconds();
    std::this_thread::sleep_for(std::chrono::duration<double>(window));
    if (process_cpu_seconds() - c0 < 0.1 * window) return true;
  }
  return false;
}

double line_transfer_ns(int round_trips, int trials) {
  if (round_trips < 1 || trials < 1) return -1;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (pthread_getaffinity_np(pthread_self(), sizeof allowed, &allowed) != 0) return -1;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.size() < 2) return -1;
  std::vector<double> per_trip;
  per_trip.reserve(static_cast<std::size_t>(std::max(trials, 0)));
  for (int i = 0; i < trials; ++i)
    per_trip.push_back(ping_pong_seconds(round_trips, cpus[0], cpus[1]) * 1e9 / round_trips);
  (void)pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);  // unpin the caller
  std::nth_element(per_trip.begin(), per_trip.begin() + trials / 2, per_trip.end());
  return per_trip[static_cast<std::size_t>(trials / 2)] / 2;
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
