// stealcheck: verification, testing and benchmarking for work-stealing deques.
// Exit codes: 0 success, 1 a check failed (a bug was found), 2 bad input.
#include <stealcheck/cli.hpp>

#include "bench/cli.hpp"
#include "litmus/cli.hpp"

int main(int argc, char** argv) {
  return stealcheck::cli_main(argc, argv, "stealcheck", [](CLI::App& app, int& exit_code) {
    stealcheck::litmus::add_litmus_command(app, exit_code);
    stealcheck::bench::add_bench_command(app, exit_code);
  });
}
// SPDX-License-Identifier: Apache-2.0
