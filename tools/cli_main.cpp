// tools/cli_main.cpp: stealcheck::cli_main, the assembly of every component's subcommands and
// checkers (include/stealcheck/cli.hpp).
#include <stealcheck/cli.hpp>
#include <stealcheck/register.hpp>
#include <vector>

#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/models/front/cli.hpp"
#include "stealcheck/detail/models/front/mutate.hpp"
#include "stealcheck/detail/stress/certify.hpp"
#include "stealcheck/detail/stress/cli.hpp"
#include "stealcheck/detail/stress/fuzz.hpp"
#include "tools/variants/builtin.hpp"

namespace stealcheck {
namespace {

// The checkers of `stealcheck verify`, in column order: stress, model (RC11), lincheck, fuzz
// (generated scenarios larger than the model's clients, sampled under RC11).
std::vector<harness::checker> all_checkers() {
  return {stress::checker(), model::checker(), stress::lincheck::checker(),
          stress::fuzz::checker()};
}

}  // namespace

int cli_main(int argc, char** argv, const char* program,
             const std::function<void(CLI::App&, int&)>& more) {
  // a volatile store: the reads of the built-in variants' symbols cannot be optimized away
  [[maybe_unused]] volatile bool linked = tools::link_builtin_variants();
  CLI::App app{"verification, testing and benchmarking for work-stealing deques"};
  app.require_subcommand(1);
  int exit_code = 0;
  harness::add_list_command(app, exit_code);
  stress::add_stress_command(app, exit_code);
  harness::add_verify_command(app, all_checkers(), exit_code);
  stress::lincheck::add_lincheck_command(app, exit_code);
  stress::fuzz::add_fuzz_command(app, exit_code);
  stress::certify::add_certify_command(app, exit_code);
  model::add_model_command(app, exit_code);
  model::add_merge_command(app, exit_code);
  model::add_mutate_command(app, exit_code);
  if (more) more(app, exit_code);
  return harness::run_cli(app, argc, argv, exit_code, program);
}

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
