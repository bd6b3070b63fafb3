// litmus/main.cpp: `stealcheck-litmus`, the litmus subcommand as a standalone program (for the
// test suite; `stealcheck litmus` is the same command inside the main tool).
#include "litmus/cli.hpp"
#include "stealcheck/detail/harness/cli.hpp"

int main(int argc, char** argv) {
  CLI::App app{"stealcheck-litmus: herd7-format C litmus tests"};
  app.require_subcommand(1);
  int exit_code = 0;
  stealcheck::litmus::add_litmus_command(app, exit_code);
  return stealcheck::harness::run_cli(app, argc, argv, exit_code, "stealcheck-litmus");
}
// SPDX-License-Identifier: Apache-2.0
