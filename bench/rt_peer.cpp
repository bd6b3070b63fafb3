// bench/rt_peer.cpp: runtimes of other languages as peers of the benchmark. A peer is a child
// process that stays alive and answers one request per line (bench/peers/java/ForkJoinPeer.java
// says the protocol): the bench keeps its run-by-run interleaving, and the peer times its own
// kernel, so neither the process's start nor the pipe is in the figure (the runner takes the
// peer's own times: runtime::take_own_measure). The first run of each cell is the runner's
// untimed warm-up, which is also when the JIT compiles the kernel.
//
// java-fjp, java-serial: Java's ForkJoinPool (JDK 17), the jar that bench/CMakeLists.txt builds
// when a JDK is installed (Debian: openjdk-17-jdk-headless), looked for at
// STEALCHECK_JAVA_PEER_JAR, else <directory of the executable>/../lib/stealcheck/
// stealcheck_java_peer.jar (the build tree and the package put it there); the JVM is
// STEALCHECK_JAVA, else `java` on PATH.
// go, go-serial: goroutines joined by sync.WaitGroup (bench/peers/go/peer.go), the program that
// bench/CMakeLists.txt builds when Go is installed (Debian: golang-go), at STEALCHECK_GO_PEER,
// else <directory of the executable>/../lib/stealcheck/stealcheck_go_peer.
// rayon, rayon-serial: rayon::join and rayon::scope (bench/peers/rust/main.rs), built when cargo
// and Debian's Rayon crates are installed, at STEALCHECK_RAYON_PEER, else
// <directory of the executable>/../lib/stealcheck/stealcheck_rayon_peer.
// dotnet-mono, dotnet-serial: .NET's task library on Mono (bench/peers/dotnet/Peer.cs), built by
// mcs when Mono is installed (mono-mcs, mono-runtime), at STEALCHECK_DOTNET_PEER, else
// <directory of the executable>/../lib/stealcheck/stealcheck_dotnet_peer.exe; run by
// STEALCHECK_MONO, else `mono` on PATH. Its thread pool refuses fewer workers than the CPUs it
// sees, so the process is started again for each P on P CPUs (sched_setaffinity).
#include <fcntl.h>
#include <fmt/format.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
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
#include "stealcheck/detail/harness/env.hpp"
#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::bench {
namespace {

namespace fs = std::filesystem;

// One peer: its runtime names, the file the build makes, and how it is started.
struct peer_kind {
  std::string_view language;     // in error lines: "the Java peer process ended"
  std::string_view name;         // the parallel runtime
  std::string_view serial_name;  // the same process answering `serial` requests
  std::string_view file;         // in <lib>/stealcheck/
  const char* file_env;          // where else to look
  std::string_view built_when;   // the package that makes the build write `file`
  std::string_view host;         // the program that runs `file` ("java", "mono"), or none
  const char* host_env;          // where else to look for the host (else PATH)
  // A pool that cannot have fewer workers than the CPUs it sees (.NET's thread pool): the
  // process is started again for each P, allowed to run on P of the bench's CPUs.
  bool pinned;
};

constexpr std::array<peer_kind, 4> peers = {{
    {"Java", "java-fjp", "java-serial", "stealcheck_java_peer.jar", "STEALCHECK_JAVA_PEER_JAR",
     "a JDK is installed: openjdk-17-jdk-headless", "java", "STEALCHECK_JAVA", false},
    {"Go", "go", "go-serial", "stealcheck_go_peer", "STEALCHECK_GO_PEER",
     "Go is installed: golang-go", "", nullptr, false},
    {"Rust", "rayon", "rayon-serial", "stealcheck_rayon_peer", "STEALCHECK_RAYON_PEER",
     "Rust's Rayon is installed: cargo, librust-rayon-dev, librust-sha1-dev", "", nullptr, false},
    {".NET", "dotnet-mono", "dotnet-serial", "stealcheck_dotnet_peer.exe", "STEALCHECK_DOTNET_PEER",
     "Mono is installed: mono-mcs, mono-runtime", "mono", "STEALCHECK_MONO", true},
}};

const peer_kind* find_peer(std::string_view runtime_name) {
  for (const peer_kind& k : peers)
    if (runtime_name == k.name || runtime_name == k.serial_name) return &k;
  return nullptr;
}

std::string peer_file(const peer_kind& k) {
  if (auto env = harness::env_value(k.file_env)) return std::move(*env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::string(k.file);
  return (exe.parent_path() / ".." / "lib" / "stealcheck" / k.file).lexically_normal().string();
}

// The peer's host program: its variable (STEALCHECK_JAVA, STEALCHECK_MONO), else the first
// executable of that name on PATH; nullopt if there is none.
std::optional<std::string> host_executable(const peer_kind& k) {
  if (auto env = harness::env_value(k.host_env)) {
    if (access(env->c_str(), X_OK) == 0) return env;
    return std::nullopt;
  }
  std::istringstream dirs(harness::env_value("PATH").value_or(""));
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate =
        (dir.empty() ? std::string(".") : dir) + "/" + std::string(k.host);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// The command that starts peer k.
std::vector<std::string> peer_command(const peer_kind& k) {
  if (k.host == "java") return {*host_executable(k), "-cp", peer_file(k), "ForkJoinPeer"};
  if (k.host.empty()) return {peer_file(k)};
  return {*host_executable(k), peer_file(k)};
}

// A child process with its standard input and output on pipes; line requests, line answers.
class child_process {
 public:
  // cpus > 0: the child may run on the first `cpus` CPUs of this process's own set only.
  child_process(std::string_view language, const std::vector<std::string>& argv, unsigned cpus = 0)
      : language_(language) {
    // A peer that ended makes the next write fail with EPIPE (an error line), not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0)
      throw harness::environment_error("pipe: " + harness::errno_text(errno));
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // fork and execv, not posix_spawn: posix_spawn needs `environ`, and a reference to it from
    // the executable gives it a copy that libraries loaded with RTLD_DEEPBIND (the omp-llvm
    // module's libomp) do not see. The child calls async-signal-safe functions only.
    cpu_set_t allowed;  // computed before the fork: the child calls no allocating function
    CPU_ZERO(&allowed);
    if (cpus > 0 && sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
      unsigned kept = 0;
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed) && kept++ >= cpus) CPU_CLR(c, &allowed);
    }
    pid_ = fork();
    if (pid_ == 0) {
      if (cpus > 0) sched_setaffinity(0, sizeof allowed, &allowed);
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
          fmt::format("cannot start {}: {}", argv[0], harness::errno_text(fork_errno)));
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
      throw harness::environment_error(
          fmt::format("the {} peer process ended (writing '{}')", language_, line));
    std::string answer;
    for (int c; (c = std::fgetc(from_)) != EOF && c != '\n';)
      answer.push_back(static_cast<char>(c));
    if (answer.empty())
      throw harness::environment_error(
          fmt::format("the {} peer process ended (after '{}')", language_, line));
    if (answer.rfind("ok", 0) != 0)
      throw harness::environment_error(
          fmt::format("the {} peer answered '{}' to '{}'", language_, answer, line));
    return answer;
  }

 private:
  std::string language_;
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

// A peer's runtime: the parallel one, or (serial) the same process answering `serial`.
class peer_runtime final : public runtime {
 public:
  peer_runtime(const peer_kind& kind, bool serial)
      : kind_(kind),
        peer_(std::make_unique<child_process>(kind.language, peer_command(kind))),
        serial_(serial) {}
  std::string_view name() const override { return serial_ ? kind_.serial_name : kind_.name; }
  bool parallel() const override { return !serial_; }
  void set_threads(unsigned p) override {
    if (kind_.pinned) {
      peer_.reset();  // the old process ends first: one peer at a time
      peer_ = std::make_unique<child_process>(kind_.language, peer_command(kind_), p);
    }
    peer_->request(fmt::format("threads {}", p));
  }
  std::uint64_t run(kernel_id k, const kernel_params& params, matmul_data& m) override {
    const std::string answer =
        peer_->request((serial_ ? "serial " : "run ") + kernel_request(k, params, m));
    std::istringstream in(answer.substr(2));
    std::uint64_t check = 0, nanos = 0, cpu_nanos = 0;
    std::int64_t steals = -1, peak_kb = -1;  // steals: -1 where the runtime does not count them
    in >> check >> nanos >> cpu_nanos >> steals >> peak_kb;
    if (!in)
      throw harness::environment_error(
          fmt::format("{}: a malformed answer '{}'", kind_.name, answer));
    last_ = own_measure{static_cast<double>(nanos) * 1e-9, static_cast<double>(cpu_nanos) * 1e-9,
                        peak_kb, steals};
    return check;
  }
  std::optional<own_measure> take_own_measure() override { return std::exchange(last_, {}); }

 private:
  const peer_kind& kind_;
  std::unique_ptr<child_process> peer_;
  bool serial_;
  std::optional<own_measure> last_;
};

}  // namespace

bool is_peer_runtime(std::string_view name) {
  return find_peer(name) != nullptr;
}

std::optional<std::string_view> peer_serial_runtime(std::string_view name) {
  for (const peer_kind& k : peers)
    if (name == k.name) return k.serial_name;
  return std::nullopt;
}

std::optional<std::string> peer_unavailable(std::string_view name) {
  const peer_kind* k = find_peer(name);
  if (k == nullptr) return fmt::format("'{}' is no peer runtime", name);
  const std::string file = peer_file(*k);
  if (!fs::exists(file)) return fmt::format("no {} (built when {})", file, k->built_when);
  if (!k->host.empty() && !host_executable(*k))
    return fmt::format("no {} on PATH (or {})", k->host, k->host_env);
  return std::nullopt;
}

std::vector<std::string> available_peer_runtimes() {
  std::vector<std::string> names;
  for (const peer_kind& k : peers) {
    if (peer_unavailable(k.name)) continue;
    names.emplace_back(k.serial_name);
    names.emplace_back(k.name);
  }
  return names;
}

std::unique_ptr<runtime> make_peer_runtime(std::string_view name) {
  if (peer_unavailable(name)) return nullptr;
  const peer_kind& k = *find_peer(name);
  return std::make_unique<peer_runtime>(k, name == k.serial_name);
}

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
