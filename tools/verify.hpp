// tools/verify.hpp: how a checker plugs into `stealcheck verify` and the CLI.
//
// Each component (stress/, models/, lincheck in stress/, ...) contributes
//   - a `checker`: one column of the verify table, run once per variant;
//   - optionally a subcommand, added by a function `void add_<name>_command(CLI::App&, int&)`
//     declared in tools/commands.hpp and listed in tools/stealcheck.cpp.
// A checker never prints the table itself; it returns a `check_cell`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "deques/registry.hpp"

namespace stealcheck::tools {

struct verify_options {
  std::uint64_t seed = 0;  ///< for randomized checkers; printed with every failure
  bool quick = false;      ///< smaller bounds (the test suite's smoke run)
  bool progress = true;    ///< progress lines on stderr (`stealcheck verify`: on a terminal only)
};

enum class cell_verdict : std::uint8_t {
  pass,     ///< ran and found no bug
  fail,     ///< found a bug (`failure` says which, naming the offending value)
  skipped,  ///< not applicable to this variant (`detail` says why)
};

struct check_cell {
  cell_verdict verdict = cell_verdict::skipped;
  std::string detail;   ///< short: counts ("3 clients, 1234 execs"), or why skipped
  std::string failure;  ///< one line naming the bug and the offending value
  std::string replay;   ///< a command line that replays the failure
  double seconds = 0;
};

struct checker {
  std::string name;  ///< column header, e.g. "stress", "model", "lincheck"
  std::function<check_cell(const variant_info&, const verify_options&)> run;
};

/// Every checker, in column order (tools/checkers.cpp).
std::vector<checker> all_checkers();

}  // namespace stealcheck::tools
