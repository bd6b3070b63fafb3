// tools/commands.hpp: the subcommands of `stealcheck`. Each adds itself to the app and, when
// it runs, stores its exit code (0 ok, 1 a check failed, 2 bad input) into `exit_code`.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace stealcheck::tools {

void add_list_command(CLI::App& app, int& exit_code);
void add_stress_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_lincheck_command(CLI::App& app, int& exit_code);

/// Thrown for bad input that CLI11 cannot see (unknown variant, ...): main prints
/// "stealcheck: error: <what>" and exits with code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws usage_error unless `name` is a registered variant.
void require_variant(std::string_view name);

/// A default seed for randomized runs that were given none (printed with the run).
std::uint64_t default_seed();

}  // namespace stealcheck::tools
