// litmus/cli.hpp: the `stealcheck litmus` subcommand.
#pragma once

#include <CLI/CLI.hpp>

namespace stealcheck::litmus {

/// Adds `litmus [FILES or DIRS...] [--model rc11|sc|both] [--runner auto|reference|model]
/// [--hw] [--rounds N] [--json FILE]` to `app`. When the subcommand runs, `exit_code` is set:
/// 0 every test matches its expectation, 1 a mismatch (or a forbidden outcome on hardware),
/// 2 a malformed or unreadable file (`file:line:col: message` on stderr).
void add_litmus_command(CLI::App& app, int& exit_code);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
