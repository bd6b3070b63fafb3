// harness/replay.cpp: see replay.hpp.
#include "stealcheck/detail/harness/replay.hpp"

#include <algorithm>

namespace stealcheck::harness {
namespace {

std::string& name_storage() {
  static std::string name = "stealcheck";
  return name;
}

bool plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_./=:,+-").find(c) != std::string_view::npos;
}

}  // namespace

command_line& command_line::opt(std::string flag, std::string value) {
  options.emplace_back(std::move(flag), std::move(value));
  return *this;
}

command_line& command_line::opt(std::string flag, std::uint64_t value) {
  return opt(std::move(flag), std::to_string(value));
}

std::string command_line::str() const {
  std::string s = shell_quote(program_name()) + " " + subcommand;
  if (!variant.empty()) s += " " + shell_quote(variant);
  for (const auto& [flag, value] : options) {
    s += " " + flag;
    if (!value.empty()) s += " " + shell_quote(value);
  }
  return s;
}

std::string_view version() noexcept {
  return STEALCHECK_VERSION;
}

const std::string& program_name() {
  return name_storage();
}

void set_program_name(std::string name) {
  name_storage() = std::move(name);
}

std::string shell_quote(std::string_view s) {
  if (!s.empty() && std::all_of(s.begin(), s.end(), plain)) return std::string(s);
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
