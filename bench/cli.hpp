// bench/cli.hpp: the `stealcheck bench` subcommand.
//
//   stealcheck bench [--kernels fib,nqueens,uts,matmul] [--threads 1,2] [--runtimes ...]
//                    [--reps N] [--quick] [--json FILE] [--plot FILE.png]
//
// Prints the table (bench/runner.hpp) on stdout, progress on stderr. Exit code (through
// `exit_code`): 0 if every result checked ok, 1 if a result was wrong or the plot/JSON could not
// be written, 2 on bad input (unknown kernel or runtime, bad thread count), with one error line.
// Assembled into the stealcheck command by tools/; bench/main.cpp is a standalone driver.
//
// Thread role: the CLI thread. Complexity: that of the benchmark run.
#pragma once

namespace CLI {
class App;
}

namespace stealcheck::bench {

/// Adds the `bench` subcommand to app; its callback runs the benchmark and sets exit_code.
void add_bench_command(CLI::App& app, int& exit_code);

}  // namespace stealcheck::bench
// SPDX-License-Identifier: Apache-2.0
