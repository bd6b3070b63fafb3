// oracle/enumerate.hpp: a brute-force enumerator of the consistent executions of a program,
// herd7's method: build every candidate execution and keep those the axioms (axioms.hpp)
// accept.
//   1. Value domain: each location's possible values, from its initial value and the values
//      the threads can write, grown to a fixpoint.
//   2. Per thread, every trace (sequence of events) obtained by letting each read return each
//      value of its location's domain (control flow follows the values).
//   3. For each combination of traces, every reads-from choice (a read reads a write of the
//      same location and value, or the initial write) with sb ∪ rf acyclic, and every
//      modification order per location (initial write first); each candidate the model
//      accepts goes to the caller.
// A program is given by how each thread runs when its reads return given values
// (program::run): a litmus interpreter, or a list of instructions, fits it.
//
// Complexity: exponential (product of domain sizes over reads, of rf choices, of mo
// permutations); meant for litmus-sized programs. Limits (limit_error beyond): 64 events per
// candidate, 64 values per location, 10^7 traces per thread, 10^7 candidates.
// Source: Alglave, Maranget, Tautschnig, "Herding Cats", TOPLAS 2014, section 4 (candidate
// executions); the axioms of axioms.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "stealcheck/detail/oracle/axioms.hpp"

namespace stealcheck::oracle {

/// A limit of the enumerator was reached (the message says which).
struct limit_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a thread does when its reads return given values.
struct thread_run {
  /// Its events in program order, each read with the value it returned (`thread` need not be
  /// set: the enumerator sets it), up to its end or to the read no value was left for.
  std::vector<event> events;
  /// >= 0: the thread's next event reads this location and no value was left for it (that
  /// read is not in `events`); -1: the thread ended.
  int pending_loc = -1;
};

struct program {
  std::size_t threads = 0;
  std::vector<value_t> init;  ///< per location, its initial value
  /// Thread t run from its start with its reads returning `values` in program order. A read
  /// event's fields may depend on the value it returns (a compare-exchange's success).
  std::function<thread_run(std::size_t t, std::span<const value_t> values)> run;
};

/// One way a thread can run: its events, and the values its reads returned.
struct trace {
  std::vector<event> events;
  std::vector<value_t> values;
};

/// A consistent candidate: the execution (initial writes first, one per location, then each
/// thread's events in thread order) and the trace each thread ran.
struct candidate {
  const execution& x;
  const std::vector<const trace*>& traces;
};

/// Every candidate execution of p consistent under m, each handed to `f` once.
/// Throws limit_error (see the file comment).
void enumerate(const program& p, model m, const std::function<void(const candidate&)>& f);

/// The same with any consistency predicate (e.g. a variant of the axioms built from the
/// relations of axioms.hpp).
void enumerate(const program& p, const std::function<bool(const execution&)>& consistent,
               const std::function<void(const candidate&)>& f);

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
