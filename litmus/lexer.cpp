// litmus/lexer.cpp: tokens and the header of a litmus file (see lexer.hpp).
#include "litmus/lexer.hpp"

#include <array>

namespace stealcheck::litmus {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident(char c) {
  return is_ident_start(c) || is_digit(c);
}

/// A cursor over the text that keeps line and column up to date.
struct cursor {
  std::string_view text;
  std::size_t i = 0;
  source_pos pos;

  bool done() const { return i >= text.size(); }
  char peek(std::size_t k = 0) const { return i + k < text.size() ? text[i + k] : '\0'; }
  void next() {
    if (text[i] == '\n') {
      ++pos.line;
      pos.col = 1;
    } else {
      ++pos.col;
    }
    ++i;
  }
};

/// Skips blanks and C comments. Errors: an unterminated `/*`.
void skip_blanks(cursor& c) {
  while (!c.done()) {
    if (is_space(c.peek())) {
      c.next();
    } else if (c.peek() == '/' && c.peek(1) == '/') {
      while (!c.done() && c.peek() != '\n')
        c.next();
    } else if (c.peek() == '/' && c.peek(1) == '*') {
      const source_pos start = c.pos;
      c.next();
      c.next();
      while (!c.done() && !(c.peek() == '*' && c.peek(1) == '/'))
        c.next();
      if (c.done()) throw syntax_error(start, "unterminated comment '/*'");
      c.next();
      c.next();
    } else {
      return;
    }
  }
}

constexpr std::array<std::string_view, 10> two_char_puncts = {
    "/\\", "\\/", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||"};

token lex_one(cursor& c) {
  token t;
  t.pos = c.pos;
  const std::size_t start = c.i;
  if (is_ident_start(c.peek())) {
    t.k = token::kind::ident;
    while (!c.done() && is_ident(c.peek()))
      c.next();
  } else if (is_digit(c.peek())) {
    t.k = token::kind::number;
    while (!c.done() && is_digit(c.peek()))
      c.next();
    if (is_ident_start(c.peek())) throw syntax_error(c.pos, "malformed number");
  } else {
    t.k = token::kind::punct;
    const std::string_view two = c.text.substr(c.i, 2);
    bool matched = false;
    for (std::string_view p : two_char_puncts)
      matched = matched || two == p;
    if (matched) {
      c.next();
      c.next();
    } else if (std::string_view("{}()[];,*=<>+-/%&|^!~:").find(c.peek()) !=
               std::string_view::npos) {
      c.next();
    } else {
      const unsigned char ch = static_cast<unsigned char>(c.peek());
      std::string shown = ch >= 0x20 && ch < 0x7f ? std::string(1, c.peek()) : "\\x" + [&] {
        const char* hex = "0123456789abcdef";
        return std::string{hex[ch >> 4], hex[ch & 15]};
      }();
      throw syntax_error(c.pos, "unexpected character '" + shown + "'");
    }
  }
  t.text = std::string(c.text.substr(start, c.i - start));
  return t;
}

}  // namespace

source_pos advance_pos(std::string_view text, std::size_t from, std::size_t to, source_pos pos) {
  cursor c{text, from, pos};
  while (c.i < to && !c.done())
    c.next();
  return c.pos;
}

std::vector<token> tokenize(std::string_view text, std::size_t offset, source_pos start) {
  cursor c{text, offset, start};
  std::vector<token> out;
  for (skip_blanks(c); !c.done(); skip_blanks(c))
    out.push_back(lex_one(c));
  token end;
  end.pos = c.pos;
  out.push_back(end);
  return out;
}

header read_header(std::string_view text) {
  cursor c{text, 0, {}};
  header h;
  skip_blanks(c);
  if (c.peek() != 'C' || !(is_space(c.peek(1)))) {
    throw syntax_error(c.pos, "expected 'C <name>' (a C litmus test starts with its arch 'C')");
  }
  c.next();
  while (!c.done() && (c.peek() == ' ' || c.peek() == '\t'))
    c.next();
  h.name_pos = c.pos;
  const std::size_t name_start = c.i;
  while (!c.done() && !is_space(c.peek()) && c.peek() != '(' && c.peek() != '{')
    c.next();
  if (c.i == name_start) throw syntax_error(c.pos, "expected a test name after 'C'");
  h.name = std::string(text.substr(name_start, c.i - name_start));
  skip_blanks(c);
  if (c.peek() == '(' && c.peek(1) == '*') {
    const source_pos open = c.pos;
    c.next();
    c.next();
    h.comment_pos = c.pos;
    const std::size_t body = c.i;
    while (!c.done() && !(c.peek() == '*' && c.peek(1) == ')'))
      c.next();
    if (c.done()) throw syntax_error(open, "unterminated comment '(*'");
    h.comment = std::string(text.substr(body, c.i - body));
    c.next();
    c.next();
  }
  h.rest_offset = c.i;
  h.rest_pos = c.pos;
  return h;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
