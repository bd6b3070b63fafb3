// litmus/lexer.hpp: tokens of the litmus C subset (internal to the parser and the fuzzer).
//
// Requires: nothing of the input (any bytes). Errors: `syntax_error` with the position of the
// offending character. Complexity: linear in the input.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/ast.hpp"

namespace stealcheck::litmus {

/// Thrown inside the parser; `parse_litmus` turns it into a `parse_error`.
struct syntax_error : std::runtime_error {
  source_pos pos;
  syntax_error(source_pos p, const std::string& message) : std::runtime_error(message), pos(p) {}
};

struct token {
  enum class kind : std::uint8_t { ident, number, punct, end };
  kind k = kind::end;
  std::string text;  ///< identifier, digits, or punctuation ("/\\" and "\\/" included)
  source_pos pos;
};

/// Splits `text` into tokens starting at byte `offset` (which is at `start`). Skips blanks,
/// C comments (`/* */`, `//`). `(* ... *)` is not skipped here: the parser reads the header
/// comment itself with `read_header`.
std::vector<token> tokenize(std::string_view text, std::size_t offset, source_pos start);

/// The header: `C <name>` then an optional `(* comment *)`. Returns the offset and position
/// where the rest of the test begins.
struct header {
  std::string name;
  source_pos name_pos;
  std::string comment;
  source_pos comment_pos;  ///< position of the first character inside `(*`
  std::size_t rest_offset = 0;
  source_pos rest_pos;
};
header read_header(std::string_view text);

/// The position just after the characters text[from, to), starting at `pos`.
source_pos advance_pos(std::string_view text, std::size_t from, std::size_t to, source_pos pos);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
