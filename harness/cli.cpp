// harness/cli.cpp: run_cli, `list`, `verify` (see cli.hpp).
#include "stealcheck/detail/harness/cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

namespace stealcheck::harness {

namespace {

// Bad input or a refusing machine: one line, exit 2, after what stdout holds (a verify run's
// finished rows).
int error_line(const char* program, const std::exception& e) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", program, e.what());
  return 2;
}

}  // namespace

int run_cli(CLI::App& app, int argc, char** argv, const int& exit_code, const char* program) {
  set_program_name(program);
  app.set_version_flag("--version", std::string(version()));
  // Every subcommand that can run long draws a status line on a terminal (harness/progress.hpp).
  for (CLI::App* sub : app.get_subcommands({})) {
    sub->add_flag_callback(
        "--progress", [] { set_progress_override(true); },
        "Draw the status line on stderr even when it is not a terminal");
    sub->add_flag_callback(
        "--no-progress", [] { set_progress_override(false); },
        "Never draw the status line (the default off a terminal)");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion&) {
    std::printf("%s %s\n", program, std::string(version()).c_str());
    return 0;
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    return error_line(program, e);
  } catch (const usage_error& e) {
    return error_line(program, e);
  } catch (const environment_error& e) {
    return error_line(program, e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", program, e.what());
    return 3;
  }
  return exit_code;
}

std::uint64_t default_seed() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(
             std::chrono::duration_cast<std::chrono::microseconds>(now).count()) %
         1000000007ULL;
}

// ---- list ------------------------------------------------------------------------------------

namespace {

// "chase_lev::pop.fence=seq_cst", one per broken site ("=?" when no correct variant has it).
std::vector<std::string> fix_texts(const variant& v) {
  std::vector<std::string> out;
  for (const site_fix& f : fixed_at(v))
    out.push_back(
        fmt::format("{}={}", f.broken->name, f.correct != nullptr ? order_name(f.order) : "?"));
  return out;
}

// "fixed at SITE=ORDER, ..." or "fixed in VARIANT: CHANGE" ("VARIANT?" when no correct
// variant of that name is registered); empty when the variant declares neither.
std::string fix_text(const variant& v) {
  const std::vector<std::string> sites = fix_texts(v);
  if (!sites.empty()) return fmt::format("fixed at {}", fmt::join(sites, ", "));
  const code_fix& in = v.info().fixed_in;
  if (!v.info().known_bad || in.variant.empty()) return {};
  return fmt::format("fixed in {}{}: {}", in.variant, fixed_in(v) != nullptr ? "" : "?", in.change);
}

void print_variants() {
  std::size_t name_width = 26;  // the widest variant name, at least 26
  for (const variant* v : variants())
    name_width = std::max(name_width, v->name().size());
  fmt::print("{:<{}} {:<8} {:<14} {}\n", "variant", name_width, "sites", "spec", "summary");
  for (const variant* v : variants()) {
    const variant_info& i = v->info();
    std::string flags;
    if (i.bounded) flags += " [bounded]";
    if (i.batch_steal) flags += " [batch steal]";
    if (i.values == value_support::scalar) flags += " [scalar values]";
    // a known-bad variant is marked whatever its summary says (a user's need not say it)
    const bool marked = !i.known_bad || i.summary.starts_with("KNOWN-BAD");
    const std::string fix = fix_text(*v);
    fmt::print("{:<{}} {:<8} {:<14} {}{}{}{}\n", i.name, name_width, i.sites.size(),
               spec_name(i.spec), marked ? "" : "KNOWN-BAD ", i.summary, flags,
               i.known_bad
                   ? fmt::format(" -- {}{}{}", i.known_bad_reason,
                                 i.must_show.empty() ? std::string()
                                                     : " (must show " + i.must_show.text() + ")",
                                 fix.empty() ? std::string() : " (" + fix + ")")
                   : "");
  }
}

void print_sites(const variant_info& v) {
  fmt::print("memory-order sites of {} ({}):\n", v.name, v.sites.size());
  if (v.sites.empty()) fmt::print("  (none declared)\n");
  for (const site* s : v.sites)
    fmt::print("  {:<40} {:<8} {}\n", s->name, order_name(s->order), s->why);
}

}  // namespace

void add_list_command(CLI::App& app, int& /*exit_code*/) {
  auto* cmd =
      app.add_subcommand("list", "List the deque variants, or one variant's memory-order sites");
  auto sites_of = std::make_shared<std::string>();
  cmd->add_option("--sites", *sites_of,
                  "Print the memory-order sites of this variant with their default orders");
  cmd->callback([sites_of] {
    if (sites_of->empty()) {
      print_variants();
    } else {
      print_sites(require_variant(*sites_of).info());
    }
  });
}

