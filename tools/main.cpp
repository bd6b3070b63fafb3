// The main() of a user's stealcheck command (stealcheck_add_cli): the whole command over every
// registered variant, named after the executable (replay commands start with that name).
#include <stealcheck/cli.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string self = argc > 0 ? argv[0] : "stealcheck";
  const std::string name = self.substr(self.find_last_of('/') + 1);
  return stealcheck::cli_main(argc, argv, name.c_str());
}
// SPDX-License-Identifier: Apache-2.0
