// litmus/fuzz/parser_fuzz.cpp: libFuzzer target for the litmus parser.
//
// Property: for any bytes, parse_litmus returns a test or a located error, without crashing,
// hanging or touching memory it should not (built with -fsanitize=fuzzer,address); an error
// position is inside the text (line >= 1, col >= 1); a parsed test compiles to instructions
// whose jumps stay in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = stealcheck::litmus::parse_litmus(text, "fuzz.litmus");
  if (auto* e = std::get_if<stealcheck::litmus::parse_error>(&r)) {
    if (e->pos.line < 1 || e->pos.col < 1 || e->message.empty()) std::abort();
    return 0;
  }
  const auto& t = std::get<stealcheck::litmus::test>(r);
  const stealcheck::litmus::program p = stealcheck::litmus::compile(t);
  for (const auto& code : p.threads)
    for (const auto& in : code)
      if (in.target > code.size()) std::abort();
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
