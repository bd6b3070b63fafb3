// harness/errors.hpp: bad input.
//
// usage_error is thrown for bad input that the argument parser cannot see (an unknown
// variant, client or site, a malformed replay string, an unwritable output file). The CLI
// runner (harness/cli.hpp) prints it as one line "<program>: error: <what>" on stderr and exits
// with code 2; the GoogleTest suite reports it as a test failure with the same line.
#pragma once

#include <stdexcept>

namespace stealcheck::harness {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
