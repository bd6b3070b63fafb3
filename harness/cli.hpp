// harness/cli.hpp: what every command-line program of stealcheck shares.
//
//   run_cli            the one main() logic: parse, run the subcommand, map errors to exit codes
//   add_list_command   `list [--sites VARIANT]`: the registered variants, or one's sites
//   add_verify_command `verify`: every checker on every selected variant, one table
//   default_seed       a fresh seed for a randomized run given none (always printed)
//   split_commas       an option's comma list, taken apart
//   output_file        a CLI11 check for an option that names a file to write
//   seed_value         a CLI11 check for a --seed: digits only
//
// Exit codes: 0 success, 1 a check failed (a bug was found), 2 bad input: CLI11 parse errors
// and harness::usage_error alike, printed as one line "<program>: error: <what>" on stderr.
// An unexpected exception is "<program>: internal error: <what>", exit 3.
// Thread role: the process's main thread.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::harness {

/// Parses argv into `app`, whose subcommand callbacks store their exit code in `exit_code`,
/// and returns the process's exit code. Sets program_name() (harness/replay.hpp) to `program`.
int run_cli(CLI::App& app, int argc, char** argv, const int& exit_code, const char* program);

void add_list_command(CLI::App& app, int& exit_code);

/// `verify [variants...] [--include-known-bad] [--quick] [--checks LIST] [--json FILE]
/// [--seed S]`: runs every checker of `checkers` (one column each, in this order; --checks: the
/// named ones) on every selected variant. Exit 0 iff every correct variant passes every checker
/// run and every known-bad variant included is caught by at least one (an expected failure).
void add_verify_command(CLI::App& app, std::vector<checker> checkers, int& exit_code);

/// A fresh seed per run (from the clock), for runs given no --seed; print it with the run.
std::uint64_t default_seed();

/// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}. Empty names are kept, for the caller to refuse.
std::vector<std::string> split_commas(const std::string& list);

/// A CLI11 check (`->check(output_file())`) for an option naming a file the command writes:
/// its directory exists and is writable, and the path is no directory; a file that exists must
/// be writable. Checked when the command line is read, so that a run of minutes does not end
/// in a path it cannot write (or, for a file written only on failure, write nothing and say
/// nothing). The message names the path: "--json: cannot write 'x/y.json': directory 'x' does
/// not exist", which run_cli prints as one line, exit 2. O(1) system calls.
CLI::Validator output_file();

/// A CLI11 check for a --seed (std::uint64_t): decimal digits of a number that fits, so that
/// "-1" or 2^64 are refused rather than read as 2^64 - 1 ("--seed: '-1' is not a seed: an
/// integer from 0 to 18446744073709551615").
CLI::Validator seed_value();

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
