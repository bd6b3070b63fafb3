// harness/env.hpp: the process environment and system error texts, read one way by every front
// end (the CLI's commands, the conformance suite, the bench's peers).
//
// Thread role: any thread. stealcheck never changes its environment (no setenv/putenv), and
// POSIX allows getenv to race only with such a change. Complexity: O(length of the environment).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

namespace stealcheck::harness {

/// The value of the environment variable `name`; nullopt when it is unset or empty (an empty
/// variable means "not given", as a shell's `VAR= cmd` is used to drop one).
inline std::optional<std::string> env_value(const char* name) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process changes the environment
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

/// The text of errno value `err` ("No such file or directory"), as std::strerror gives it but
/// safe from any thread.
inline std::string errno_text(int err) {
  return std::generic_category().message(err);
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
