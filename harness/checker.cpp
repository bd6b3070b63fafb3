// harness/checker.cpp: see checker.hpp.
#include "harness/checker.hpp"

namespace stealcheck::harness {

std::string_view verdict_name(cell_verdict v) noexcept {
  switch (v) {
    case cell_verdict::pass:
      return "pass";
    case cell_verdict::fail:
      return "fail";
    case cell_verdict::skipped:
      return "skipped";
  }
  return "?";
}

check_cell run_checker(const checker& c, const variant& v, const verify_options& o) {
  check_cell cell;
  std::size_t ran = 0;
  std::string skipped;
  for (const check_unit& u : c.units(v)) {
    check_cell r = u.run(o);
    cell.seconds += r.seconds;
    if (r.verdict == cell_verdict::skipped) {
      skipped += (skipped.empty() ? "" : "; ") + u.name + ": " + r.detail;
      continue;
    }
    ++ran;
    for (const auto& [key, n] : r.counts)
      cell.counts[key] += n;
    if (r.verdict == cell_verdict::fail) {
      cell.verdict = cell_verdict::fail;
      cell.detail = "failed in " + u.name;
      cell.failure = u.name + ": " + r.failure;
      cell.replay = std::move(r.replay);
      return cell;
    }
  }
  if (ran == 0) {
    cell.detail = skipped.empty() ? "not applicable" : skipped;
    return cell;
  }
  cell.verdict = cell_verdict::pass;
  cell.detail = c.summarize ? c.summarize(ran, cell.counts) : std::to_string(ran) + " units";
  return cell;
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
