// litmus/expect.cpp: the `Expected:` and `Source:` lines of a header comment (see FORMAT.md).
//
//   Expected: rc11=Never execs=3; sc=Never execs=3
//   Source: docs/rc11-oracle.md (GenMC v0.11.0)
#include <cctype>
#include <string>

#include "litmus/lexer.hpp"
#include "litmus/parser.hpp"

namespace stealcheck::litmus {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

/// Reads one line's `Expected:` clauses, each `MODEL=VERDICT [execs=N]`, separated by `;`.
class clause_reader {
 public:
  clause_reader(std::string_view line, source_pos pos) : line_(line), pos_(pos) {}

  void read(expectation& out) {
    for (;;) {
      skip();
      if (i_ >= line_.size()) return;
      out.models.push_back(read_clause(out));
      skip();
      if (i_ >= line_.size()) return;
      if (line_[i_] != ';') fail("expected ';' between model expectations");
      ++i_;
    }
  }

 private:
  std::string_view line_;
  source_pos pos_;  // position of line_[0]
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& m) const {
    throw syntax_error({pos_.line, pos_.col + static_cast<int>(i_)}, m);
  }
  void skip() {
    while (i_ < line_.size() && is_blank(line_[i_]))
      ++i_;
  }
  std::string word() {
    const std::size_t s = i_;
    while (i_ < line_.size() && (std::isalnum(static_cast<unsigned char>(line_[i_])) != 0))
      ++i_;
    return std::string(line_.substr(s, i_ - s));
  }

  model_expectation read_clause(const expectation& so_far) {
    model_expectation m;
    const std::size_t at = i_;
    const std::string model = word();
    if (model == "rc11")
      m.model = model_kind::rc11;
    else if (model == "sc")
      m.model = model_kind::sc;
    else
      i_ = at, fail("expected a model 'rc11' or 'sc'");
    for (const model_expectation& o : so_far.models)
      if (o.model == m.model) {
        i_ = at;
        fail("model '" + model + "' expected twice");
      }
    if (i_ >= line_.size() || line_[i_] != '=') fail("expected '=' after the model name");
    ++i_;
    const std::size_t verdict_at = i_;
    const std::string v = word();
    if (v == "Sometimes")
      m.result = verdict::sometimes;
    else if (v == "Never")
      m.result = verdict::never;
    else if (v == "Always")
      m.result = verdict::always;
    else
      i_ = verdict_at, fail("expected a verdict 'Sometimes', 'Never' or 'Always'");
    skip();
    if (line_.substr(i_, 6) == "execs=") {
      i_ += 6;
      const std::size_t s = i_;
      std::uint64_t n = 0;
      while (i_ < line_.size() && line_[i_] >= '0' && line_[i_] <= '9' && i_ - s < 18)
        n = n * 10 + static_cast<std::uint64_t>(line_[i_++] - '0');
      if (i_ == s) fail("expected a number of executions after 'execs='");
      m.execs = n;
    }
    return m;
  }
};

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_blank(s[b]))
    ++b;
  while (e > b && is_blank(s[e - 1]))
    --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

void parse_expectation(std::string_view comment, source_pos start, expectation& out) {
  source_pos pos = start;
  std::size_t i = 0;
  while (i <= comment.size()) {
    std::size_t end = comment.find('\n', i);
    if (end == std::string_view::npos) end = comment.size();
    std::string_view line = comment.substr(i, end - i);
    std::size_t b = 0;
    while (b < line.size() && is_blank(line[b]))
      ++b;
    const source_pos at{pos.line, pos.col + static_cast<int>(b)};
    const std::string_view body = line.substr(b);
    if (body.rfind("Expected:", 0) == 0) {
      if (!out.models.empty()) throw syntax_error(at, "a second 'Expected:' line");
      out.pos = at;
      clause_reader(body.substr(9), {at.line, at.col + 9}).read(out);
      if (out.models.empty()) throw syntax_error(at, "'Expected:' names no model");
    } else if (body.rfind("Source:", 0) == 0) {
      out.source = trim(body.substr(7));
    }
    i = end + 1;
    pos = {pos.line + 1, 1};
  }
  if (!out.models.empty() && out.source.empty())
    throw syntax_error(out.pos,
                       "an 'Expected:' line needs a 'Source:' line saying where it "
                       "comes from");
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
