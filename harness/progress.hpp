// harness/progress.hpp: the status line of a long command (verify, model, mutate, fuzz,
// certify, merge, bench, litmus on a directory), so that a slow run is told from a hung one.
//
// On a terminal the line is redrawn on stderr four times a second: what is running, the work
// done (of the total, when it is known), its rate, the time elapsed and, where an estimate
// exists, the time left:
//
//   verify: abp: model push2_pop_steal2: 12 of 140 cells, 1.9/s, 6 s, about 67 s left
//
// Nothing of it reaches a pipe, a file, JSON or a CI log: it is drawn only when stderr is a
// terminal, unless the command line says `--progress` (drawn anyway) or `--no-progress`.
// Result lines printed while it is drawn go through print_clear(), which erases the line first.
//
// Thread role: a status_line is made and destroyed by the command's main thread; label(),
// add(), done() and counter() may be called from any thread (the model checker's explorers
// bump counter()). Its own thread draws; the destructor stops it and erases the line.
// Cost: an atomic add per unit of work, and a redraw every 250 ms.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace stealcheck::harness {

/// --progress (true) or --no-progress (false) from the command line; nullopt: on a terminal.
void set_progress_override(std::optional<bool> on);
/// Whether status lines are drawn: the override if set, else whether stderr is a terminal.
bool progress_wanted();

class status_line {
 public:
  /// `what`: the command ("verify"); `unit`: what done() counts ("executions"); `total`: how
  /// many are expected (0: unknown, no time left is shown). Draws only if progress_wanted().
  status_line(std::string what, std::string unit, std::uint64_t total = 0);
  ~status_line();
  status_line(const status_line&) = delete;
  status_line& operator=(const status_line&) = delete;

  /// What is running now (shown after the command's name).
  void label(std::string text);
  void total(std::uint64_t n) { total_.store(n, std::memory_order_relaxed); }
  /// A run bounded by time (`--seconds S`): the time left is what remains of S.
  void deadline(double seconds) { deadline_ = seconds; }
  void add(std::uint64_t n = 1) { done_.fetch_add(n, std::memory_order_relaxed); }
  void done(std::uint64_t n) { done_.store(n, std::memory_order_relaxed); }
  /// The work counter itself, for code that counts on its own (model::options::progress).
  std::atomic<std::uint64_t>& counter() { return done_; }
  bool on() const { return on_; }
  /// Stops drawing and erases the line (before the command prints its result); the destructor
  /// does the same. Idempotent.
  void stop();

  /// Erases the line, runs print (which writes result lines to stdout) and flushes stdout; the
  /// line is drawn again at the next tick.
  template <class F>
  void print_clear(F&& print) {
    const std::lock_guard<std::mutex> lock(m_);
    erase();
    print();
    std::fflush(stdout);
  }

 private:
  void draw();
  void erase();

  std::string what_;
  std::string unit_;
  bool on_;
  double deadline_ = 0;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> total_{0};
  std::chrono::steady_clock::time_point t0_;
  std::mutex m_;  // guards label_, drawn_, stop_ and the drawing itself
  std::condition_variable cv_;
  std::string label_;
  bool drawn_ = false;
  bool stop_ = false;
  std::thread drawer_;
};

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
