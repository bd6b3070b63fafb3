// litmus/interpreter.cpp: compiling a test to per-thread instructions and running them.
#include "litmus/interpreter.hpp"

#include "litmus/value.hpp"

namespace stealcheck::litmus {
namespace {

void compile_stmt(const stmt& s, std::vector<instr>& out) {
  switch (s.k) {
    case stmt::kind::block:
      for (const stmt& b : s.body)
        compile_stmt(b, out);
      return;
    case stmt::kind::declare:
    case stmt::kind::assign:
    case stmt::kind::call:
      out.push_back({s.call ? instr::op::access : instr::op::assign, &s, 0});
      return;
    case stmt::kind::if_: {
      const std::size_t branch = out.size();
      out.push_back({instr::op::branch_false, &s, 0});
      for (const stmt& b : s.body)
        compile_stmt(b, out);
      if (s.else_body.empty()) {
        out[branch].target = out.size();
        return;
      }
      const std::size_t jump = out.size();
      out.push_back({instr::op::jump, &s, 0});
      out[branch].target = out.size();
      for (const stmt& b : s.else_body)
        compile_stmt(b, out);
      out[jump].target = out.size();
      return;
    }
  }
}

value_t eval_binary(binary_op op, value_t a, value_t b) {
  using namespace arith;
  switch (op) {
    case binary_op::mul:
      return mul(a, b);
    case binary_op::div:
      return div(a, b);
    case binary_op::mod:
      return mod(a, b);
    case binary_op::add:
      return add(a, b);
    case binary_op::sub:
      return sub(a, b);
    case binary_op::shl:
      return shl(a, b);
    case binary_op::shr:
      return shr(a, b);
    case binary_op::lt:
      return truth(a < b);
    case binary_op::le:
      return truth(a <= b);
    case binary_op::gt:
      return truth(a > b);
    case binary_op::ge:
      return truth(a >= b);
    case binary_op::eq:
      return truth(a == b);
    case binary_op::ne:
      return truth(a != b);
    case binary_op::bit_and:
      return a & b;
    case binary_op::bit_xor:
      return a ^ b;
    case binary_op::bit_or:
      return a | b;
    case binary_op::log_and:
      return truth(a != 0 && b != 0);
    case binary_op::log_or:
      return truth(a != 0 || b != 0);
  }
  return 0;
}

}  // namespace

program compile(const test& t) {
  program p;
  p.t = &t;
  for (const thread& th : t.threads) {
    std::vector<instr> code;
    for (const stmt& s : th.body)
      compile_stmt(s, code);
    p.threads.push_back(std::move(code));
  }
  return p;
}

thread_state initial_state(const program& p, int thread) {
  thread_state st;
  st.locals.assign(p.t->threads[static_cast<std::size_t>(thread)].locals.size(), 0);
  for (const location& l : p.t->plains)
    st.plains.push_back(l.init);
  return st;
}

value_t eval(const expr& e, const thread_state& st) {
  switch (e.k) {
    case expr::kind::constant:
      return e.value;
    case expr::kind::local:
      return st.locals[static_cast<std::size_t>(e.index)];
    case expr::kind::deref:
      return st.plains[static_cast<std::size_t>(e.index)];
    case expr::kind::unary: {
      const value_t a = eval(e.args[0], st);
      if (e.uop == unary_op::neg) return arith::neg(a);
      return e.uop == unary_op::bit_not ? ~a : arith::truth(a == 0);
    }
    case expr::kind::binary:
      return eval_binary(e.bop, eval(e.args[0], st), eval(e.args[1], st));
  }
  return 0;
}

const atomic_call* next_access(const program& p, int thread, thread_state& st) {
  const std::vector<instr>& code = p.threads[static_cast<std::size_t>(thread)];
  while (st.pc < code.size()) {
    const instr& in = code[st.pc];
    switch (in.o) {
      case instr::op::access:
        return &*in.s->call;
      case instr::op::assign:
        (in.s->plain_target ? st.plains : st.locals)[static_cast<std::size_t>(in.s->target_index)] =
            eval(*in.s->value, st);
        ++st.pc;
        break;
      case instr::op::branch_false:
        st.pc = eval(*in.s->value, st) != 0 ? st.pc + 1 : in.target;
        break;
      case instr::op::jump:
        st.pc = in.target;
        break;
    }
  }
  return nullptr;
}

value_t access_operand(const atomic_call& c, const thread_state& st) {
  return c.operand ? eval(*c.operand, st) : 0;
}

value_t rmw_result(const atomic_call& c, value_t old, const thread_state& st) {
  const value_t v = access_operand(c, st);
  if (c.k != atomic_call::kind::fetch) return v;
  switch (c.op) {
    case rmw_op::add:
      return arith::add(old, v);
    case rmw_op::sub:
      return arith::sub(old, v);
    case rmw_op::bit_and:
      return old & v;
    case rmw_op::bit_or:
      return old | v;
    case rmw_op::bit_xor:
      return old ^ v;
  }
  return v;
}

void finish_access(const program& p, int thread, thread_state& st, value_t result) {
  const instr& in = p.threads[static_cast<std::size_t>(thread)][st.pc];
  if (in.s->target_index >= 0) st.locals[static_cast<std::size_t>(in.s->target_index)] = result;
  ++st.pc;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
