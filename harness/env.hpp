// harness/env.hpp: the process environment and system error texts, read one way by every front
// end (the CLI's commands, the conformance suite, the bench's peers).
//
// Thread role: any thread. stealcheck never changes its environment (no setenv/putenv), and
// POSIX allows getenv to race only with such a change. Complexity: O(length of the environment).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

#include "stealcheck/detail/harness/errors.hpp"

namespace stealcheck::harness {

/// The value of the environment variable `name`; nullopt when it is unset or empty (an empty
/// variable means "not given", as a shell's `VAR= cmd` is used to drop one).
inline std::optional<std::string> env_value(const char* name) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process changes the environment
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

/// `text`, the value of the environment variable `name`, as a decimal number. Throws
/// usage_error ("NAME='x' is not a number") when it is anything but digits that fit in 64 bits
/// (no sign, no spaces).
inline std::uint64_t env_number_of(const char* name, const std::string& text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw usage_error(std::string(name) + "='" + text + "' is not a number");
  return v;
}

/// The value of the environment variable `name` as a decimal number (env_number_of); nullopt
/// when it is unset or empty.
inline std::optional<std::uint64_t> env_number(const char* name) {
  const std::optional<std::string> s = env_value(name);
  if (!s) return std::nullopt;
  return env_number_of(name, *s);
}

/// The text of errno value `err` ("No such file or directory"), as std::strerror gives it but
/// safe from any thread.
inline std::string errno_text(int err) {
  return std::generic_category().message(err);
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
