// stealcheck verify [variants...] [--include-known-bad] [--json FILE] [--seed S] [--quick]
//
// Runs every checker (tools/checkers.cpp) on every selected variant and prints a table.
// Exit 0 iff every correct variant passes every checker and every known-bad variant included
// is caught by at least one checker (reported as an expected failure).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "deques/registry.hpp"
#include "tools/commands.hpp"
#include "tools/verify.hpp"

namespace stealcheck::tools {
namespace {

struct verify_args {
  std::vector<std::string> variants;
  bool include_known_bad = false;
  bool quick = false;
  std::string json_file;
  std::uint64_t seed = 1;
};

struct row {
  variant_info info;
  std::vector<check_cell> cells;
  bool caught() const {
    for (const auto& c : cells) {
      if (c.verdict == cell_verdict::fail) return true;
    }
    return false;
  }
  bool ok() const { return info.known_bad ? caught() : !caught(); }
};

std::vector<variant_info> select(const verify_args& a) {
  std::vector<variant_info> out;
  for (const auto& name : a.variants)
    require_variant(name);
  for_each_variant([&](auto, const variant_info& v) {
    const bool named = std::find(a.variants.begin(), a.variants.end(), v.name) != a.variants.end();
    if (a.variants.empty() ? (!v.known_bad || a.include_known_bad) : named) out.push_back(v);
  });
  return out;
}

std::string cell_text(const check_cell& c) {
  switch (c.verdict) {
    case cell_verdict::pass:
      return fmt::format("pass ({}, {:.1f}s)", c.detail, c.seconds);
    case cell_verdict::fail:
      return fmt::format("FAIL ({:.1f}s)", c.seconds);
    case cell_verdict::skipped:
      return fmt::format("- ({})", c.detail);
  }
  return "?";
}

std::string row_verdict(const row& r) {
  if (!r.info.known_bad) return r.ok() ? "ok" : "BUG FOUND";
  return r.caught() ? "expected failure: caught" : "KNOWN-BAD NOT CAUGHT";
}

// The first `n` lines of a failure; the rest is one line saying how to see it all.
std::string first_lines(const std::string& text, std::size_t n) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n && pos != std::string::npos; ++i) {
    pos = text.find('\n', pos == 0 ? 0 : pos + 1);
  }
  if (pos == std::string::npos || pos + 1 >= text.size()) return text;
  const auto rest = static_cast<std::size_t>(
      std::count(text.begin() + static_cast<std::ptrdiff_t>(pos), text.end(), '\n'));
  return text.substr(0, pos) + fmt::format("\n  ... ({} more lines: run the replay command)", rest);
}

void print_table(const std::vector<checker>& checkers, const std::vector<row>& rows) {
  std::vector<std::size_t> width;  // one per checker column: the widest cell or header
  for (std::size_t i = 0; i < checkers.size(); ++i) {
    width.push_back(checkers[i].name.size());
    for (const auto& r : rows)
      width[i] = std::max(width[i], cell_text(r.cells[i]).size());
  }
  std::size_t total = 24;
  fmt::print("{:<24}", "variant");
  for (std::size_t i = 0; i < checkers.size(); ++i) {
    fmt::print(" | {:<{}}", checkers[i].name, width[i]);
    total += 3 + width[i];
  }
  fmt::print(" | verdict\n{}\n", std::string(total + 28, '-'));
  for (const auto& r : rows) {
    fmt::print("{:<24}", r.info.name);
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      fmt::print(" | {:<{}}", cell_text(r.cells[i]), width[i]);
    fmt::print(" | {}\n", row_verdict(r));
  }
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto& c = r.cells[i];
      if (c.verdict != cell_verdict::fail) continue;
      fmt::print("\n{} / {}: {}\n", r.info.name, checkers[i].name, first_lines(c.failure, 6));
      if (!c.replay.empty()) fmt::print("  replay: {}\n", c.replay);
    }
  }
}

void write_json(const std::string& file, const std::vector<checker>& checkers,
                const std::vector<row>& rows, const verify_args& a) {
  nlohmann::json j;
  j["seed"] = a.seed;
  for (const auto& r : rows) {
    nlohmann::json jr{{"variant", r.info.name},
                      {"known_bad", r.info.known_bad},
                      {"ok", r.ok()},
                      {"verdict", row_verdict(r)}};
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto& c = r.cells[i];
      jr["checks"][checkers[i].name] = {{"verdict", c.verdict == cell_verdict::pass   ? "pass"
                                                    : c.verdict == cell_verdict::fail ? "fail"
                                                                                      : "skipped"},
                                        {"detail", c.detail},
                                        {"failure", c.failure},
                                        {"replay", c.replay},
                                        {"seconds", c.seconds}};
    }
    j["variants"].push_back(jr);
  }
  std::ofstream out(file);
  if (!out) throw usage_error(fmt::format("cannot write JSON file '{}'", file));
  out << j.dump(2) << '\n';
}

int run_verify(const verify_args& a) {
  const auto variants = select(a);
  const auto checkers = all_checkers();
  verify_options o;
  o.seed = a.seed;
  o.quick = a.quick;
  // progress lines overwrite each other with '\r': only on a terminal, not in a CI log
  o.progress = ::isatty(STDERR_FILENO) == 1;
  std::vector<row> rows;
  for (const auto& v : variants) {
    row r{v, {}};
    for (const auto& c : checkers)
      r.cells.push_back(c.run(v, o));
    rows.push_back(std::move(r));
  }
  if (o.progress) std::fprintf(stderr, "\r%80s\r", "");
  fmt::print("stealcheck verify (seed {}{})\n\n", a.seed, a.quick ? ", quick" : "");
  print_table(checkers, rows);
  bool all_ok = true;
  for (const auto& r : rows)
    all_ok = all_ok && r.ok();
  fmt::print(
      "\n{}\n",
      all_ok
          ? "verify: OK (every correct variant passed; every known-bad variant included was caught)"
          : "verify: FAILED");
  if (!a.json_file.empty()) write_json(a.json_file, checkers, rows, a);
  return all_ok ? 0 : 1;
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<verify_args>();
  auto* cmd = app.add_subcommand("verify", "Run every check on the variants and print a table");
  cmd->add_option("variants", a->variants, "Variants (default: all correct ones)");
  cmd->add_flag("--include-known-bad", a->include_known_bad,
                "Also run the known-bad variants; they must be caught (expected failures)");
  cmd->add_flag("--quick", a->quick, "Smaller bounds (the test suite's smoke run)");
  cmd->add_option("--json", a->json_file, "Also write the results as JSON");
  cmd->add_option("--seed", a->seed, "Seed of the randomized checkers (default 1)");
  cmd->callback([a, &exit_code] { exit_code = run_verify(*a); });
}

}  // namespace stealcheck::tools
