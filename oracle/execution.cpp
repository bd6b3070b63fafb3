// oracle/execution.cpp: program order of a candidate execution (see execution.hpp).
#include "stealcheck/detail/oracle/execution.hpp"

namespace stealcheck::oracle {

relation program_order(const std::vector<event>& ev) {
  relation sb(ev.size());
  for (std::size_t i = 0; i < ev.size(); ++i)
    for (std::size_t j = 0; j < ev.size(); ++j) {
      const bool init_first = ev[i].thread < 0 && ev[j].thread >= 0;
      const bool same_thread = ev[i].thread >= 0 && ev[i].thread == ev[j].thread && i < j;
      if (init_first || same_thread) sb.set(i, j);
    }
  return sb;
}

}  // namespace stealcheck::oracle
// SPDX-License-Identifier: Apache-2.0
