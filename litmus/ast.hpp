// litmus/ast.hpp: the abstract syntax of a herd7-format C litmus test (the subset in FORMAT.md).
//
// A `test` is what `parse_litmus` (parser.hpp) returns: the header name, the header comment and
// the expectation written in it, the initial values, the threads' statements and the final
// condition. After parsing, `check_litmus` (also parser.hpp) resolves every name to an index
// (`index` fields below; -1 until resolved), so the interpreter and the code generator never
// look a name up.
//
// Source: the C litmus format of herd7 (herdtools7, http://diy.inria.fr/doc/herd.html) and the
// litmus methodology of Alglave, Maranget, Tautschnig, "Herding Cats", TOPLAS 36(2), 2014.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stealcheck::litmus {

/// Every value in a test (locations, registers, constants) is a 64-bit integer; arithmetic
/// wraps (litmus/value.hpp), so no input is undefined behaviour.
using value_t = std::int64_t;

/// A position in the source file; 1-based line and column.
struct source_pos {
  int line = 1;
  int col = 1;
};

/// `memory_order_*`. Numbering as in C11, so that `consume` is distinct here and treated as
/// `acquire` by the models (RC11 does so; see docs/rc11-oracle.md).
enum class mem_order : std::uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };

enum class unary_op : std::uint8_t { neg, bit_not, log_not };

enum class binary_op : std::uint8_t {
  mul,
  div,
  mod,
  add,
  sub,
  shl,
  shr,
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  bit_and,
  bit_xor,
  bit_or,
  log_and,
  log_or
};

/// An expression over constants, thread locals and `*p` reads of the thread's plain (`int*`)
/// parameters. Atomic calls are not expressions (see `atomic_call`), so evaluation has no side
/// effects and its order does not matter.
struct expr {
  enum class kind : std::uint8_t { constant, local, deref, unary, binary };
  kind k = kind::constant;
  source_pos pos;
  value_t value = 0;  ///< constant
  std::string name;   ///< local or plain parameter name
  int index = -1;     ///< resolved: local index, or plain-location index
  unary_op uop = unary_op::neg;
  binary_op bop = binary_op::add;
  std::vector<expr> args;  ///< operands (1 for unary, 2 for binary)
};

enum class rmw_op : std::uint8_t { add, sub, bit_and, bit_or, bit_xor };

/// One call of the C11 atomics API. Only as a whole statement or as the whole right-hand side
/// of an assignment/initialisation (so that each statement does at most one shared access).
struct atomic_call {
  enum class kind : std::uint8_t { load, store, exchange, cas, fetch, fence };
  kind k = kind::load;
  source_pos pos;
  std::string location;         ///< atomic parameter accessed (empty for a fence)
  int loc_index = -1;           ///< resolved: index into test::locations
  std::string expected;         ///< cas: the plain parameter holding the expected value
  int expected_index = -1;      ///< resolved: index into test::plains
  bool weak = false;            ///< cas: compare_exchange_weak (parsed; run as strong, FORMAT.md)
  std::optional<expr> operand;  ///< stored / exchanged / desired / fetch operand
  rmw_op op = rmw_op::add;      ///< fetch
  mem_order order = mem_order::seq_cst;    ///< success order for cas
  mem_order failure = mem_order::seq_cst;  ///< cas only
};

/// A statement. `declare` and `assign` take either `value` or `call`; `call` alone is an
/// atomic call whose result is discarded; `if_` has `value` as its condition.
struct stmt {
  enum class kind : std::uint8_t { declare, assign, call, if_, block };
  kind k = kind::block;
  source_pos pos;
  std::string target;         ///< declared/assigned local (or plain location)
  bool plain_target = false;  ///< assign only: `*e = E;` writes the plain location e
  int target_index = -1;      ///< resolved local index (plain index if plain_target)
  std::optional<expr> value;
  std::optional<atomic_call> call;
  std::vector<stmt> body;       ///< block; then-branch of if_
  std::vector<stmt> else_body;  ///< else-branch of if_ (may be empty)
};

struct param {
  std::string name;
  bool atomic = true;  ///< `atomic_int*` (shared) or `int*` (plain, private to one thread)
  source_pos pos;
  int index = -1;  ///< resolved: into test::locations (atomic) or test::plains (plain)
};

struct thread {
  int id = 0;
  source_pos pos;
  std::vector<param> params;
  std::vector<stmt> body;
  std::vector<std::string> locals;  ///< resolved: every local declared, by index
};

/// A location and its initial value (init block; 0 when not listed).
struct location {
  std::string name;
  value_t init = 0;
  int owner = -1;  ///< plains only: the one thread that may use it
};

/// A proposition of the final condition.
struct prop {
  enum class kind : std::uint8_t { atom, not_, and_, or_, true_, false_ };
  kind k = kind::true_;
  source_pos pos;
  int thread = -1;    ///< atom: -1 for a location, else the thread of a register
  std::string name;   ///< atom: register or location name
  value_t value = 0;  ///< atom: `name = value`
  int index = -1;     ///< resolved: into test::observed
  std::vector<prop> args;
};

enum class quantifier : std::uint8_t { exists, not_exists, forall };

/// herd's verdict on the proposition: it holds in some, none, or all final states.
enum class verdict : std::uint8_t { sometimes, never, always };

enum class model_kind : std::uint8_t { rc11, sc };

/// The expected result of one model, from the `Expected:` line of the header comment.
struct model_expectation {
  model_kind model = model_kind::rc11;
  verdict result = verdict::never;
  std::optional<std::uint64_t> execs;  ///< consistent complete executions
};

struct expectation {
  std::vector<model_expectation> models;
  std::string source;  ///< where the expectation comes from (required when models is nonempty)
  source_pos pos;
};

/// One observed variable of an outcome: a register `T:r` or a location (atomic or plain).
struct observed_var {
  int thread = -1;  ///< -1 for a location
  std::string name;
  int index = -1;  ///< local index in the thread, or location/plain index
  bool plain = false;
};

struct test {
  std::string file;
  std::string name;
  std::string comment;  ///< text between `(*` and `*)`, without them
  expectation expect;
  std::vector<location> locations;  ///< shared atomic locations, sorted by name
  std::vector<location> plains;     ///< plain (`int*`) locations, sorted by name
  std::vector<thread> threads;
  quantifier quant = quantifier::exists;
  prop condition;
  source_pos condition_pos;
  std::vector<observed_var> observed;  ///< resolved: the condition's variables, first-use order
};

const char* to_string(mem_order o) noexcept;
const char* to_string(verdict v) noexcept;
const char* to_string(model_kind m) noexcept;
const char* to_string(quantifier q) noexcept;

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
