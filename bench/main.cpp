// bench/main.cpp: a standalone driver, `stealcheck_bench bench [options]`, for the CTest smoke
// run and for use before `stealcheck bench` is wired into tools/stealcheck.cpp.
// g++ 12 reports a false -Wnull-dereference inside CLI11's CLI::detail::split (vector<string>
// relocation inlined into the header); the warning is silenced for CLI11's header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "bench/cli.hpp"

int main(int argc, char** argv) {
  CLI::App app{"stealcheck benchmarks (issue 6)"};
  app.require_subcommand(1);
  int exit_code = 0;
  stealcheck::bench::add_bench_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
