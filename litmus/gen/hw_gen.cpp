// litmus/gen/hw_gen.cpp: the build-time generator of native litmus code.
//
//   litmus_hw_gen OUT.cpp FILE.litmus...
//
// Writes OUT.cpp with, for every test, one C++ function per thread on std::atomic with the
// test's memory orders (hw_test.hpp), and the test's source text, so that the hardware runner
// parses exactly the text the code came from. Locals become C++ locals; arithmetic goes
// through litmus/value.hpp, as in the interpreter. Exit 2 with `file:line:col: message` on a
// malformed test.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "litmus/parser.hpp"

namespace stealcheck::litmus {
namespace {

std::string order(mem_order o) {
  return std::string("std::") + to_string(o);
}

std::string gen_expr(const expr& e) {
  static const char* const binary_fn[] = {"mul", "div", "mod", "add", "sub", "shl", "shr"};
  static const char* const compare_op[] = {"<", "<=", ">", ">=", "==", "!="};
  switch (e.k) {
    case expr::kind::constant:
      if (e.value == INT64_MIN) return "value_t{INT64_MIN}";
      return "value_t{" + std::to_string(e.value) + "}";
    case expr::kind::local:
      return "l" + std::to_string(e.index);
    case expr::kind::deref:
      return "plains[" + std::to_string(e.index) + "]";
    case expr::kind::unary: {
      const std::string a = gen_expr(e.args[0]);
      if (e.uop == unary_op::neg) return "arith::neg(" + a + ")";
      return e.uop == unary_op::bit_not ? "(~" + a + ")" : "arith::truth(" + a + " == 0)";
    }
    case expr::kind::binary:
      break;
  }
  const std::string a = gen_expr(e.args[0]), b = gen_expr(e.args[1]);
  const auto op = static_cast<std::size_t>(e.bop);
  if (op <= static_cast<std::size_t>(binary_op::shr))
    return std::string("arith::") + binary_fn[op] + "(" + a + ", " + b + ")";
  if (op <= static_cast<std::size_t>(binary_op::ne))
    return "arith::truth(" + a + " " + compare_op[op - static_cast<std::size_t>(binary_op::lt)] +
           " " + b + ")";
  switch (e.bop) {
    case binary_op::bit_and:
      return "(" + a + " & " + b + ")";
    case binary_op::bit_xor:
      return "(" + a + " ^ " + b + ")";
    case binary_op::bit_or:
      return "(" + a + " | " + b + ")";
    case binary_op::log_and:
      return "arith::truth(" + a + " != 0 && " + b + " != 0)";
    default:
      return "arith::truth(" + a + " != 0 || " + b + " != 0)";
  }
}

/// The C++ of one atomic call; `target` is the local receiving its result (or empty).
std::string gen_call(const atomic_call& c, const std::string& target) {
  using k = atomic_call::kind;
  const std::string loc = "loc[" + std::to_string(c.loc_index) + "].v";
  const std::string v = c.operand ? gen_expr(*c.operand) : "";
  const std::string assign = target.empty() ? "" : target + " = ";
  static const char* const fetch_fn[] = {"fetch_add", "fetch_sub", "fetch_and", "fetch_or",
                                         "fetch_xor"};
  switch (c.k) {
    case k::fence:
      return "std::atomic_thread_fence(" + order(c.order) + ");";
    case k::load:
      return assign + loc + ".load(" + order(c.order) + ");";
    case k::store:
      return loc + ".store(" + v + ", " + order(c.order) + ");";
    case k::exchange:
      return assign + loc + ".exchange(" + v + ", " + order(c.order) + ");";
    case k::fetch:
      return assign + loc + "." + fetch_fn[static_cast<std::size_t>(c.op)] + "(" + v + ", " +
             order(c.order) + ");";
    case k::cas:
      break;
  }
  const std::string e = "plains[" + std::to_string(c.expected_index) + "]";
  return "{ value_t expected = " + e + "; const bool ok = " + loc +
         ".compare_exchange_strong(expected, " + v + ", " + order(c.order) + ", " +
         order(c.failure) + "); if (!ok) " + e + " = expected; " +
         (target.empty() ? "" : target + " = ok ? 1 : 0; ") + "}";
}

void gen_stmt(const stmt& s, std::ostream& out, int indent) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  const std::string target = s.target_index < 0
                                 ? ""
                                 : (s.plain_target ? "plains[" : "l") +
                                       std::to_string(s.target_index) + (s.plain_target ? "]" : "");
  switch (s.k) {
    case stmt::kind::block:
      for (const stmt& b : s.body)
        gen_stmt(b, out, indent);
      return;
    case stmt::kind::declare:
    case stmt::kind::assign:
    case stmt::kind::call:
      if (s.call)
        out << pad << gen_call(*s.call, target) << "\n";
      else
        out << pad << target << " = " << gen_expr(*s.value) << ";\n";
      return;
    case stmt::kind::if_:
      out << pad << "if (" << gen_expr(*s.value) << " != 0) {\n";
      for (const stmt& b : s.body)
        gen_stmt(b, out, indent + 1);
      out << pad << "} else {\n";
      for (const stmt& b : s.else_body)
        gen_stmt(b, out, indent + 1);
      out << pad << "}\n";
      return;
  }
}

void gen_test(const test& t, std::size_t n, const std::string& text, std::ostream& out) {
  out << "namespace t" << n << " {  // " << t.name << "\n";
  out << "constexpr std::string_view source = R\"LITMUS(" << text << ")LITMUS\";\n";
  for (const thread& th : t.threads) {
    out << "void thread" << th.id
        << "([[maybe_unused]] hw_cell* loc, [[maybe_unused]] value_t* regs, "
           "[[maybe_unused]] value_t* plains) {\n";
    for (std::size_t i = 0; i < th.locals.size(); ++i)
      out << "  value_t l" << i << " = 0;  // " << th.locals[i] << "\n";
    for (const stmt& s : th.body)
      gen_stmt(s, out, 1);
    for (std::size_t i = 0; i < th.locals.size(); ++i)
      out << "  regs[" << i << "] = l" << i << ";\n";
    out << "}\n";
  }
  out << "}  // namespace t" << n << "\n\n";
}

int generate(const std::string& out_path, const std::vector<std::string>& files) {
  std::ostringstream out;
  out << "// GENERATED by litmus/gen/hw_gen.cpp from the litmus suite: do not edit.\n"
      << "#include <cstdint>\n\n#include \"litmus/hw_test.hpp\"\n\nnamespace stealcheck::litmus "
         "{\nnamespace {\n\n";
  std::vector<std::pair<std::string, std::size_t>> entries;
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto r = parse_litmus(text.str(), f);
    if (auto* e = std::get_if<parse_error>(&r)) {
      std::cerr << e->str() << "\n";
      return 2;
    }
    const test& t = std::get<test>(r);
    if (t.threads.size() > 8 || text.str().find(")LITMUS\"") != std::string::npos) {
      std::cerr << f << ":1:1: cannot generate native code (more than 8 threads?)\n";
      return 2;
    }
    gen_test(t, entries.size(), text.str(), out);
    entries.emplace_back(t.name, t.threads.size());
  }
  out << "}  // namespace\n\nconst hw_test hw_tests[] = {\n";
  for (std::size_t n = 0; n < entries.size(); ++n) {
    out << "    {\"" << entries[n].first << "\", t" << n << "::source, " << entries[n].second
        << ", {";
    for (std::size_t i = 0; i < entries[n].second; ++i)
      out << (i ? ", " : "") << "t" << n << "::thread" << i;
    out << "}},\n";
  }
  if (entries.empty()) out << "    {},\n";
  out << "};\nconst std::size_t hw_tests_count = " << entries.size()
      << ";\n\n}  // namespace stealcheck::litmus\n";
  std::ofstream file(out_path, std::ios::binary);
  file << out.str();
  return file ? 0 : 2;
}

}  // namespace
}  // namespace stealcheck::litmus

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: litmus_hw_gen OUT.cpp FILE.litmus...\n";
    return 2;
  }
  std::vector<std::string> files(argv + 2, argv + argc);
  return stealcheck::litmus::generate(argv[1], files);
}
// SPDX-License-Identifier: Apache-2.0
