// tools/coverage.cpp: stealcheck_model_coverage, the `model` command with the correct built-in
// variants bound to the model checker only (no native instantiation). Built by the coverage
// preset with gcov instrumentation of this translation unit alone, so that the counts of each
// deques/<variant>.hpp line and branch are those of the model clients' executions
// (ci/coverage.sh runs it and writes proofs/<variant>.coverage.md).
#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/harness/cli.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/bind.hpp"
#include "stealcheck/detail/models/front/cli.hpp"

namespace {

template <template <class, class> class D>
bool register_model_only(const stealcheck::variant_info& info) {
  stealcheck::harness::variant v(info);
  stealcheck::model::bind<D>(v);
  return stealcheck::harness::add_variant(std::move(v));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace stealcheck;
  register_model_only<chase_lev_tag::deque>(builtin::chase_lev);
  register_model_only<steal_half_tag::deque>(builtin::steal_half);
  register_model_only<split_tag::deque>(builtin::split);
  register_model_only<locked_tag::deque>(builtin::locked);
  register_model_only<the_tag::deque>(builtin::the);
  register_model_only<abp_tag::deque>(builtin::abp);
  register_model_only<fjp_tag::deque>(builtin::fjp);
  register_model_only<dotnet_tag::deque>(builtin::dotnet);
  register_model_only<idempotent_tag::deque>(builtin::idempotent);
  register_model_only<tokio_tag::deque>(builtin::tokio);
  register_model_only<tokio_lifo_tag::deque>(builtin::tokio_lifo);
  register_model_only<go_tag::deque>(builtin::go);
  register_model_only<bwos_tag::deque>(builtin::bwos);
  register_model_only<crossbeam_lifo_tag::deque>(builtin::crossbeam_lifo);
  register_model_only<crossbeam_fifo_tag::deque>(builtin::crossbeam_fifo);
  CLI::App app{"the model command over the built-in variants, for coverage of their sources"};
  app.require_subcommand(1);
  int exit_code = 0;
  model::add_model_command(app, exit_code);
  return harness::run_cli(app, argc, argv, exit_code, "stealcheck_model_coverage");
}
// SPDX-License-Identifier: Apache-2.0
