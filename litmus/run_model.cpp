// litmus/run_model.cpp: the runners behind `program_runner` (see run_model.hpp).
#include "litmus/run_model.hpp"

#include "litmus/reference.hpp"

namespace stealcheck::litmus {
namespace {

class reference_runner final : public program_runner {
 public:
  std::string name() const override { return "reference"; }
  run_result run(const program& p, model_kind m) const override {
    return enumerate_reference(p, m);
  }
};

}  // namespace

std::unique_ptr<program_runner> make_reference_runner() {
  return std::make_unique<reference_runner>();
}

#if !STEALCHECK_LITMUS_HAVE_MODELS
std::unique_ptr<program_runner> make_model_checker_runner() {
  return nullptr;
}
#endif

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
