// litmus/run_model_checker.cpp: the model checker of models/ as a litmus runner.
//
// Compiled only when models/ is in the tree (litmus/CMakeLists.txt). The test's threads are
// model threads spawned by the client's main thread (thread 0), which creates the atomics
// first and reads the final values after joining them: those are events of thread 0, after
// the join, and add no executions (docs/rc11-oracle.md).
#include "litmus/run_model.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"

namespace stealcheck::litmus {
namespace {

explorer_stats explore_with_model_checker(model_kind m, const explorer_client& c) {
  model::options opt;
  opt.model = m == model_kind::rc11 ? model::memory_model::rc11 : model::memory_model::sc;
  // Called from the explorer's leaf, once per consistent complete execution, after the body
  // (and so finish()) of that run has returned.
  opt.on_complete = [&c](const model::graph&, const model::consistency_checker&) { c.commit(); };
  const model::result r = model::explore(opt, [&c](model::client& cl) {
    c.setup();
    for (std::size_t i = 0; i < c.threads; ++i)
      cl.spawn([&c, i] { c.thread_body(i); });
    cl.join_all();
    c.finish();
  });
  explorer_stats s{r.complete, r.blocked, {}};
  if (r.bug)
    s.error =
        std::string(model::error_name(r.bug->kind)) + ": " + r.bug->message + "\n" + r.bug->trace;
  else if (r.limit_reached)
    s.error = "stopped at the execution limit";
  return s;
}

class model_checker_runner final : public program_runner {
 public:
  std::string name() const override { return "model"; }
  run_result run(const program& p, model_kind m) const override {
    return run_on_explorer<model::memory>(p, m, explore_with_model_checker);
  }
};

}  // namespace

std::unique_ptr<program_runner> make_model_checker_runner() {
  return std::make_unique<model_checker_runner>();
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
