// harness/errors.hpp: bad input, and a machine that refuses what a check needs.
//
// usage_error is thrown for bad input that the argument parser cannot see (an unknown
// variant, client or site, a malformed replay string, an unwritable output file). The CLI
// runner (harness/cli.hpp) prints it as one line "<program>: error: <what>" on stderr and exits
// with code 2; the GoogleTest suite reports it as a test failure with the same line.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace stealcheck::harness {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The machine refused what a check needs to run at all (a child process to isolate a deque
/// in, shared memory): no verdict is given. Printed and exited with like usage_error.
struct environment_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A JSON library exception's message for an error line: nlohmann's what() without its
/// "[json.exception.parse_error.101] " prefix ("parse error at line 1, column 2: ...").
inline std::string json_error_text(const std::exception& e) {
  const std::string what = e.what();
  const auto close = what.find("] ");
  return what.rfind("[json.exception.", 0) != 0 || close == std::string::npos
             ? what
             : what.substr(close + 2);
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
