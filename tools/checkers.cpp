// The columns of `stealcheck verify`, in order. Add a component's checker here.
#include "models/cli.hpp"
#include "stress/checker.hpp"
#include "tools/verify.hpp"

namespace stealcheck::tools {

std::vector<checker> all_checkers() {
  return {stress::stress_checker(), model_checker(), stress::lincheck_checker()};
}

}  // namespace stealcheck::tools
