// litmus/interpreter.hpp: running a litmus test's threads on a memory backend.
//
// A checked `test` (parser.hpp) is compiled into a `program`: per thread, a flat list of
// instructions (local computations, one atomic access each, conditional and unconditional
// jumps). A thread is then run step by step: `next_access` performs the thread's local
// instructions up to its next shared access (or its end) and returns that access;
// `finish_access` hands the access's result back. The reference SC enumerator
// (reference.hpp) schedules those steps itself; `run_thread<Mem>` runs a whole thread on a
// memory backend with the deques' interface (deques/memory.hpp: `Mem::atomic<U>`,
// `Mem::fence`), which is how the model checker (models/) and native threads run tests.
//
// Source: herd7's C litmus semantics (herdtools7); C11 atomics (ISO C 7.17).
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

#include "litmus/ast.hpp"

namespace stealcheck::litmus {

struct instr {
  enum class op : std::uint8_t { assign, access, branch_false, jump };
  op o = op::assign;
  const stmt* s = nullptr;  ///< assign/access: the statement; branch_false: the `if`
  std::size_t target = 0;   ///< jump destinations
};

/// A compiled test. Holds pointers into `t`: the test must outlive the program.
struct program {
  const test* t = nullptr;
  std::vector<std::vector<instr>> threads;
};

/// Compiles a checked test. Complexity: linear in the number of statements.
program compile(const test& t);

/// The private state of one thread: program counter, locals, and the plain (`int*`) locations
/// (indexed like test::plains; only the thread's own are used).
struct thread_state {
  std::size_t pc = 0;
  std::vector<value_t> locals;
  std::vector<value_t> plains;
};

thread_state initial_state(const program& p, int thread);

/// Runs local instructions of `thread` until its next atomic access; returns it, or nullptr at
/// the end of the thread. Calling it again without `finish_access` returns the same access.
const atomic_call* next_access(const program& p, int thread, thread_state& st);

/// The value an access stores, exchanges, adds, or offers as desired (0 for loads and fences).
value_t access_operand(const atomic_call& c, const thread_state& st);

/// The value a read-modify-write `c` writes when it reads `old` (fetch ops and exchange; for
/// a cas, the desired value).
value_t rmw_result(const atomic_call& c, value_t old, const thread_state& st);

/// Completes the pending access with the value it returns (the loaded/old value, or for a cas
/// 1/0), assigns it to the statement's target if any, and moves past it. For a failed cas, the
/// caller has already stored the value read into `st.plains[c.expected_index]`.
void finish_access(const program& p, int thread, thread_state& st, value_t result);

/// Evaluates an expression in a thread's state. Complexity: linear in its size.
value_t eval(const expr& e, const thread_state& st);

constexpr std::memory_order to_std(mem_order o) noexcept {
  switch (o) {
    case mem_order::relaxed:
      return std::memory_order_relaxed;
    case mem_order::consume:
      return std::memory_order_consume;
    case mem_order::acquire:
      return std::memory_order_acquire;
    case mem_order::release:
      return std::memory_order_release;
    case mem_order::acq_rel:
      return std::memory_order_acq_rel;
    case mem_order::seq_cst:
      return std::memory_order_seq_cst;
  }
  return std::memory_order_seq_cst;
}

/// Performs one access on a backend atomic `a` (Mem::atomic<value_t>) and returns its result.
/// Memory ordering: exactly the orders written in the test.
template <class Mem, class Atomic>
value_t perform(const atomic_call& c, Atomic* a, thread_state& st) {
  using k = atomic_call::kind;
  const value_t v = access_operand(c, st);
  const std::memory_order o = to_std(c.order);
  switch (c.k) {
    case k::load:
      return a->load(o);
    case k::store:
      a->store(v, o);
      return 0;
    case k::exchange:
      return a->exchange(v, o);
    case k::cas: {
      value_t expected = st.plains[static_cast<std::size_t>(c.expected_index)];
      const bool ok = a->compare_exchange_strong(expected, v, o, to_std(c.failure));
      if (!ok) st.plains[static_cast<std::size_t>(c.expected_index)] = expected;
      return ok ? 1 : 0;
    }
    case k::fetch: {
      // fetch ops on the backend wrap like litmus arithmetic (two's complement atomics).
      switch (c.op) {
        case rmw_op::add:
          return a->fetch_add(v, o);
        case rmw_op::sub:
          return a->fetch_sub(v, o);
        case rmw_op::bit_and:
          return a->fetch_and(v, o);
        case rmw_op::bit_or:
          return a->fetch_or(v, o);
        case rmw_op::bit_xor:
          return a->fetch_xor(v, o);
      }
      return 0;
    }
    case k::fence:
      Mem::fence(o);
      return 0;
  }
  return 0;
}

/// Runs thread `thread` to its end on backend `Mem`; `locs[i]` is the atomic for
/// test::locations[i]. Thread role: the thread being run. Requires: `st` from initial_state.
template <class Mem, class Atomic>
void run_thread(const program& p, int thread, thread_state& st, const std::vector<Atomic*>& locs) {
  while (const atomic_call* c = next_access(p, thread, st)) {
    Atomic* a = c->loc_index >= 0 ? locs[static_cast<std::size_t>(c->loc_index)] : nullptr;
    finish_access(p, thread, st, perform<Mem>(*c, a, st));
  }
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