// ---- verify ----------------------------------------------------------------------------------

namespace {

struct verify_args {
  std::vector<std::string> variants;
  bool include_known_bad = false;
  bool quick = false;
  std::string json_file;
  std::uint64_t seed = 1;
  std::string checks_list;          // --checks as given: one comma list
  std::vector<std::string> checks;  // its names (empty: all columns)
};

// The checkers named by --checks, in the table's order; all of them when none is named.
std::vector<checker> select_checks(const std::vector<checker>& all,
                                   const std::vector<std::string>& names) {
  if (names.empty()) return all;
  std::vector<std::string> known;
  known.reserve(all.size());
  for (const auto& c : all)
    known.push_back(c.name);
  for (const auto& n : names) {
    if (std::find(known.begin(), known.end(), n) == known.end())
      throw usage_error(
          fmt::format("unknown check '{}' in --checks (known: {})", n, fmt::join(known, ", ")));
  }
  std::vector<checker> out;
  for (const auto& c : all) {
    if (std::find(names.begin(), names.end(), c.name) != names.end()) out.push_back(c);
  }
  return out;
}

struct row {
  const variant* v;
  std::vector<check_cell> cells;
  bool failed() const {
    return std::any_of(cells.begin(), cells.end(),
                       [](const check_cell& c) { return c.verdict == cell_verdict::fail; });
  }
  // The first cell that shows the failure the known-bad declares (variant_info::must_show; any
  // failure when it declares none), of those whose replay command `replayed_by` accepts when
  // given, or null.
  const check_cell* showing(bool (*replayed_by)(const command_line&) = nullptr) const {
    const failure_set& must = v->info().must_show;
    for (const check_cell& c : cells)
      if (c.verdict == cell_verdict::fail && (must.empty() || (c.kind && must.contains(*c.kind))) &&
          (replayed_by == nullptr || (c.replay && replayed_by(*c.replay))))
        return &c;
    return nullptr;
  }
  bool caught() const { return showing() != nullptr; }
  bool ok() const { return v->info().known_bad ? caught() : !failed(); }
};

std::vector<const variant*> select(const verify_args& a) {
  if (a.variants.empty()) {
    std::vector<const variant*> out;
    for (const variant* v : variants()) {
      if (!v->info().known_bad || a.include_known_bad) out.push_back(v);
    }
    return out;
  }
  std::vector<const variant*> out;
  out.reserve(a.variants.size());
  for (const auto& name : a.variants)
    out.push_back(&require_variant(name));
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

// "data_race", or "?" for a failure of no kind.
std::string kind_text(const check_cell& c) {
  return c.kind ? std::string(failure_name(*c.kind)) : std::string("?");
}

std::string row_verdict(const row& r) {
  if (!r.v->info().known_bad) return r.ok() ? "ok" : "BUG FOUND";
  if (const check_cell* c = r.showing()) return "expected failure: caught (" + kind_text(*c) + ")";
  if (!r.failed()) return "KNOWN-BAD NOT CAUGHT";
  std::vector<std::string> shown;
  for (const check_cell& c : r.cells)
    if (c.verdict == cell_verdict::fail) shown.push_back(kind_text(c));
  return fmt::format("KNOWN-BAD NOT CAUGHT: failed as {}, must show {}", fmt::join(shown, ", "),
                     r.v->info().must_show.text());
}

// A caught known-bad's failure, short: its first line and the lines that say why (a model
// report's "cause:" with the lines under it, a history's "spec:" step), then how to see the
// rest. A report without either keeps its first `n` lines.
std::string why_lines(const std::string& text, std::size_t n) {
  std::vector<std::string> lines;
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  while (!lines.empty() && lines.back().empty())
    lines.pop_back();
  std::vector<std::size_t> keep{0};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].rfind("  spec: ", 0) == 0) keep.push_back(i);
    if (lines[i].rfind("cause: ", 0) != 0) continue;
    keep.push_back(i);
    for (std::size_t j = i + 1; j < lines.size() && lines[j].rfind("  ", 0) == 0; ++j)
      keep.push_back(j);
  }
  if (keep.size() == 1)
    for (std::size_t i = 1; i < std::min(n, lines.size()); ++i)
      keep.push_back(i);
  std::string out;
  for (const std::size_t i : keep)
    out += (out.empty() ? "" : "\n") + lines[i];
  if (keep.size() < lines.size())
    out +=
        fmt::format("\n  ... ({} more lines: run the replay command)", lines.size() - keep.size());
  return out;
}

