// bench/rt_peer.cpp: runtimes of other languages as peers of the benchmark. A peer is a child
// process that stays alive and answers one request per line (bench/peers/java/ForkJoinPeer.java
// says the protocol): the bench keeps its run-by-run interleaving, and the peer times its own
// kernel, so neither the process's start nor the pipe is in the figure (the runner takes the
// peer's own times: runtime::take_own_measure). The first run of each cell is the runner's
// untimed warm-up, which is also when the JIT compiles the kernel.
//
// java-fjp: Java's ForkJoinPool (JDK 17), the jar that bench/CMakeLists.txt builds when a JDK is
// installed (Debian: openjdk-17-jdk-headless), looked for at STEALCHECK_JAVA_PEER_JAR, else
// <directory of the executable>/../lib/stealcheck/stealcheck_java_peer.jar (the build tree and
// the package put it there); the JVM is STEALCHECK_JAVA, else `java` on PATH.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/runtimes.hpp"
#include "harness/errors.hpp"

namespace stealcheck::bench {
namespace {

namespace fs = std::filesystem;

std::string java_peer_jar() {
  if (const char* env = std::getenv("STEALCHECK_JAVA_PEER_JAR"); env != nullptr && *env != 0)
    return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "stealcheck_java_peer.jar";
  return (exe.parent_path() / ".." / "lib" / "stealcheck" / "stealcheck_java_peer.jar")
      .lexically_normal()
      .string();
}

// STEALCHECK_JAVA, else the first executable `java` on PATH; nullopt if there is none.
std::optional<std::string> java_executable() {
  if (const char* env = std::getenv("STEALCHECK_JAVA"); env != nullptr && *env != 0) {
    if (access(env, X_OK) == 0) return std::string(env);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/java";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// A child process with its standard input and output on pipes; line requests, line answers.
class child_process {
 public:
  explicit child_process(const std::vector<std::string>& argv) {
    // A peer that ended makes the next write fail with EPIPE (an error line), not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0)
      throw harness::environment_error(std::string("pipe: ") + std::strerror(errno));
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // fork and execv, not posix_spawn: posix_spawn needs `environ`, and a reference to it from
    // the executable gives it a copy that libraries loaded with RTLD_DEEPBIND (the omp-llvm
    // module's libomp) do not see. The child calls async-signal-safe functions only.
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to[0], STDIN_FILENO);
      dup2(from[1], STDOUT_FILENO);
      execv(args[0], args.data());
      _exit(127);
    }
    const int fork_errno = errno;
    close(to[0]);
    close(from[1]);
    if (pid_ < 0) {
      close(to[1]);
      close(from[0]);
      throw harness::environment_error(
          fmt::format("cannot start {}: {}", argv[0], std::strerror(fork_errno)));
    }
    to_ = fdopen(to[1], "w");
    from_ = fdopen(from[0], "r");
  }
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  ~child_process() {
    if (to_ != nullptr) {
      std::fputs("quit\n", to_);
      std::fclose(to_);
    }
    if (from_ != nullptr) std::fclose(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }

  // Sends one line and returns the answer's line (without its newline); throws when the peer
  // has ended or answers "error ...".
  std::string request(const std::string& line) {
    if (std::fputs((line + "\n").c_str(), to_) < 0 || std::fflush(to_) != 0)
      throw harness::environment_error("the Java peer process ended (writing '" + line + "')");
    std::string answer;
    for (int c; (c = std::fgetc(from_)) != EOF && c != '\n';)
      answer.push_back(static_cast<char>(c));
    if (answer.empty())
      throw harness::environment_error("the Java peer process ended (after '" + line + "')");
    if (answer.rfind("ok", 0) != 0)
      throw harness::environment_error("the Java peer answered '" + answer + "' to '" + line + "'");
    return answer;
  }

 private:
  pid_t pid_ = -1;
  std::FILE* to_ = nullptr;
  std::FILE* from_ = nullptr;
};

// The request that runs kernel k with params p (the peer's protocol).
std::string kernel_request(kernel_id k, const kernel_params& p, const matmul_data& m) {
  switch (k) {
    case kernel_id::fib:
      return fmt::format("fib {}", p.fib_n);
    case kernel_id::nqueens:
      return fmt::format("nqueens {}", p.queens_n);
    case kernel_id::uts_t1:
    case kernel_id::uts_t3:
    case kernel_id::uts_t1l:
    case kernel_id::uts_t3l: {
      const uts_tree& t = *reference_tree(k, p);
      return fmt::format("uts {} {} {} {} {} {}", t.shape == uts_shape::binomial ? 0 : 1, t.b0,
                         t.gen_mx, t.q, t.m, t.seed);
    }
    case kernel_id::uts_fine:
      return fmt::format("utsfine {} {} {} {}", p.uts.b0, p.uts.m, p.uts.q, p.uts.seed);
    case kernel_id::matmul:
      return fmt::format("matmul {}", m.n);
    case kernel_id::loop:
      return fmt::format("loop {}", p.loop_n);
    case kernel_id::relay:
      return fmt::format("relay {}", p.relay_n);
  }
  return "";
}

// java-fjp, or (serial) java-serial: the same process answering `serial` requests.
class java_runtime final : public runtime {
 public:
  java_runtime(const std::string& java, const std::string& jar, bool serial)
      : peer_({java, "-cp", jar, "ForkJoinPeer"}), serial_(serial) {}
  std::string_view name() const override { return serial_ ? "java-serial" : "java-fjp"; }
  bool parallel() const override { return !serial_; }
  void set_threads(unsigned p) override { peer_.request(fmt::format("threads {}", p)); }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    const std::string answer =
        peer_.request((serial_ ? "serial " : "run ") + kernel_request(k, params, m));
    std::istringstream in(answer.substr(2));
    std::uint64_t check = 0, nanos = 0, cpu_nanos = 0, steals = 0;
    std::int64_t peak_kb = -1;
    in >> check >> nanos >> cpu_nanos >> steals >> peak_kb;
    if (!in) throw harness::environment_error("java: a malformed answer '" + answer + "'");
    last_ = own_measure{static_cast<double>(nanos) * 1e-9, static_cast<double>(cpu_nanos) * 1e-9,
                        peak_kb};
    return check;
  }
  std::optional<own_measure> take_own_measure() override { return std::exchange(last_, {}); }

 private:
  child_process peer_;
  bool serial_;
  std::optional<own_measure> last_;
};

}  // namespace

std::optional<std::string> java_fjp_unavailable() {
  const std::string jar = java_peer_jar();
  if (!fs::exists(jar))
    return fmt::format("no {} (built when a JDK is installed: openjdk-17-jdk-headless)", jar);
  if (!java_executable()) return "no java on PATH (or STEALCHECK_JAVA)";
  return std::nullopt;
}

std::unique_ptr<runtime> make_java_runtime(bool serial) {
  if (java_fjp_unavailable()) return nullptr;
  return std::make_unique<java_runtime>(*java_executable(), java_peer_jar(), serial);
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
