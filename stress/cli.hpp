// stress/cli.hpp: the native checkers' subcommands.
//
//   stress <variant|all> [--scenario S] [--threads N] [--ops N | --seconds S] [--seed S]
//   lincheck <variant|all> [--mode native|model] [--scenarios N] [--runs R] [--seed S]
//            [--reproduce STR] [--svg FILE]
// Each prints its seed and, on a failure, the command that replays it. Exit code (through
// `exit_code`): 0 no bug, 1 a bug was found, 2 bad input (one error line, harness/cli.hpp).
// Thread role: the process's main thread.
#pragma once

#include <CLI/CLI.hpp>

namespace stealcheck::stress {
void add_stress_command(CLI::App& app, int& exit_code);
}  // namespace stealcheck::stress

namespace stealcheck::stress::lincheck {
void add_lincheck_command(CLI::App& app, int& exit_code);
}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
