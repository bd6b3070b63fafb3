// harness/checker.cpp: see checker.hpp.
#include "stealcheck/detail/harness/checker.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace stealcheck::harness {
namespace {

// What run_checker runs, for the fatal-signal line: "lincheck/native on chase_lev". Written
// by the thread that runs the units, read by the signal handler (a torn read prints a mixed
// name, never past the buffer: the last byte stays 0).
char running[256] = {};

void set_running(const checker& c, const check_unit& u, const variant& v) {
  std::string text = c.name + "/" + u.name + " on " + std::string(v.name());
  text.resize(std::min(text.size(), sizeof running - 1));
  std::memcpy(running, text.c_str(), text.size() + 1);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
constexpr int noted_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void write_text(const char* s) {
  for (std::size_t left = std::strlen(s); left > 0;) {
    const ssize_t w = ::write(STDERR_FILENO, s, left);
    if (w <= 0) return;
    s += w;
    left -= static_cast<std::size_t>(w);
  }
}

// write(2) only: the fault may have come from inside malloc, whose lock is then held.
void on_fatal_signal(int sig) {
  write_text("stealcheck: error: died of SIG");
  const char* abbrev = ::sigabbrev_np(sig);
  write_text(abbrev != nullptr ? abbrev : "?");
  if (running[0] != '\0') {
    write_text(" while running ");
    write_text(running);
  }
  write_text(" (a fault of stealcheck itself: please report it with the command line)\n");
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}
#endif

}  // namespace

void note_fatal_signals() {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    ::sigemptyset(&sa.sa_mask);
    for (const int sig : noted_signals)
      ::sigaction(sig, &sa, nullptr);
  });
#endif
}

std::string_view verdict_name(cell_verdict v) noexcept {
  switch (v) {
    case cell_verdict::pass:
      return "pass";
    case cell_verdict::fail:
      return "fail";
    case cell_verdict::skipped:
      return "skipped";
  }
  return "?";
}

check_cell run_checker(const checker& c, const variant& v, const verify_options& o) {
  check_cell cell;
  std::size_t ran = 0;
  std::string skipped;
  for (const check_unit& u : c.units(v)) {
    set_running(c, u, v);
    if (o.progress != nullptr)
      o.progress->label(std::string(v.name()) + ": " + c.name + " " + u.name);
    check_cell r = u.run(o);
    if (o.progress != nullptr) o.progress->add();
    cell.seconds += r.seconds;
    if (r.verdict == cell_verdict::skipped) {
      skipped += (skipped.empty() ? "" : "; ") + u.name + ": " + r.detail;
      continue;
    }
    ++ran;
    for (const auto& [key, n] : r.counts)
      cell.counts[key] += n;
    if (r.verdict == cell_verdict::fail) {
      cell.verdict = cell_verdict::fail;
      cell.detail = "failed in " + u.name;
      cell.failure = u.name + ": " + r.failure;
      cell.kind = r.kind;
      cell.replay = std::move(r.replay);
      return cell;
    }
  }
  if (ran == 0) {
    cell.detail = skipped.empty() ? "not applicable" : skipped;
    return cell;
  }
  cell.verdict = cell_verdict::pass;
  cell.detail = c.summarize ? c.summarize(ran, cell.counts) : std::to_string(ran) + " units";
  return cell;
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
