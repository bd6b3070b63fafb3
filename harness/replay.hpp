// harness/replay.hpp: the one builder of replay commands.
//
// Every failure stealcheck reports comes with a command line that replays it. Checkers build
// a `command_line` (subcommand, variant, options in order); it is rendered with the name of
// the program the user runs: `stealcheck`, or a user's own CLI built with
// stealcheck_add_cli (include/stealcheck/cli.hpp), whose main sets program_name().
//
//   command_line{"model", "chase_lev"}.opt("--client", "push2_pop_steal2").opt("--replay", tok)
//     .str()  ->  stealcheck model chase_lev --client push2_pop_steal2 --replay 'T...'
//
// Arguments that contain anything but [A-Za-z0-9_./=:,+-] are single-quoted for a POSIX shell.
// Thread role: program_name() is set once by main, before any checker runs; the rest is pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stealcheck::harness {

struct command_line {
  std::string subcommand;
  std::string variant;
  std::vector<std::pair<std::string, std::string>> options;  ///< flag, value ("" = no value)

  command_line& opt(std::string flag, std::string value = {});
  command_line& opt(std::string flag, std::uint64_t value);
  /// The command as one line a POSIX shell runs, starting with program_name().
  std::string str() const;
};

/// The name replay commands start with (default "stealcheck").
const std::string& program_name();
void set_program_name(std::string name);

/// stealcheck's version ("0.2.0"), as the CMake project states it.
std::string_view version() noexcept;

/// `s` quoted for a POSIX shell when it needs to be.
std::string shell_quote(std::string_view s);

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
