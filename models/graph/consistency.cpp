// models/graph/consistency.cpp: the consistency checker of a graph's kept prefix (see
// consistency.hpp).
#include "stealcheck/detail/models/graph/consistency.hpp"

#include <algorithm>

namespace stealcheck::model {

consistency_checker consistency_checker::restricted(const graph& kept) const {
  consistency_checker out(model_);
  hb_clocks& c = out.cache_;
  c.ev.resize(kept.threads.size());
  for (std::size_t t = 0; t < kept.threads.size() && t < cache_.ev.size(); ++t) {
    const std::size_t n = std::min({kept.threads[t].size(), cache_.valid[t], cache_.ev[t].size()});
    c.ev[t].reserve(kept.threads[t].size() + 16);
    c.ev[t].assign(cache_.ev[t].begin(), cache_.ev[t].begin() + static_cast<std::ptrdiff_t>(n));
    c.valid[t] = n;
  }
  c.ranks_valid = cache_.ranks_valid;
  c.rank_epoch = cache_.rank_epoch;
  return out;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
