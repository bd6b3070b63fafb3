// litmus/parser.cpp: recursive-descent parser for the litmus C subset (see parser.hpp).
#include "litmus/parser.hpp"

#include <array>
#include <string>
#include <utility>

#include "litmus/lexer.hpp"

namespace stealcheck::litmus {
namespace {

constexpr int max_depth = 100;

struct order_name {
  std::string_view text;
  mem_order order;
};
constexpr std::array<order_name, 6> order_names = {{
    {"memory_order_relaxed", mem_order::relaxed},
    {"memory_order_consume", mem_order::consume},
    {"memory_order_acquire", mem_order::acquire},
    {"memory_order_release", mem_order::release},
    {"memory_order_acq_rel", mem_order::acq_rel},
    {"memory_order_seq_cst", mem_order::seq_cst},
}};

struct binary_level {
  std::string_view text;
  binary_op op;
  int prec;  // higher binds tighter
};
constexpr std::array<binary_level, 18> binary_ops = {{
    {"*", binary_op::mul, 10},
    {"/", binary_op::div, 10},
    {"%", binary_op::mod, 10},
    {"+", binary_op::add, 9},
    {"-", binary_op::sub, 9},
    {"<<", binary_op::shl, 8},
    {">>", binary_op::shr, 8},
    {"<", binary_op::lt, 7},
    {"<=", binary_op::le, 7},
    {">", binary_op::gt, 7},
    {">=", binary_op::ge, 7},
    {"==", binary_op::eq, 6},
    {"!=", binary_op::ne, 6},
    {"&", binary_op::bit_and, 5},
    {"^", binary_op::bit_xor, 4},
    {"|", binary_op::bit_or, 3},
    {"&&", binary_op::log_and, 2},
    {"||", binary_op::log_or, 1},
}};

/// The parser state: a token vector and a cursor into it.
class parser {
 public:
  explicit parser(std::vector<token> toks) : toks_(std::move(toks)) {}

  void parse_body(test& t) {
    parse_init(t);
    while (peek().k == token::kind::ident && peek().text.size() > 1 && peek().text[0] == 'P')
      t.threads.push_back(parse_thread(static_cast<int>(t.threads.size())));
    if (t.threads.empty()) fail("expected a thread 'P0 (...) { ... }'");
    parse_condition(t);
  }

 private:
  std::vector<token> toks_;
  std::size_t i_ = 0;
  int depth_ = 0;