// The table's column widths: each checker's declared cell width, at least its header's.
struct table_layout {
  std::size_t name_width = 24;  // the widest variant name, at least 24
  std::vector<std::size_t> width;
  table_layout(const std::vector<checker>& checkers, const std::vector<const variant*>& selected) {
    for (const variant* v : selected)
      name_width = std::max(name_width, v->name().size());
    for (const checker& c : checkers)
      width.push_back(std::max(c.name.size(), c.cell_width));
  }
};

void print_header(const std::vector<checker>& checkers, const table_layout& t) {
  std::size_t total = t.name_width;
  fmt::print("{:<{}}", "variant", t.name_width);
  for (std::size_t i = 0; i < checkers.size(); ++i) {
    fmt::print(" | {:<{}}", checkers[i].name, t.width[i]);
    total += 3 + t.width[i];
  }
  fmt::print(" | verdict\n{}\n", std::string(total + 28, '-'));
  std::fflush(stdout);
}

// One row, written as soon as its variant is done, so a run that dies keeps the rows before.
void print_row(const row& r, const table_layout& t) {
  fmt::print("{:<{}}", r.v->name(), t.name_width);
  for (std::size_t i = 0; i < r.cells.size(); ++i)
    fmt::print(" | {:<{}}", cell_text(r.cells[i]), t.width[i]);
  fmt::print(" | {}\n", row_verdict(r));
  std::fflush(stdout);
}

void print_failures(const std::vector<checker>& checkers, const std::vector<row>& rows) {
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto& c = r.cells[i];
      if (c.verdict != cell_verdict::fail) continue;
      // a bug in a correct variant: the whole report (it fits on a screen); a caught
      // known-bad: what failed and why
      fmt::print("\n{} / {} [{}]: {}\n", r.v->name(), checkers[i].name, kind_text(c),
                 r.v->info().known_bad ? why_lines(c.failure, 6) : c.failure);
      if (c.replay) fmt::print("  replay: {}\n", c.replay->str());
    }
    // Where a caught known-bad is fixed, and the run that shows it: the catching run of the
    // model checker or the fuzzer again (a model run whole, its token belongs to the broken
    // code) with the broken sites at their correct orders, or that run or any other catching
    // run on the correct variant that is the same code with the fix.
    const std::string fix = fix_text(*r.v);
    if (!r.v->info().known_bad || r.showing() == nullptr || fix.empty()) continue;
    fmt::print("  {}", fix);
    const std::vector<std::string> sites = fix_texts(*r.v);
    const variant* correct = sites.empty() ? fixed_in(*r.v) : nullptr;
    const check_cell* rerun = r.showing(
        [](const command_line& c) { return c.subcommand == "model" || c.subcommand == "fuzz"; });
    // a fix in the code: any catching run again on the correct variant (a stress run too)
    if (rerun == nullptr && correct != nullptr)
      rerun = r.showing([](const command_line&) { return true; });
    if (rerun != nullptr && (!sites.empty() || correct != nullptr)) {
      command_line fixed = *rerun->replay;
      std::erase_if(fixed.options, [](const auto& o) { return o.first == "--replay"; });
      for (const std::string& f : sites)
        fixed.opt("--site", f);
      if (correct != nullptr) fixed.variant = correct->name();
      fmt::print(" (the same run, fixed: {})", fixed.str());
    }
    fmt::print("\n");
  }
}

void write_json(const std::string& file, const std::vector<checker>& checkers,
                const std::vector<row>& rows, const verify_args& a) {
  nlohmann::json j;
  j["stealcheck_version"] = version();
  j["seed"] = a.seed;
  for (const auto& c : checkers)
    j["checks_run"].push_back(c.name);
  for (const auto& r : rows) {
    nlohmann::json jr{{"variant", r.v->name()},
                      {"known_bad", r.v->info().known_bad},
                      {"ok", r.ok()},
                      {"verdict", row_verdict(r)},
                      {"fixed_at", fix_texts(*r.v)},
                      {"fixed_in", r.v->info().fixed_in.variant.empty()
                                       ? nlohmann::json()
                                       : nlohmann::json{{"variant", r.v->info().fixed_in.variant},
                                                        {"change", r.v->info().fixed_in.change}}}};
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto& c = r.cells[i];
      jr["checks"][checkers[i].name] = {{"verdict", verdict_name(c.verdict)},
                                        {"detail", c.detail},
                                        {"failure", c.failure},
                                        {"kind", c.kind ? failure_name(*c.kind) : ""},
                                        {"replay", c.replay ? c.replay->str() : ""},
                                        {"seconds", c.seconds}};
    }
    j["variants"].push_back(jr);
  }
  std::ofstream out(file);
  if (!out) throw usage_error(fmt::format("cannot write JSON file '{}'", file));
  out << j.dump(2) << '\n';
}

