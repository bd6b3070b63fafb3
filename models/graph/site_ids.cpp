// models/graph/site_ids.cpp: the process-wide site registry (see site_ids.hpp).
#include "stealcheck/detail/models/graph/site_ids.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace stealcheck::model {

namespace {
struct registry {
  std::mutex m;
  std::vector<const site*> by_id{nullptr};  // id 0: no site
  std::unordered_map<const site*, std::uint32_t> ids;
};
registry& the_registry() {
  static registry r;
  return r;
}
}  // namespace

namespace detail {
constinit thread_local site_cache_slot tls_site_cache[site_cache_size];

std::uint32_t register_site(const site& s) {
  registry& r = the_registry();
  std::uint32_t id = 0;
  {
    const std::lock_guard<std::mutex> lock(r.m);
    const auto [it, added] = r.ids.try_emplace(&s, static_cast<std::uint32_t>(r.by_id.size()));
    if (added) r.by_id.push_back(&s);
    id = it->second;
  }
  tls_site_cache[site_slot(&s)] = {&s, id};
  return id;
}
}  // namespace detail

const site* site_at(std::uint32_t id) {
  registry& r = the_registry();
  const std::lock_guard<std::mutex> lock(r.m);
  return id < r.by_id.size() ? r.by_id[id] : nullptr;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
