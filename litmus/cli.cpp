// litmus/cli.cpp: the `stealcheck litmus` subcommand (see cli.hpp).
#include "litmus/cli.hpp"

#include <iostream>
#include <memory>

#include "litmus/suite.hpp"
#include "stealcheck/detail/harness/cli.hpp"

namespace stealcheck::litmus {

void add_litmus_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<litmus_options>();
  auto model = std::make_shared<std::string>("rc11");
  CLI::App* cmd = app.add_subcommand(
      "litmus", "Run herd7-format C litmus tests under a memory model or on the hardware");
  cmd->add_option("paths", opt->paths, ".litmus files or directories (searched recursively)")
      ->required();
  cmd->add_option("--model", *model, "rc11, sc, or both")
      ->check(CLI::IsMember({"rc11", "sc", "both"}));
  cmd->add_option("--runner", opt->runner,
                  "auto (the model checker when linked, else reference), reference, model")
      ->check(CLI::IsMember({"auto", "reference", "model"}));
  cmd->add_flag("--hw", opt->hw, "run natively on the cores (code generated at build time)");
  cmd->add_option("--rounds", opt->rounds, "hardware rounds per test (default 100000)");
  cmd->add_option("--json", opt->json_file, "also write the results as JSON to FILE")
      ->check(harness::output_file());
  cmd->callback([opt, model, &exit_code] {
    opt->models.clear();
    if (*model != "sc") opt->models.push_back(model_kind::rc11);
    if (*model != "rc11") opt->models.push_back(model_kind::sc);
    exit_code = run_litmus(*opt, std::cout, std::cerr);
  });
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
