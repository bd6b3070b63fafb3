// litmus/suite.hpp: running litmus files and reporting, as `stealcheck litmus` does.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "litmus/outcome.hpp"
#include "litmus/parser.hpp"
#include "litmus/run_model.hpp"

namespace stealcheck::litmus {

/// The `.litmus` files named by `paths`: files as given, directories searched recursively,
/// sorted. Errors: a path that does not exist is reported in `error` (and skipped).
std::vector<std::string> collect_litmus_files(const std::vector<std::string>& paths,
                                              std::vector<std::string>& error);

/// Reads and parses one file. Errors: unreadable file or parse error, as a parse_error.
std::variant<test, parse_error> load_litmus_file(const std::string& path);

/// One test run under one model.
struct test_report {
  std::string file;
  std::string name;
  model_kind model = model_kind::rc11;
  std::string runner;
  run_result result;
  check verdict_check;
};

/// Runs `t` under `m` with `runner` and checks the expectation.
test_report run_test(const test& t, model_kind m, const program_runner& runner);

/// Prints one report: outcomes (herd-style states, `*` marking those satisfying the
/// condition), the verdict, the execution count, the expectation and a match/MISMATCH line.
void print_report(std::ostream& out, const test& t, const test_report& r);

/// `prop` as litmus text, e.g. `0:r0=0 /\ 1:r0=0`.
std::string format_prop(const prop& p);

struct litmus_options {
  std::vector<std::string> paths;
  std::vector<model_kind> models{model_kind::rc11};
  std::string runner = "auto";  ///< auto | reference | model
  std::string json_file;        ///< empty: no JSON
  bool hw = false;
  std::uint64_t rounds = 0;  ///< hardware rounds per test (0: the default)
};

/// The whole `stealcheck litmus` command. Returns the exit code: 0 all match, 1 a mismatch (or
/// a forbidden outcome seen on hardware), 2 a malformed or unreadable file (or bad usage).
int run_litmus(const litmus_options& opt, std::ostream& out, std::ostream& err);

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
