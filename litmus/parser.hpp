// litmus/parser.hpp: reading a herd7-format C litmus test (the subset documented in FORMAT.md).
//
// Source: herd7's C litmus format (herdtools7); Alglave, Maranget, Tautschnig, "Herding Cats",
// TOPLAS 2014, for the meaning of tests and conditions.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "litmus/ast.hpp"

namespace stealcheck::litmus {

/// A located error: `file:line:col: message`.
struct parse_error {
  std::string file;
  source_pos pos;
  std::string message;
  /// `file:line:col: message`, the form compilers use (editors jump to it).
  std::string str() const;
};

/// Parses and checks one litmus test.
///
/// Requires: nothing of `text`: any byte string is accepted (a fuzz target checks this).
/// Ensures: either a fully resolved `test` (every `index` field set, see ast.hpp; names checked:
///   threads numbered P0, P1, ... in order; every access names a parameter of its thread of the
///   right kind; locals declared before use; plain `int*` locations used by one thread only;
///   the condition's registers and locations exist), or the first error found, located at the
///   offending token. Never throws (except std::bad_alloc).
/// Complexity: linear in the size of the text; nesting deeper than 100 is an error.
std::variant<test, parse_error> parse_litmus(std::string_view text, std::string file);

/// Parses the `Expected:` / `Source:` lines of a header comment into `out` (used by
/// parse_litmus; exposed for tests). `start` is the position of the comment's first character.
/// Form (FORMAT.md): `Expected: rc11=Never execs=3; sc=Never execs=3` and `Source: text`.
/// Errors: `syntax_error` (lexer.hpp) at the offending character.
void parse_expectation(std::string_view comment, source_pos start, expectation& out);

/// Resolves names in a parsed test (sets the `index` fields). Errors: `syntax_error`.
void check_litmus(test& t);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
