// models/runtime/crash.cpp: one error line and exit code 2 when a model thread crashes (see
// crash.hpp).
//
// The handler formats with write(2) only (async-signal-safe; no allocation, no stdio): the
// crash may have come from inside malloc, whose lock is then held. It reads the execution the
// faulting OS thread was running (a thread-local pointer) and the faulting model thread's last
// recorded event. No replay token: encoding one allocates.
#include "stealcheck/detail/models/runtime/crash.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <mutex>

#include "stealcheck/detail/models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
namespace {

constexpr int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previous[std::size(crash_signals)];

// A fixed buffer for one line.
class line {
 public:
  line& operator<<(const char* s) {
    while (*s != '\0' && n_ < sizeof buf_ - 1)
      buf_[n_++] = *s++;
    return *this;
  }
  line& operator<<(std::uint64_t v) {
    char d[20];
    std::size_t k = 0;
    do {
      d[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (k > 0 && n_ < sizeof buf_ - 1)
      buf_[n_++] = d[--k];
    return *this;
  }
  line& hex(std::uintptr_t v) {
    *this << "0x";
    int shift = 60;
    while (shift > 0 && ((v >> shift) & 0xf) == 0)
      shift -= 4;
    for (; shift >= 0; shift -= 4)
      if (n_ < sizeof buf_ - 1) buf_[n_++] = "0123456789abcdef"[(v >> shift) & 0xf];
    return *this;
  }
  void emit() {
    buf_[n_++] = '\n';
    for (std::size_t done = 0; done < n_;) {
      const ssize_t w = ::write(STDERR_FILENO, buf_ + done, n_ - done);
      if (w <= 0) return;
      done += static_cast<std::size_t>(w);
    }
  }

 private:
  char buf_[1024]{};
  std::size_t n_ = 0;
};

const char* describe(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (invalid memory access";
    case SIGBUS:
      return "SIGBUS (bus error";
    case SIGFPE:
      return "SIGFPE (arithmetic error, such as a division by zero";
    case SIGILL:
      return "SIGILL (illegal instruction";
    default:
      return "SIGABRT (abort: a failed assert() or std::terminate";
  }
}

// The stack pointer of the interrupted code, or 0 where this platform's context is unknown.
std::uintptr_t interrupted_sp(void* uc) {
  const auto* u = static_cast<const ucontext_t*>(uc);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(u->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(u->uc_mcontext.sp);
#else
  (void)u;
  return 0;
#endif
}

bool within(std::uintptr_t a, const void* lo, std::size_t bytes) {
  const auto l = reinterpret_cast<std::uintptr_t>(lo);
  return a >= l && a - l < bytes;
}

void on_crash(int sig, siginfo_t* info, void* uc) {
  execution* x = tls_current_execution;
  if (x == nullptr) {  // not exploring on this OS thread: what was there before decides
    for (std::size_t k = 0; k < std::size(crash_signals); ++k)
      if (crash_signals[k] == sig) ::sigaction(sig, &previous[k], nullptr);
    ::raise(sig);  // delivered when this handler returns (or a fault recurs)
    return;
  }
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const std::uintptr_t sp = interrupted_sp(uc);
  const std::size_t guard = stack_guard_bytes();
  line l;
  l << "stealcheck: error: ";
  // which model thread: the one whose guard page was hit, or the one whose stack the
  // interrupted code ran on (the current fiber, if the platform's context is unknown)
  std::size_t t = x->threads.size();
  bool overflow = false;
  for (std::size_t k = 0; k < x->threads.size(); ++k) {
    const model_thread& th = *x->threads[k];
    if (th.stack_base == nullptr) continue;
    if ((sig == SIGSEGV || sig == SIGBUS) &&
        within(addr, static_cast<const char*>(th.stack_base) - guard, guard)) {
      t = k;
      overflow = true;
      break;
    }
    if (sp != 0 && within(sp, th.stack_base, th.stack_size)) t = k;
  }
  if (sp == 0 && t == x->threads.size() && x->current() < x->threads.size()) t = x->current();
  if (t == x->threads.size()) {
    l << describe(sig) << ") outside every model thread, in the checker or in an "
      << "options::on_complete callback; if not in yours, a stealcheck bug: please report it "
      << "with the command line";
    l.emit();
    ::_exit(2);
  }
  l << "model thread " << std::uint64_t{t};
  if (overflow)
    l << " overflowed its fiber stack of " << std::uint64_t{x->threads[t]->stack_size >> 10}
      << " KiB (deep recursion in the code under test)";
  else
    l << " crashed: " << describe(sig) << (sig == SIGSEGV || sig == SIGBUS ? " at " : "");
  if (!overflow && (sig == SIGSEGV || sig == SIGBUS)) l.hex(addr);
  if (!overflow) l << ")";
  if (const event* e = x->last_event(t)) {
    l << " after its event (" << std::uint64_t{t} << ", "
      << std::uint64_t{x->threads[t]->cursor - 1} << ")";
    if (e->src.line != 0) l << " at " << e->src.file << ":" << std::uint64_t{e->src.line};
  } else {
    l << " before its first event";
  }
  l << "; no verdict for this client";
  l.emit();
  ::_exit(2);
}

}  // namespace

void install_crash_report() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    ::sigemptyset(&sa.sa_mask);
    for (std::size_t k = 0; k < std::size(crash_signals); ++k)
      ::sigaction(crash_signals[k], &sa, &previous[k]);
  });
  // an overflowed fiber stack cannot run the handler: each exploring OS thread gets its own
  // alternate stack (kept for the thread's lifetime)
  static thread_local char alt[64 << 10];
  static thread_local bool set = false;
  if (!set) {
    stack_t old{};
    ::sigaltstack(nullptr, &old);
    if ((old.ss_flags & SS_DISABLE) == 0) {  // someone else's alternate stack serves as well
      set = true;
      return;
    }
    stack_t ss{};
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    set = ::sigaltstack(&ss, nullptr) == 0;
  }
}

#else

void install_crash_report() {}

#endif

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