  // ---- token helpers ----
  const token& peek(std::size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
  token take() {
    token t = peek();
    if (i_ + 1 < toks_.size()) ++i_;
    return t;
  }
  bool is(std::string_view p, std::size_t k = 0) const {
    return peek(k).k != token::kind::end && peek(k).text == p;
  }
  bool accept(std::string_view p) {
    if (!is(p)) return false;
    take();
    return true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    const token& t = peek();
    const std::string got = t.k == token::kind::end ? "end of file" : "'" + t.text + "'";
    throw syntax_error(t.pos, what + ", found " + got);
  }
  void expect(std::string_view p) {
    if (!accept(p)) fail("expected '" + std::string(p) + "'");
  }
  std::string ident(const char* what) {
    if (peek().k != token::kind::ident) fail(std::string("expected ") + what);
    return take().text;
  }
  value_t number(bool allow_negative) {
    const bool neg = allow_negative && accept("-");
    if (peek().k != token::kind::number) fail("expected an integer");
    const token t = take();
    std::uint64_t v = 0;
    for (char c : t.text) {
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (v > (std::uint64_t{1} << 63) / 10 || v * 10 + d > (std::uint64_t{1} << 63))
        throw syntax_error(t.pos, "integer '" + t.text + "' out of range");
      v = v * 10 + d;
    }
    if (!neg && v == (std::uint64_t{1} << 63))
      throw syntax_error(t.pos, "integer '" + t.text + "' out of range");
    return neg ? static_cast<value_t>(0 - v) : static_cast<value_t>(v);
  }
  struct depth_guard {
    parser& p;
    explicit depth_guard(parser& q) : p(q) {
      if (++p.depth_ > max_depth) p.fail("nesting too deep (limit 100)");
    }
    ~depth_guard() { --p.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
  };

  // ---- init block: { [x] = 0; y = 1; int z = 2; } ----
  void parse_init(test& t) {
    expect("{");
    while (!accept("}")) {
      const source_pos pos = peek().pos;
      if (accept("atomic_int") || accept("int")) accept("*");
      std::string name;
      if (accept("[")) {
        name = ident("a location name");
        expect("]");
      } else {
        name = ident("a location '[x] = value;' or '}'");
      }
      // `int x;` (herd accepts a declaration without a value): 0.
      const value_t v = accept("=") ? number(true) : 0;
      if (!is(";") && !is("}")) fail("expected '=' or ';'");
      for (const location& l : t.locations)
        if (l.name == name) throw syntax_error(pos, "location '" + name + "' initialised twice");
      t.locations.push_back({name, v, -1});
      if (!accept(";") && !is("}")) fail("expected ';'");
    }
  }

  // ---- threads ----
  thread parse_thread(int expected_id) {
    thread th;
    th.pos = peek().pos;
    const token name = take();
    if (name.text != "P" + std::to_string(expected_id))
      throw syntax_error(name.pos, "expected thread 'P" + std::to_string(expected_id) +
                                       "' (threads are numbered in order), found '" + name.text +
                                       "'");
    th.id = expected_id;
    expect("(");
    if (!is(")")) {
      do
        th.params.push_back(parse_param());
      while (accept(","));
    }
    expect(")");
    expect("{");
    while (!accept("}"))
      th.body.push_back(parse_stmt());
    return th;
  }

  param parse_param() {
    param p;
    p.pos = peek().pos;
    accept("volatile");
    if (accept("atomic_int")) {
      p.atomic = true;
    } else if (accept("int")) {
      p.atomic = false;
    } else {
      fail("expected a parameter type 'atomic_int*' or 'int*'");
    }
    expect("*");
    p.name = ident("a parameter name");
    return p;
  }

  // ---- statements ----
  stmt parse_stmt() {
    depth_guard g(*this);
    stmt s;
    s.pos = peek().pos;
    if (accept(";")) return s;  // empty block
    if (accept("{")) {
      while (!accept("}"))
        s.body.push_back(parse_stmt());
      return s;
    }
    if (accept("if")) return parse_if(s);
    if (accept("int")) {
      s.k = stmt::kind::declare;
      s.target = ident("a local name");
      if (accept("="))
        parse_rhs(s);
      else
        s.value = constant(0, s.pos);
      expect(";");
      return s;
    }
    if (is_call_name(peek())) {
      s.k = stmt::kind::call;
      s.call = parse_call();
      expect(";");
      return s;
    }
    s.k = stmt::kind::assign;
    if (accept("*")) {
      s.plain_target = true;
      s.target = ident("a plain parameter name after '*'");
      expect("=");
      s.value = parse_expr(0);
      expect(";");
      return s;
    }
    if (peek().k != token::kind::ident) fail("expected a statement");
    s.target = take().text;
    expect("=");
    parse_rhs(s);
    expect(";");
    return s;
  }

  stmt parse_if(stmt& s) {
    s.k = stmt::kind::if_;
    expect("(");
    s.value = parse_expr(0);
    expect(")");
    s.body.push_back(parse_stmt());
    if (accept("else")) s.else_body.push_back(parse_stmt());
    return s;
  }

  void parse_rhs(stmt& s) {
    if (is_call_name(peek()))
      s.call = parse_call();
    else
      s.value = parse_expr(0);
  }

  static expr constant(value_t v, source_pos pos) {
    expr e;
    e.pos = pos;
    e.value = v;
    return e;
  }

  static bool is_call_name(const token& t) {
    return t.k == token::kind::ident && t.text.rfind("atomic_", 0) == 0 && t.text != "atomic_int";
  }

  // ---- atomic calls ----
  mem_order parse_order() {
    const token t = peek();
    for (const order_name& o : order_names)
      if (t.text == o.text) {
        take();
        return o.order;
      }
    fail("expected a memory order 'memory_order_...'");
  }

  atomic_call parse_call();
  void parse_call_args(atomic_call& c, std::string_view base, bool explicit_order);

  // ---- expressions ----
  expr parse_expr(int min_prec) {
    depth_guard g(*this);
    expr lhs = parse_unary();
    for (;;) {
      const binary_level* level = nullptr;
      for (const binary_level& b : binary_ops)
        if (peek().k == token::kind::punct && peek().text == b.text) level = &b;
      if (level == nullptr || level->prec < min_prec) return lhs;
      expr e;
      e.k = expr::kind::binary;
      e.pos = take().pos;
      e.bop = level->op;
      e.args.push_back(std::move(lhs));
      e.args.push_back(parse_expr(level->prec + 1));
      lhs = std::move(e);
    }
  }

  expr parse_unary() {
    depth_guard g(*this);
    expr e;
    e.pos = peek().pos;
    if (accept("(")) {
      e = parse_expr(0);
      expect(")");
      return e;
    }
    if (peek().k == token::kind::number) return constant(number(false), e.pos);
    if (is("-") || is("~") || is("!")) {
      e.k = expr::kind::unary;
      e.uop = is("-") ? unary_op::neg : is("~") ? unary_op::bit_not : unary_op::log_not;
      take();
      e.args.push_back(parse_unary());
      return e;
    }
    if (accept("*")) {
      e.k = expr::kind::deref;
      e.name = ident("a plain parameter name after '*'");
      return e;
    }
    if (is_call_name(peek()))
      fail("an atomic call must be a whole statement or a whole right-hand side");
    if (peek().k != token::kind::ident) fail("expected an expression");
    e.k = expr::kind::local;
    e.name = take().text;
    return e;
  }

  // ---- final condition ----
  void parse_condition(test& t);
  prop parse_prop_or();
  prop parse_prop_and();
  prop parse_prop_unary();
};

atomic_call parser::parse_call() {
  atomic_call c;
  c.pos = peek().pos;
  std::string name = take().text;
  const std::string suffix = "_explicit";
  const bool explicit_order = name.size() > suffix.size() &&
                              name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  if (explicit_order) name.resize(name.size() - suffix.size());
  expect("(");
  parse_call_args(c, name, explicit_order || name == "atomic_thread_fence");
  expect(")");
  return c;
}

void parser::parse_call_args(atomic_call& c, std::string_view base, bool explicit_order) {
  using k = atomic_call::kind;
  struct fetch_name {
    std::string_view text;
    rmw_op op;
  };
  static constexpr std::array<fetch_name, 5> fetches = {{{"atomic_fetch_add", rmw_op::add},
                                                         {"atomic_fetch_sub", rmw_op::sub},
                                                         {"atomic_fetch_and", rmw_op::bit_and},
                                                         {"atomic_fetch_or", rmw_op::bit_or},
                                                         {"atomic_fetch_xor", rmw_op::bit_xor}}};
  if (base == "atomic_thread_fence") {
    c.k = k::fence;
    c.order = parse_order();
    return;
  }
  bool known = true;
  if (base == "atomic_load")
    c.k = k::load;
  else if (base == "atomic_store")
    c.k = k::store;
  else if (base == "atomic_exchange")
    c.k = k::exchange;
  else if (base == "atomic_compare_exchange_strong")
    c.k = k::cas;
  else if (base == "atomic_compare_exchange_weak")
    c.k = k::cas, c.weak = true;
  else
    known = false;
  for (const fetch_name& f : fetches)
    if (base == f.text) c.k = k::fetch, c.op = f.op, known = true;
  if (!known) throw syntax_error(c.pos, "unknown atomic operation '" + std::string(base) + "'");
  c.location = ident("an atomic location parameter");
  if (c.k == k::cas) {
    expect(",");
    c.expected = ident("the expected-value parameter (an 'int*' of the thread)");
  }
  if (c.k != k::load) {
    expect(",");
    c.operand = parse_expr(0);
  }
  if (explicit_order) {
    expect(",");
    c.order = parse_order();
    if (c.k == k::cas) {
      expect(",");
      c.failure = parse_order();
    }
  }
}

void parser::parse_condition(test& t) {
  t.condition_pos = peek().pos;
  if (accept("locations")) {
    expect("[");
    while (!accept("]"))
      take();  // accepted for herd compatibility; not used
  }
  t.condition_pos = peek().pos;
  if (accept("exists")) {
    t.quant = quantifier::exists;
  } else if (accept("forall")) {
    t.quant = quantifier::forall;
  } else if (accept("~")) {
    expect("exists");
    t.quant = quantifier::not_exists;
  } else {
    fail("expected a final condition 'exists', '~exists' or 'forall'");
  }
  t.condition = parse_prop_or();
  accept(";");
  if (peek().k != token::kind::end) fail("expected end of file after the final condition");
}

prop parser::parse_prop_or() {
  depth_guard g(*this);
  prop lhs = parse_prop_and();
  while (is("\\/")) {
    prop p;
    p.k = prop::kind::or_;
    p.pos = take().pos;
    p.args.push_back(std::move(lhs));
    p.args.push_back(parse_prop_and());
    lhs = std::move(p);
  }
  return lhs;
}

prop parser::parse_prop_and() {
  prop lhs = parse_prop_unary();
  while (is("/\\")) {
    prop p;
    p.k = prop::kind::and_;
    p.pos = take().pos;
    p.args.push_back(std::move(lhs));
    p.args.push_back(parse_prop_unary());
    lhs = std::move(p);
  }
  return lhs;
}

prop parser::parse_prop_unary() {
  depth_guard g(*this);
  prop p;
  p.pos = peek().pos;
  if (accept("~")) {
    p.k = prop::kind::not_;
    p.args.push_back(parse_prop_unary());
  } else if (accept("(")) {
    p = parse_prop_or();
    expect(")");
  } else if (accept("true")) {
    p.k = prop::kind::true_;
  } else if (accept("false")) {
    p.k = prop::kind::false_;
  } else {
    p.k = prop::kind::atom;
    if (peek().k == token::kind::number) {
      const token tid = take();
      if (tid.text.size() > 3) throw syntax_error(tid.pos, "thread number out of range");
      p.thread = std::stoi(tid.text);
      expect(":");
      p.name = ident("a register name after 'N:'");
    } else if (accept("[")) {
      p.name = ident("a location name");
      expect("]");
    } else {
      p.name = ident("a condition atom 'N:reg=value' or '[loc]=value'");
    }
    expect("=");
    p.value = number(true);
  }
  return p;
}

}  // namespace

std::string parse_error::str() const {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": " + message;
}

std::variant<test, parse_error> parse_litmus(std::string_view text, std::string file) {
  try {
    test t;
    t.file = file;
    const header h = read_header(text);
    t.name = h.name;
    t.comment = h.comment;
    parse_expectation(h.comment, h.comment_pos, t.expect);
    parser p(tokenize(text, h.rest_offset, h.rest_pos));
    p.parse_body(t);
    check_litmus(t);
    return t;
  } catch (const syntax_error& e) {
    return parse_error{std::move(file), e.pos, e.what()};
  }
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
