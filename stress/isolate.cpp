#include "stealcheck/detail/stress/isolate.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/stress/oplog.hpp"

namespace stealcheck::stress {
namespace {

// The result travels as one line of text: the counters, then the failure text.
std::string encode(const result& r) {
  return fmt::format("{} {} {} {} {} {} {} {} {} {} {} {:.6f} {}", static_cast<int>(r.which),
                     r.ok ? 1 : 0, static_cast<int>(r.kind), r.pushed, r.push_full, r.popped,
                     r.stolen, r.steal_empty, r.steal_abort, r.drained, r.renewals, r.seconds,
                     r.failure);
}

bool decode(const std::string& s, result& r) {
  int which = 0, ok = 0, kind = 0, used = 0;
  unsigned long long v[8];
  if (std::sscanf(s.c_str(), "%d %d %d %llu %llu %llu %llu %llu %llu %llu %llu %lf %n", &which, &ok,
                  &kind, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &r.seconds,
                  &used) < 12 ||
      kind < 0 || static_cast<std::size_t>(kind) >= failure_kinds) {
    return false;
  }
  r.which = static_cast<scenario_kind>(which);
  r.ok = ok == 1;
  r.kind = static_cast<failure_kind>(kind);
  r.pushed = v[0];
  r.push_full = v[1];
  r.popped = v[2];
  r.stolen = v[3];
  r.steal_empty = v[4];
  r.steal_abort = v[5];
  r.drained = v[6];
  r.renewals = v[7];
  r.failure = s.substr(static_cast<std::size_t>(used));
  return true;
}

result failed(std::string why, failure_kind kind) {
  result r;
  r.ok = false;
  r.failure = std::move(why);
  r.kind = kind;
  return r;
}

enum class ending { finished, deadline, stalled, memory };

// The child's resident memory in bytes (0 if /proc cannot tell).
std::uint64_t resident_bytes(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// The limits of one child and what it has used of them.
struct watch {
  double deadline_seconds = 0;
  double stall_seconds = 0;
  std::uint64_t memory_ceiling = 0;
  std::uint64_t start_resident = 0;  // at the first look, shortly after fork()
  std::uint64_t harness = 0;         // the board's harness_bytes at the last look
  // The child's growth beyond its start and the harness's own, in bytes.
  std::uint64_t growth(pid_t pid, const oplog::board& b) {
    const std::uint64_t now = resident_bytes(pid);
    // relaxed: a tally; the child's writes to it order nothing
    const std::int64_t h = b.harness_bytes.load(std::memory_order_relaxed);
    harness = h > 0 ? static_cast<std::uint64_t>(h) : 0;
    const std::uint64_t counted = start_resident + harness;
    return now > counted ? now - counted : 0;
  }
};

// Reads the child's pipe until EOF or the deadline, until the child grew past its memory
// ceiling, or (stall_seconds > 0) until one thread of the child stayed inside one deque
// operation for stall_seconds.
ending read_until(int fd, pid_t pid, std::string& out, const oplog::board& b, watch& w) {
  using clock = std::chrono::steady_clock;
  const double stall_seconds = w.stall_seconds;
  const auto end = clock::now() + std::chrono::duration<double>(w.deadline_seconds);
  w.start_resident = resident_bytes(pid);
  std::vector<std::uint64_t> seen = oplog::progress(b);
  std::vector<clock::time_point> since(seen.size(), clock::now());  // when seen[i] changed
  char buf[4096];
  for (;;) {
    const auto now = clock::now();
    if (now >= end) return ending::deadline;
    if (w.growth(pid, b) > w.memory_ceiling) return ending::memory;
    if (stall_seconds > 0) {
      const std::vector<std::uint64_t> counts = oplog::progress(b);
      for (std::uint32_t i = 0; i < counts.size(); ++i) {
        if (counts[i] != seen[i]) {
          seen[i] = counts[i];
          since[i] = now;
        } else if (oplog::inside(b, i) &&
                   std::chrono::duration<double>(now - since[i]).count() >= stall_seconds) {
          return ending::stalled;
        }
      }
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count();
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100))) <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return ending::finished;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// The child's pipe, for the terminate handler: the first byte says what follows ('R' the
// payload, 'X' what was thrown).
int child_fd = -1;

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t w = ::write(fd, s.data() + done, s.size() - done);
    if (w <= 0) return;
    done += static_cast<std::size_t>(w);
  }
}

// The calling thread took the fault, unless another thread's came first. Async-signal-safe:
// a lock-free atomic and a thread-local int.
void mark_fault() noexcept {
  int none = -1;
  oplog::active()->fault_thread.compare_exchange_strong(none, oplog::current_thread(),
                                                        std::memory_order_relaxed);
}

[[noreturn]] void report_terminate() {
  mark_fault();
  const std::exception_ptr e = std::current_exception();
  write_all(child_fd, "X" + (e ? "threw " + oplog::describe_exception(e)
                               : std::string("called std::terminate without an exception")));
  ::_exit(4);
}

constexpr int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};

