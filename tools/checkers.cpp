// The columns of `stealcheck verify`, in order. Add a component's checker here.
#include "stress/checker.hpp"
#include "tools/verify.hpp"

namespace stealcheck::tools {

std::vector<checker> all_checkers() {
  return {stress::stress_checker()};
}

}  // namespace stealcheck::tools
