// models/psc.cpp: acyclicity of RC11's psc (see psc.hpp).
#include "models/psc.hpp"

namespace stealcheck::model {

bool psc_acyclic(const graph& g, const hb_clocks& c) {
  return psc_acyclic_reference(g, c);
}

}  // namespace stealcheck::model