// In the child: notes the faulting thread in the shared board, then restores the default
// action and dies of the signal, so the parent sees which. The handler stays installed until it
// has marked (no SA_RESETHAND): two threads faulting at once both run it and one of them is
// named; with the default action restored on delivery, the second fault could kill the process
// before the first handler marked, and neither would be.
void on_fatal_signal(int sig) {
  mark_fault();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);  // async-signal-safe, as raise() is
  ::raise(sig);
}

void install_fatal_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_NODEFER;
  ::sigemptyset(&sa.sa_mask);
  for (int sig : fatal_signals)
    ::sigaction(sig, &sa, nullptr);
}

// "SIGSEGV (Segmentation fault)"
std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);  // both thread-safe, unlike strsignal
  const char* descr = ::sigdescr_np(sig);
  const std::string about = descr != nullptr ? descr : "unknown signal";
  return abbrev != nullptr ? fmt::format("SIG{} ({})", abbrev, about)
                           : fmt::format("signal {} ({})", sig, about);
}

// A board in memory shared with the child, or nullptr.
oplog::board* map_board() {
  void* p = ::mmap(nullptr, sizeof(oplog::board), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : new (p) oplog::board;
}

void unmap_board(oplog::board* b) {
  b->~board();
  ::munmap(b, sizeof(oplog::board));
}

// "<first wrong result>; then <what> in <where>; <context>"
std::string with_place(std::string what, const std::string& where, const oplog::board& b) {
  if (!where.empty()) what += " in " + where;
  if (const std::string first = oplog::verdict(b); !first.empty()) what = first + "; then " + what;
  if (b.context[0] != '\0') what += fmt::format("; {}", b.context);
  return what;
}

// What became of a child that gave no result.
std::string failure_of(ending how, const std::string& text, int status, const oplog::board& b,
                       const std::vector<std::uint64_t>& before, const watch& w) {
  if (how == ending::deadline)
    return with_place(fmt::format("did not finish within {:.0f} s (deadlock or livelock); "
                                  "killed: {}",
                                  w.deadline_seconds, oplog::locate_stuck(b, before)),
                      "", b);
  if (how == ending::memory)
    return with_place(
        fmt::format("grew past {} MB resident (the deque's own memory: a loop that allocates "
                    "as it goes, or memory it keeps until it is destroyed; not counted: the "
                    "{:.1f} MB it started with and the harness's own {:.1f} MB); killed: {}",
                    w.memory_ceiling >> 20, static_cast<double>(w.start_resident) / (1 << 20),
                    static_cast<double>(w.harness) / (1 << 20), oplog::locate_stuck(b, before)),
        "", b);
  if (how == ending::stalled)
    return with_place(fmt::format("an operation did not return within {:.0f} s (a deadlock, "
                                  "or a loop inside the deque); killed: {}",
                                  w.stall_seconds, oplog::locate_stuck(b, before)),
                      "", b);
  const std::string where = oplog::locate_fault(b);
  if (!text.empty() && text[0] == 'X') return with_place(text.substr(1), where, b);
  if (WIFSIGNALED(status))
    return with_place("crashed with " + signal_text(WTERMSIG(status)), where, b);
  return with_place(fmt::format("exited with status {} and no result",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1),
                    where, b);
}

// The kind of what became of a child that gave no result: the first wrong result judged
// before it ended, else how it ended.
failure_kind kind_of(ending how, const std::string& text, const oplog::board& b) {
  if (const std::optional<failure_kind> first = oplog::verdict_kind(b)) return *first;
  switch (how) {
    case ending::deadline:
    case ending::stalled:
      return failure_kind::no_progress;
    case ending::memory:
      return failure_kind::leak;
    case ending::finished:
      break;
  }
  return !text.empty() && text[0] == 'X' ? failure_kind::exception : failure_kind::crash;
}

[[noreturn]] void refused(const char* call, int err) {
  throw harness::environment_error(fmt::format(
      "could not isolate a deque run in a child process: {}() failed: {}; not run (a run in "
      "stealcheck's own process could corrupt it)",
      call, harness::errno_text(err)));
}

// fork(), retried while the machine lacks the resources for a moment.
pid_t fork_retrying() {
  auto pause = std::chrono::milliseconds(20);
  for (int attempt = 0;; ++attempt) {
    const pid_t pid = detail::fork_process();
    if (pid >= 0) return pid;
    const int err = errno;
    if ((err != EAGAIN && err != ENOMEM) || attempt == 8) refused("fork", err);
    std::this_thread::sleep_for(pause);  // 20 ms doubling up to 1 s: about 3 s in all
    pause = std::min(pause * 2, std::chrono::milliseconds(1000));
  }
}

// A file in memory the child's stderr goes to (memfd), or -1: the parent reads what the child
// wrote there (a C library's abort message, a sanitizer's report) after it ended.
int stderr_capture() {
  return ::memfd_create("stealcheck-child-stderr", MFD_CLOEXEC);
}

// What the child wrote to its stderr (at most the last 64 KB), and closes fd.
std::string read_capture(int fd) {
  if (fd < 0) return {};
  std::string out;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  const off_t from = size > (64 << 10) ? size - (64 << 10) : 0;
  out.resize(static_cast<std::size_t>(std::max<off_t>(size - from, 0)));
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n =
        ::pread(fd, out.data() + got, out.size() - got, from + static_cast<off_t>(got));
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  ::close(fd);
  return out;
}

// The line of the child's stderr that says why it died: a sanitizer's "SUMMARY: ..." line,
// else the last line that is not empty (the C library's abort message); at most 200 bytes.
std::string telling_line(const std::string& text) {
  std::size_t begin = text.rfind("\nSUMMARY: ");
  if (begin != std::string::npos || text.rfind("SUMMARY: ", 0) == 0) {
    begin = begin == std::string::npos ? 0 : begin + 1;
  } else {
    const std::size_t end = text.find_last_not_of("\n\r ");
    if (end == std::string::npos) return {};
    const std::size_t nl = text.rfind('\n', end);
    begin = nl == std::string::npos ? 0 : nl + 1;
  }
  const std::size_t eol = std::min(text.find('\n', begin), text.size());
  return text.substr(begin, std::min<std::size_t>(eol - begin, 200));
}

}  // namespace