int run_verify(const std::vector<checker>& all_checkers, const verify_args& a) {
  const std::vector<checker> checkers = select_checks(all_checkers, a.checks);
  const auto selected = select(a);
  note_fatal_signals();  // a crash of verify itself names the unit it was running
  verify_options o;
  o.seed = a.seed;
  o.quick = a.quick;
  std::uint64_t units = 0;
  for (const variant* v : selected)
    for (const auto& c : checkers)
      units += c.units(*v).size();
  status_line progress("verify", "checks", units);  // on a terminal only
  o.progress = &progress;
  const table_layout layout(checkers, selected);
  fmt::print(
      "{} verify (seed {}{}{})\n\n", program_name(), a.seed, a.quick ? ", quick" : "",
      a.checks.empty() ? std::string() : ", checks " + fmt::format("{}", fmt::join(a.checks, ",")));
  print_header(checkers, layout);
  std::vector<row> rows;
  for (const variant* v : selected) {
    row r{v, {}};
    for (const auto& c : checkers)
      r.cells.push_back(run_checker(c, *v, o));
    progress.print_clear([&] { print_row(r, layout); });
    rows.push_back(std::move(r));
  }
  print_failures(checkers, rows);
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const row& r) { return r.ok(); });
  fmt::print(
      "\n{}\n",
      all_ok
          ? "verify: OK (every correct variant passed; every known-bad variant included was caught)"
          : "verify: FAILED");
  if (!a.json_file.empty()) write_json(a.json_file, checkers, rows, a);
  return all_ok ? 0 : 1;
}

}  // namespace

void add_verify_command(CLI::App& app, std::vector<checker> checkers, int& exit_code) {
  auto a = std::make_shared<verify_args>();
  auto cs = std::make_shared<std::vector<checker>>(std::move(checkers));
  auto* cmd = app.add_subcommand("verify", "Run every check on the variants and print a table");
  cmd->add_option("variants", a->variants, "Variants (default: all correct ones)");
  cmd->add_flag("--include-known-bad", a->include_known_bad,
                "Also run the known-bad variants; they must be caught (expected failures)");
  cmd->add_flag("--quick", a->quick, "Smaller bounds (the test suite's smoke run)");
  cmd->add_option("--json", a->json_file, "Also write the results as JSON")->check(output_file());
  cmd->add_option("--seed", a->seed, "Seed of the randomized checkers (default 1)")
      ->check(seed_value());
  cmd->add_option("--checks", a->checks_list,
                  "Only these columns, a comma list of the table's checks (default all); a "
                  "known-bad must then be caught by one of them");
  cmd->callback([a, cs, &exit_code] {
    a->checks = a->checks_list.empty() ? std::vector<std::string>{} : split_commas(a->checks_list);
    exit_code = run_verify(*cs, *a);
  });
}

CLI::Validator output_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        namespace fs = std::filesystem;
        if (path.empty()) return "an empty path";
        const fs::path p(path);
        const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
        std::error_code ec;
        if (fs::is_directory(p, ec)) return fmt::format("cannot write '{}': a directory", path);
        if (!fs::is_directory(dir, ec))
          return fmt::format("cannot write '{}': directory '{}' does not exist", path,
                             dir.string());
        const bool exists = fs::exists(p, ec);
        if (::access(exists ? p.c_str() : dir.c_str(), W_OK) != 0)
          return fmt::format("cannot write '{}': {} is not writable", path,
                             exists ? "the file" : "directory '" + dir.string() + "'");
        return std::string();
      },
      "FILE", "output_file");
}

CLI::Validator seed_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
          return c >= '0' && c <= '9';
        });
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        return digits && ec == std::errc() && end == text.data() + text.size()
                   ? std::string()
                   : fmt::format("'{}' is not a seed: an integer from 0 to {}", text,
                                 std::numeric_limits<std::uint64_t>::max());
      },
      "SEED", "seed_value");
}

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t from = 0;;) {
    const std::size_t comma = list.find(',', from);
    out.push_back(list.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) return out;
    from = comma + 1;
  }
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
