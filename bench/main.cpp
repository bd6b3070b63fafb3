// bench/main.cpp: a standalone driver, `stealcheck_bench bench [options]`, for the CTest smoke
// run (`stealcheck bench` is the same command inside the main tool).
#include "bench/cli.hpp"
#include "stealcheck/detail/harness/cli.hpp"

int main(int argc, char** argv) {
  CLI::App app{"stealcheck benchmarks"};
  app.require_subcommand(1);
  int exit_code = 0;
  stealcheck::bench::add_bench_command(app, exit_code);
  return stealcheck::harness::run_cli(app, argc, argv, exit_code, "stealcheck_bench");
}
// SPDX-License-Identifier: Apache-2.0
