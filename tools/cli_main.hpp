// tools/cli_main.hpp: the one main() logic of stealcheck's command-line programs
// (`stealcheck`, and the standalone `stealcheck-litmus` and `stealcheck_bench` drivers).
//
// run_cli parses argv into `app`, whose subcommand callbacks run the command and store its
// exit code in `exit_code`, and returns the process exit code: the command's (0 success, 1 a
// check failed), 0 for --help, and 2 for bad input, printed as one line
// "<program>: error: <what>" on stderr (CLI11 parse errors and tools::usage_error alike).
// An unexpected exception is reported as "<program>: internal error: <what>", exit 3.
#pragma once

#include <CLI/CLI.hpp>

namespace stealcheck::tools {

int run_cli(CLI::App& app, int argc, char** argv, const int& exit_code, const char* program);

}  // namespace stealcheck::tools
