// stealcheck: verification, testing and benchmarking for work-stealing deques.
// Exit codes: 0 success, 1 a check failed (a bug was found), 2 bad input.
#include "bench/cli.hpp"
#include "litmus/cli.hpp"
#include "models/cli.hpp"
#include "tools/cli_main.hpp"
#include "tools/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"stealcheck: verification, testing and benchmarking for work-stealing deques"};
  app.require_subcommand(1);
  int exit_code = 0;
  stealcheck::tools::add_list_command(app, exit_code);
  stealcheck::tools::add_stress_command(app, exit_code);
  stealcheck::tools::add_verify_command(app, exit_code);
  stealcheck::tools::add_lincheck_command(app, exit_code);
  stealcheck::litmus::add_litmus_command(app, exit_code);
  stealcheck::model::add_model_command(app, exit_code);
  stealcheck::bench::add_bench_command(app, exit_code);
  return stealcheck::tools::run_cli(app, argc, argv, exit_code, "stealcheck");
}
