// litmus/value.hpp: the arithmetic of litmus values, shared by the interpreter and the code
// generated for hardware runs (so both compute exactly the same thing).
//
// Every operation is total and free of undefined behaviour: +, -, * and unary - wrap modulo
// 2^64; `/` and `%` by 0 give 0 (and INT64_MIN / -1 wraps); shifts take the count modulo 64;
// comparisons and logical operators give 0 or 1. Complexity: O(1).
#pragma once

#include <cstdint>

namespace stealcheck::litmus::arith {

using value = std::int64_t;
using uvalue = std::uint64_t;

constexpr value wrap(uvalue u) noexcept {
  return static_cast<value>(u);
}
constexpr value add(value a, value b) noexcept {
  return wrap(static_cast<uvalue>(a) + static_cast<uvalue>(b));
}
constexpr value sub(value a, value b) noexcept {
  return wrap(static_cast<uvalue>(a) - static_cast<uvalue>(b));
}
constexpr value mul(value a, value b) noexcept {
  return wrap(static_cast<uvalue>(a) * static_cast<uvalue>(b));
}
constexpr value neg(value a) noexcept {
  return wrap(0 - static_cast<uvalue>(a));
}
constexpr value div(value a, value b) noexcept {
  if (b == 0) return 0;
  if (b == -1) return neg(a);
  return a / b;
}
constexpr value mod(value a, value b) noexcept {
  if (b == 0 || b == -1) return 0;
  return a % b;
}
constexpr value shl(value a, value b) noexcept {
  return wrap(static_cast<uvalue>(a) << (b & 63));
}
constexpr value shr(value a, value b) noexcept {
  // Arithmetic shift right, written without relying on implementation-defined behaviour.
  const uvalue u = static_cast<uvalue>(a) >> (b & 63);
  const bool negative = a < 0 && (b & 63) != 0;
  return wrap(negative ? u | ~(~uvalue{0} >> (b & 63)) : u);
}
constexpr value truth(bool b) noexcept {
  return b ? 1 : 0;
}

}  // namespace stealcheck::litmus::arith
// SPDX-License-Identifier: Apache-2.0
