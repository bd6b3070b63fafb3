// harness/progress.cpp: the status line of a long command (harness/progress.hpp).
#include "stealcheck/detail/harness/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <utility>

namespace stealcheck::harness {

namespace {
// Written once by the command line's parse, before any status line exists; read after.
std::optional<bool> override_on;

std::string duration(double s) {
  if (s < 120) return fmt::format("{:.0f} s", s);
  const auto whole = static_cast<long>(s);
  if (s < 7200) return fmt::format("{} min {} s", whole / 60, whole % 60);
  return fmt::format("{:.1f} h", s / 3600);
}

std::string rate(double r) {
  return r >= 100 ? fmt::format("{:.0f}", r) : fmt::format("{:.1f}", r);
}
}  // namespace

void set_progress_override(std::optional<bool> on) {
  override_on = on;
}

bool progress_wanted() {
  return override_on ? *override_on : ::isatty(STDERR_FILENO) == 1;
}

status_line::status_line(std::string what, std::string unit, std::uint64_t total)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      on_(progress_wanted()),
      total_(total),
      t0_(std::chrono::steady_clock::now()) {
  if (!on_) return;
  drawer_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(m_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; }))
      draw();
  });
}

status_line::~status_line() {
  stop();
}

void status_line::stop() {
  if (!on_ || !drawer_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_one();
  drawer_.join();
  erase();
}

void status_line::label(std::string text) {
  if (!on_) return;
  const std::lock_guard<std::mutex> lock(m_);
  label_ = std::move(text);
}

// Called with m_ held.
void status_line::draw() {
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const std::uint64_t n = done_.load(std::memory_order_relaxed);
  const std::uint64_t of = total_.load(std::memory_order_relaxed);
  std::string line = what_;
  if (!label_.empty()) line += ": " + label_;
  line += of != 0 ? fmt::format(": {} of {} {}", n, of, unit_) : fmt::format(": {} {}", n, unit_);
  line += fmt::format(", {}/s, {}", rate(t > 0 ? static_cast<double>(n) / t : 0), duration(t));
  if (deadline_ > 0 && t < deadline_)
    line += ", about " + duration(deadline_ - t) + " left";
  else if (of != 0 && n != 0 && n < of)
    line +=
        ", about " + duration(t * static_cast<double>(of - n) / static_cast<double>(n)) + " left";
  // \r and erase-to-end: the line is drawn on a terminal only
  std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

// Called with m_ held, or after the drawer stopped.
void status_line::erase() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\x1b[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
