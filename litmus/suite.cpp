// litmus/suite.cpp: running litmus files and reporting (see suite.hpp).
#include "litmus/suite.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "litmus/hw.hpp"
#include "stealcheck/detail/harness/progress.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::litmus {
namespace fs = std::filesystem;

std::vector<std::string> collect_litmus_files(const std::vector<std::string>& paths,
                                              std::vector<std::string>& error) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().extension() == ".litmus")
          found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      error.push_back(p + ": no such file or directory");
    }
  }
  return files;
}

std::variant<test, parse_error> load_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return parse_error{path, {1, 1}, "cannot read the file"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_litmus(text.str(), path);
}

test_report run_test(const test& t, model_kind m, const program_runner& runner) {
  test_report r;
  r.file = t.file;
  r.name = t.name;
  r.model = m;
  r.runner = runner.name();
  const program p = compile(t);
  r.result = runner.run(p, m);
  r.verdict_check = check_expectation(t, m, r.result);
  return r;
}

std::string format_prop(const prop& p) {
  switch (p.k) {
    case prop::kind::atom:
      return (p.thread >= 0 ? std::to_string(p.thread) + ":" : std::string()) + p.name + "=" +
             std::to_string(p.value);
    case prop::kind::not_:
      return "~" + format_prop(p.args[0]);
    case prop::kind::and_:
    case prop::kind::or_: {
      const char* op = p.k == prop::kind::and_ ? " /\\ " : " \\/ ";
      return "(" + format_prop(p.args[0]) + op + format_prop(p.args[1]) + ")";
    }
    case prop::kind::true_:
      return "true";
    case prop::kind::false_:
      return "false";
  }
  return "?";
}

void print_report(std::ostream& out, const test& t, const test_report& r) {
  fmt::print(out, "Test {} ({}) model {} [{}]\n", r.name, r.file, to_string(r.model), r.runner);
  if (!r.result.error.empty()) fmt::print(out, "  error: {}\n", r.result.error);
  fmt::print(out, "  States {}\n", r.result.outcomes.size());
  for (const auto& [o, n] : r.result.outcomes)
    fmt::print(out, "  {} {:<40} ({} exec{})\n", satisfies(t, o) ? '*' : ' ', format_outcome(t, o),
               n, n == 1 ? "" : "s");
  const check& c = r.verdict_check;
  fmt::print(out, "  Condition {} {}: {}; {} executions{}\n", to_string(t.quant),
             format_prop(t.condition), to_string(c.got), r.result.complete,
             r.result.blocked != 0 ? fmt::format(", {} blocked", r.result.blocked) : "");
  if (!c.has_expectation) {
    fmt::print(out, "  no expectation for {}\n", to_string(r.model));
  } else {
    const std::string execs =
        c.expected_execs ? fmt::format(", {} executions", *c.expected_execs) : "";
    fmt::print(out, "  Expected {}{} ({}): {}\n", to_string(c.expected), execs, t.expect.source,
               c.match ? "match" : "MISMATCH");
  }
  if (!c.match)
    fmt::print(out, "MISMATCH {} [{}] {}: {}\n", r.name, to_string(r.model), r.file, c.mismatch);
}

namespace {

nlohmann::json report_json(const test& t, const test_report& r) {
  nlohmann::json states = nlohmann::json::array();
  for (const auto& [o, n] : r.result.outcomes) {
    nlohmann::json vals = nlohmann::json::object();
    for (std::size_t i = 0; i < o.size(); ++i) {
      const observed_var& v = t.observed[i];
      vals[(v.thread >= 0 ? std::to_string(v.thread) + ":" : "") + v.name] = o[i];
    }
    states.push_back({{"values", vals}, {"execs", n}, {"satisfies", satisfies(t, o)}});
  }
  const check& c = r.verdict_check;
  nlohmann::json j = {{"stealcheck_version", harness::version()},
                      {"name", r.name},
                      {"file", r.file},
                      {"model", to_string(r.model)},
                      {"runner", r.runner},
                      {"states", states},
                      {"verdict", to_string(c.got)},
                      {"execs", r.result.complete},
                      {"blocked", r.result.blocked},
                      {"match", c.match}};
  if (c.has_expectation) {
    j["expected"] = {{"verdict", to_string(c.expected)}, {"source", t.expect.source}};
    if (c.expected_execs) j["expected"]["execs"] = *c.expected_execs;
  }
  if (!c.match) j["mismatch"] = c.mismatch;
  if (!r.result.error.empty()) j["error"] = r.result.error;
  return j;
}

/// `reference`, `model` (the model checker, when this build has it), or `auto` (the model
/// checker if present, else the reference).
std::unique_ptr<program_runner> choose_runner(const std::string& name, std::ostream& err) {
  if (name == "reference") return make_reference_runner();
  std::unique_ptr<program_runner> model = make_model_checker_runner();
  if (model) return model;
  if (name == "auto") return make_reference_runner();
  fmt::print(err,
             "litmus: the model checker (models/) is not in this build; use --runner "
             "reference\n");
  return nullptr;
}

}  // namespace

int run_litmus(const litmus_options& opt, std::ostream& out, std::ostream& err) {
  std::vector<std::string> missing;
  const std::vector<std::string> files = collect_litmus_files(opt.paths, missing);
  int code = 0;
  for (const std::string& m : missing)
    fmt::print(err, "{}\n", m), code = 2;
  if (files.empty() && missing.empty()) fmt::print(err, "litmus: no .litmus files given\n");
  std::vector<test> tests;
  for (const std::string& f : files) {
    auto r = load_litmus_file(f);
    if (auto* e = std::get_if<parse_error>(&r)) {
      fmt::print(err, "{}\n", e->str());
      code = 2;
    } else {
      tests.push_back(std::get<test>(std::move(r)));
    }
  }
  if (code != 0) return code;
  if (opt.hw) return run_hardware(tests, opt, out, err);
  const std::unique_ptr<program_runner> runner = choose_runner(opt.runner, err);
  if (!runner) return 2;
  nlohmann::json all = nlohmann::json::array();
  std::size_t match = 0, mismatch = 0, unexpected = 0;
  // On a terminal: the tests run of all (a directory of them takes a while).
  harness::status_line progress("litmus", "runs", opt.models.size() * tests.size());
  for (model_kind m : opt.models)
    for (const test& t : tests) {
      progress.label(t.name);
      const test_report r = run_test(t, m, *runner);
      progress.add();
      progress.print_clear([&] {
        print_report(out, t, r);
        out.flush();
      });
      all.push_back(report_json(t, r));
      (r.verdict_check.match ? match : mismatch) += 1;
      unexpected += r.verdict_check.has_expectation ? 0 : 1;
    }
  progress.stop();
  fmt::print(out, "litmus: {} runs ({} tests), {} match, {} MISMATCH, {} without expectation\n",
             match + mismatch, tests.size(), match, mismatch, unexpected);
  if (!opt.json_file.empty()) {
    std::ofstream j(opt.json_file);
    j << all.dump(2) << "\n";
    if (!j) fmt::print(err, "litmus: cannot write {}\n", opt.json_file);
  }
  return mismatch != 0 ? 1 : 0;
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
