/// @file
/// stealcheck/cli.hpp: the whole `stealcheck` command (list, verify, model, stress, lincheck)
/// over every registered variant: the built-in ones and those registered in the program.
///
/// A user's own CLI is one CMake call (stealcheckConfig.cmake):
/// @code
/// stealcheck_add_cli(my-stealcheck SOURCES my_variants.cpp)
/// @endcode
/// where my_variants.cpp registers the user's deques (stealcheck/register.hpp); or a main of two
/// lines linked against stealcheck::cli:
/// @code
/// #include <stealcheck/cli.hpp>
/// int main(int argc, char** argv) { return stealcheck::cli_main(argc, argv, "my-stealcheck"); }
/// @endcode
///
/// Exit codes: 0 success, 1 a check failed (a bug was found), 2 bad input (one error line:
/// "\<program\>: error: \<what\>"). Replay commands in its output start with `program`.
/// Thread role: the process's main thread.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace stealcheck {

/// Runs the command line. `more` may add subcommands (stealcheck's own binary adds litmus and
/// bench); it gets the app and the exit-code slot the subcommand's callback must set.
int cli_main(int argc, char** argv, const char* program,
             const std::function<void(CLI::App&, int&)>& more = {});

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
