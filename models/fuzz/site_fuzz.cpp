// models/fuzz/site_fuzz.cpp: libFuzzer target for `--site NAME=ORDER` (front/site_override.hpp).
//
// Property: for any text, checked against chase_lev's sites, parse_site_override returns an
// override of a site chase_lev has with an order that site's kind accepts, or one error line
// (non-empty, no newline: the CLI prints it as its one line before exit 2); no crash, no
// undefined behaviour (built with -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/models/front/site_override.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stealcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto sites = sites_of<chase_lev_sites>();
  const auto r = model::parse_site_override(text, sites, "chase_lev");
  if (const auto* e = std::get_if<std::string>(&r)) {
    if (e->empty() || e->find('\n') != std::string::npos) std::abort();
    return 0;
  }
  const auto& [name, order] = std::get<model::site_override>(r);
  const site* found = nullptr;
  for (const site* s : sites)
    if (s->name == name) found = s;
  if (found == nullptr || !model::order_fits(found->kind, order)) std::abort();
  if (text != name + "=" + std::string(text.substr(text.find('=') + 1))) std::abort();
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
