// stress/fuzz_campaign.cpp: the bound and the sampler of a fuzzed scenario, the --model option,
// the --site and --steal-from-thieves checks (fuzz_campaign.hpp).
#include "stealcheck/detail/stress/fuzz_campaign.hpp"

#include <fmt/format.h>

#include <string>
#include <variant>
#include <vector>

#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/stress/lin_model.hpp"

namespace stealcheck::stress::fuzz {

std::uint32_t events_bound(const lincheck::scenario& s) {
  std::size_t longest = s.prefix.size() + s.owner.size();
  for (const auto& t : s.thieves)
    longest = std::max(longest, t.size());
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(model::max_events_cap, std::max<std::size_t>(1000, 64 * longest + 64)));
}

model::options::sampler sampler_for(const std::string& strategy, std::uint64_t seed,
                                    std::size_t steps) {
  if (strategy == "random") return model::options::sampler::random;
  if (strategy == "pct") return model::options::sampler::pct;
  if (strategy == "tree") return model::options::sampler::tree;
  if (strategy == "greybox")
    return seed % 3 == 0 || steps > greybox_pct_above ? model::options::sampler::pct
           : seed % 3 == 1                            ? model::options::sampler::random
                                                      : model::options::sampler::tree;
  throw harness::usage_error(
      fmt::format("--strategy: '{}' is not a strategy (greybox, random, pct, tree)", strategy));
}

drawn_bug sample_client(const std::function<void(model::client&)>& body, model::memory_model m,
                        const std::vector<model::site_override>& sites, const std::string& strategy,
                        std::uint64_t executions, std::uint64_t seed, std::uint64_t& count,
                        const std::function<void(const model::graph&)>& each) {
  model::options opt;
  opt.model = m;
  opt.sites = sites;
  // greybox draws a client by the tree walk: a client is small, and a walk of its tree takes
  // its rare branches far more often than forward sampling does
  opt.sample = {
      executions, seed,
      strategy == "greybox" ? model::options::sampler::tree : sampler_for(strategy, seed)};
  if (each)
    opt.on_complete = [&each](const model::graph& g, const model::consistency_checker&) {
      each(g);
    };
  const model::result r = model::explore(opt, body);
  count += r.executions();
  return r.bug ? drawn_bug{lincheck::bug_text(*r.bug), r.bug->failure} : drawn_bug{};
}

std::uint64_t event_count(const model::graph& g) {
  return g.event_count();
}

model::memory_model model_named(const std::string& name) {
  if (name == "rc11") return model::memory_model::rc11;
  if (name == "sc") return model::memory_model::sc;
  throw harness::usage_error(fmt::format("--model: '{}' is neither rc11 nor sc", name));
}

std::vector<model::site_override> checked_options(const std::vector<std::string>& texts,
                                                  bool steal_from_thieves, const variant_info& info,
                                                  const std::string& variant) {
  std::vector<model::site_override> out;
  for (const std::string& t : texts) {
    auto r = model::parse_site_override(t, info.sites, variant);
    if (const auto* e = std::get_if<std::string>(&r)) throw harness::usage_error(*e);
    out.push_back(std::get<model::site_override>(std::move(r)));
  }
  if (steal_from_thieves && !info.batch_steal)
    throw harness::usage_error(fmt::format(
        "--steal-from-thieves: {}'s thieves steal no batches, so no thief has a deque to steal "
        "from",
        variant));
  return out;
}

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
