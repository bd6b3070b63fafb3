#include "stress/isolate.hpp"

#include <cxxabi.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <typeinfo>

namespace stealcheck::stress {
namespace {

// The result travels as one line of text: the counters, then the failure text.
std::string encode(const result& r) {
  return fmt::format("{} {} {} {} {} {} {} {} {} {:.6f} {}", static_cast<int>(r.which),
                     r.ok ? 1 : 0, r.pushed, r.push_full, r.popped, r.stolen, r.steal_empty,
                     r.steal_abort, r.drained, r.seconds, r.failure);
}

bool decode(const std::string& s, result& r) {
  int which = 0, ok = 0, used = 0;
  unsigned long long v[7];
  if (std::sscanf(s.c_str(), "%d %d %llu %llu %llu %llu %llu %llu %llu %lf %n", &which, &ok, &v[0],
                  &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &r.seconds, &used) < 10) {
    return false;
  }
  r.which = static_cast<scenario_kind>(which);
  r.ok = ok == 1;
  r.pushed = v[0];
  r.push_full = v[1];
  r.popped = v[2];
  r.stolen = v[3];
  r.steal_empty = v[4];
  r.steal_abort = v[5];
  r.drained = v[6];
  r.failure = s.substr(static_cast<std::size_t>(used));
  return true;
}

result failed(std::string why) {
  result r;
  r.ok = false;
  r.failure = std::move(why);
  return r;
}

// Reads the child's pipe until EOF or the deadline; returns false on the deadline.
bool read_until(int fd, std::string& out, double deadline_seconds) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(deadline_seconds);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          end - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// The child's pipe, for the terminate handler: the first byte says what follows ('R' the
// payload, 'X' an exception's description).
int child_fd = -1;

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t w = ::write(fd, s.data() + done, s.size() - done);
    if (w <= 0) return;
    done += static_cast<std::size_t>(w);
  }
}

// "std::bad_alloc: std::bad_alloc" for the exception being handled, or "unknown exception".
std::string describe(std::exception_ptr e) {
  std::string type = "unknown exception";
  if (const std::type_info* t = abi::__cxa_current_exception_type()) {
    int status = 0;
    char* name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
    type = status == 0 && name != nullptr ? name : t->name();
    std::free(name);
  }
  try {
    if (e) std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return type + ": " + x.what();
  } catch (...) {
  }
  return type;
}

[[noreturn]] void report_terminate() {
  const std::exception_ptr e = std::current_exception();
  write_all(child_fd, "X" + (e ? "threw " + describe(e) + " (uncaught, in a deque thread)"
                               : std::string("std::terminate called without an exception")));
  ::_exit(4);
}

}  // namespace

child_outcome run_in_child(const std::function<std::string()>& body, double deadline_seconds) {
  child_outcome out;
  int fds[2];
  if (::pipe(fds) != 0) {
    out.ok = true;
    out.payload = body();
    return out;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    out.ok = true;
    out.payload = body();
    return out;
  }
  if (pid == 0) {  // child
    ::close(fds[0]);
    child_fd = fds[1];
    std::set_terminate(report_terminate);
    std::string msg;
    try {
      msg = "R" + body();
    } catch (...) {
      msg = "X" + std::string("threw ") + describe(std::current_exception());
    }
    std::fflush(stdout);  // what the body printed; _exit flushes nothing
    std::fflush(stderr);
    write_all(fds[1], msg);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  const bool finished = read_until(fds[0], text, deadline_seconds);
  ::close(fds[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!finished) {
    out.failure = fmt::format("did not finish within {:.0f} s (livelock or deadlock); killed",
                              deadline_seconds);
  } else if (!text.empty() && text[0] == 'X') {
    out.failure = text.substr(1);
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    out.failure = fmt::format(
        "crashed with signal {} ({}): e.g. a bad pointer, or a boxed value taken (and freed) "
        "twice",
        sig, ::strsignal(sig));
  } else if (text.empty() || text[0] != 'R') {
    out.failure = fmt::format("child exited with status {} and no result", WEXITSTATUS(status));
  } else {
    out.ok = true;
    out.payload = text.substr(1);
  }
  return out;
}

result run_isolated(const std::function<result()>& body, double deadline_seconds) {
  const child_outcome c = run_in_child([&] { return encode(body()); }, deadline_seconds);
  if (!c.ok) return failed(c.failure);
  result r;
  if (!decode(c.payload, r)) return failed("the child's result could not be read");
  return r;
}

}  // namespace stealcheck::stress
