#include "stress/isolate.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

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
  r.which = static_cast<scenario>(which);
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

}  // namespace

result run_isolated(const std::function<result()>& body, double deadline_seconds) {
  int fds[2];
  if (::pipe(fds) != 0) return body();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return body();
  }
  if (pid == 0) {  // child
    ::close(fds[0]);
    const std::string line = encode(body());
    const ssize_t w = ::write(fds[1], line.data(), line.size());
    ::_exit(w == static_cast<ssize_t>(line.size()) ? 0 : 3);
  }
  ::close(fds[1]);
  std::string text;
  const bool finished = read_until(fds[0], text, deadline_seconds);
  ::close(fds[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!finished) {
    return failed(fmt::format("did not finish within {:.0f} s (livelock or deadlock); killed",
                              deadline_seconds));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return failed(fmt::format(
        "crashed with signal {} ({}): memory corrupted, e.g. a boxed value taken (and freed) twice",
        sig, ::strsignal(sig)));
  }
  result r;
  if (!decode(text, r))
    return failed(fmt::format("child exited with status {} and no result", WEXITSTATUS(status)));
  return r;
}

}  // namespace stealcheck::stress
