// litmus/hw_test.hpp: the interface between the generated native litmus code and the hardware
// runner (hw.cpp). The generator (gen/hw_gen.cpp) writes one `hw_test` per suite file.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <string_view>

#include "litmus/ast.hpp"
#include "litmus/value.hpp"

namespace stealcheck::litmus {

/// One shared location of one round, alone on its cache line (so that the tests' locations do
/// not share a line: each test's weak behaviours come from the memory system, not from
/// false sharing), as litmus7 can lay them out.
struct alignas(64) hw_cell {
  std::atomic<value_t> v{0};
};

/// Runs one thread of a test once: `loc` are the round's shared locations (index as
/// test::locations), `regs` receives the thread's final locals (index as thread::locals),
/// `plains` are the thread's plain locations (index as test::plains), initialised by the
/// caller. Memory ordering: exactly the orders written in the test, on std::atomic.
using hw_body = void (*)(hw_cell* loc, value_t* regs, value_t* plains);

inline constexpr std::size_t hw_max_threads = 8;

struct hw_test {
  std::string_view name;
  std::string_view source;  ///< the .litmus text the code was generated from
  std::size_t threads = 0;
  std::array<hw_body, hw_max_threads> bodies{};
};

/// The generated tests (hw_tests.cpp, written at build time).
extern const hw_test hw_tests[];
extern const std::size_t hw_tests_count;

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