child_outcome run_in_child(const std::function<std::string()>& body, double deadline_seconds,
                           double stall_seconds, std::uint64_t memory_ceiling) {
  oplog::board* const b = map_board();
  if (b == nullptr) refused("mmap", errno);
  b->memory_ceiling = memory_ceiling;
  int fds[2];
  if (::pipe(fds) != 0) {
    const int err = errno;
    unmap_board(b);
    refused("pipe", err);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const int err_fd = stderr_capture();
  pid_t pid = -1;
  try {
    pid = fork_retrying();
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (err_fd >= 0) ::close(err_fd);
    unmap_board(b);
    throw;
  }
  if (pid == 0) {                                    // child
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);  // (dup2 clears close-on-exec on the copy)
    ::close(fds[0]);
    child_fd = fds[1];
    oplog::activate(b);
    std::set_terminate(report_terminate);
    install_fatal_signal_handlers();
    std::string msg;
    try {
      msg = "R" + body();
    } catch (...) {
      mark_fault();
      msg = "X" + std::string("threw ") + oplog::describe_exception(std::current_exception());
    }
    std::fflush(stdout);  // what the body printed; _exit flushes nothing
    std::fflush(stderr);
    write_all(fds[1], msg);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  watch w{deadline_seconds, stall_seconds, memory_ceiling};
  const ending how = read_until(fds[0], pid, text, *b, w);
  ::close(fds[0]);
  std::vector<std::uint64_t> before;
  if (how != ending::finished) {  // which threads stay inside one operation
    before = oplog::progress(*b);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(pid, SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const std::string said = read_capture(err_fd);
  child_outcome out;
  if (how == ending::finished && !text.empty() && text[0] == 'R') {
    out.ok = true;
    out.payload = text.substr(1);
  } else {
    out.failure = failure_of(how, text, status, *b, before, w);
    out.kind = kind_of(how, text, *b);
    // The C library prints why it aborts (a value freed twice: "double free or corruption"):
    // the failure names it, so no stray line is left to guess about.
    if (const std::string why = telling_line(said); !why.empty())
      out.failure += fmt::format("; its stderr: \"{}\"", why);
  }
  // Anything longer (a sanitizer's report) goes on to this process's stderr, after the run.
  if (said.find('\n') != said.rfind('\n') || (out.ok && !said.empty()))
    std::fwrite(said.data(), 1, said.size(), stderr);
  unmap_board(b);
  return out;
}

result run_isolated(const std::function<result()>& body, double deadline_seconds,
                    double stall_seconds, std::uint64_t memory_ceiling) {
  const auto start = std::chrono::steady_clock::now();
  const child_outcome c =
      run_in_child([&] { return encode(body()); }, deadline_seconds, stall_seconds, memory_ceiling);
  if (!c.ok) {  // killed or crashed: its time is the time it ran until then
    result f = failed(c.failure, c.kind);
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
  }
  result r;
  if (!decode(c.payload, r))
    return failed("the child's result could not be read", failure_kind::crash);
  return r;
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
