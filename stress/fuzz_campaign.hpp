// stress/fuzz_campaign.hpp: what `stealcheck fuzz` and its conformance unit share (fuzz.hpp):
// the run's arguments, the runner that draws or explores one scenario, and the campaign that
// hands out rounds (generated, or greybox's mutated corpus entries: greybox.hpp).
// Thread role: a campaign is shared by the run's jobs (it locks); a runner is const.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/variant.hpp"
#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"
#include "stealcheck/detail/models/front/site_override.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"
#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/fuzz.hpp"
#include "stealcheck/detail/stress/greybox.hpp"

namespace stealcheck::stress::fuzz {

struct fuzz_args {
  std::string variant;
  sizes z;
  std::uint64_t executions = 0;  ///< 0: --seconds, or the default budget
  double seconds = 0;
  std::uint64_t per_scenario = 100;
  std::uint64_t seed = 0;
  std::uint64_t scenario_seed = 0;  ///< --scenario-seed: that one scenario only
  bool one_scenario = false;
  std::string scenario_text;  ///< --scenario: this scenario only
  bool exhaustive = false;    ///< --exhaustive: explore --scenario's executions, all of them
  bool minimize = true;
  bool clients = true;      ///< campaigns sample the built-in clients too (--no-clients: not)
  bool keep_going = false;  ///< --keep-going: count the scenarios with a bug, stop at none
  std::string model = "rc11";
  std::string client;
  std::string strategy = "greybox";
  std::string json_file;                        ///< --json: the run and its bug as JSON
  std::string corpus_dir;                       ///< --corpus: the greybox corpus's directory
  unsigned jobs = 1;                            ///< --jobs: campaign threads
  std::vector<std::string> site_texts;          ///< --site NAME=ORDER, as given
  std::vector<model::site_override> overrides;  ///< the same, checked (run_fuzz)
};

/// The most executions an exhaustive exploration of a scenario runs (--exhaustive).
constexpr std::uint64_t exhaustive_cap = 1000000;

/// The event bound of a scenario's threads: room for 64 events per operation of the longest
/// thread (a correct deque's operation takes far fewer; a loop that never returns still hits
/// it).
std::uint32_t events_bound(const lincheck::scenario& s);

/// A generated scenario of more than this many steps is drawn by PCT under greybox: at that
/// size the uniform and tree samplers spend most of their time in the SC axiom's check (a
/// stale sc read re-ranks psc), PCT's reads mostly take the latest write.
constexpr std::size_t greybox_pct_above = 200;

/// The sampler that draws the executions of the scenario of seed `seed` and `steps` steps: the
/// strategy's, or for greybox by the seed modulo 3 PCT, uniform or the tree walk (greybox.hpp;
/// PCT alone above greybox_pct_above steps). Throws harness::usage_error naming an unknown
/// strategy.
model::options::sampler sampler_for(const std::string& strategy, std::uint64_t seed,
                                    std::size_t steps = 0);

/// Of a campaign's rounds, every client_every-th samples a built-in client (each in turn)
/// instead of a generated scenario: the clients hold shapes the generator does not make (a
/// thief that steals from a thief's own deque, size_hint, a deque destroyed under a thief).
constexpr std::uint64_t client_every = 2;
/// A client's round draws 1/client_share of a scenario round's executions (at least one): a
/// client is small and the tree walk shows its bugs within a few dozen executions, so the
/// rounds go through the clients quickly, and the clients take a fifth of the executions.
constexpr std::uint64_t client_share = 4;
inline std::uint64_t client_executions(std::uint64_t per_scenario) {
  return std::max<std::uint64_t>(1, per_scenario / client_share);
}

/// The arguments that repeat a client round of a run with arguments `a`: that client alone,
/// each draw its round's executions.
inline fuzz_args client_round_args(const fuzz_args& a, const model::clients::client_entry& c) {
  fuzz_args with = a;
  with.client = c.name;
  with.per_scenario = client_executions(a.per_scenario);
  return with;
}

/// A bug a run drew: its report (as lincheck::bug_text writes it; "" when none) and its kind
/// (deques/failure.hpp).
struct drawn_bug {
  std::string report;
  std::optional<failure_kind> kind;
  bool empty() const noexcept { return report.empty(); }
};

/// A built-in client sampled `executions` times from `seed` by `strategy`'s sampler (greybox:
/// the tree walk, which takes a small client's rare branches far more often), under
/// `m` with the memory-order overrides `sites`: the report of its first bug (as
/// lincheck::bug_text writes it), or none. Adds the executions to `count`.
/// `each`, when given, sees the graph of every complete execution.
drawn_bug sample_client(const std::function<void(model::client&)>& body, model::memory_model m,
                        const std::vector<model::site_override>& sites, const std::string& strategy,
                        std::uint64_t executions, std::uint64_t seed, std::uint64_t& count,
                        const std::function<void(const model::graph&)>& each = nullptr);

/// The events of g (model::graph::event_count, here where graph.hpp is included).
std::uint64_t event_count(const model::graph& g);

/// The memory model a --model option names (rc11, sc); throws harness::usage_error otherwise.
model::memory_model model_named(const std::string& name);

/// The overrides `texts` (--site NAME=ORDER) name, each checked against the sites of `variant`
/// (`info`); throws harness::usage_error with the line of the first that does not fit. Refuses
/// `steal_from_thieves` (--steal-from-thieves) when the variant's thieves steal no batches.
std::vector<model::site_override> checked_options(const std::vector<std::string>& texts,
                                                  bool steal_from_thieves, const variant_info& info,
                                                  const std::string& variant);

// Runs scenarios of one variant: each drawn `executions` times from a seed, or explored.
class scenario_runner {
 public:
  /// `capacity`: the deque's initial capacity (0: the variant's variant_info::capacity).
  /// `sites`: memory-order overrides (a mutant, as `stealcheck model --site` runs one).
  scenario_runner(const lincheck::binding& b, const variant_info& info, model::memory_model m,
                  std::string strategy, std::int64_t capacity = 0,
                  std::vector<model::site_override> sites = {})
      : binding_(b),
        info_(info),
        model_(m),
        strategy_(std::move(strategy)),
        capacity_(capacity > 0 ? capacity : info.capacity),
        sites_(std::move(sites)) {}
  /// The report of the first bug drawn in `executions` executions of s from `seed` (0
  /// executions: exhaustively, at most exhaustive_cap), or "". Adds the executions to `count`;
  /// `each`, when given, sees the graph of every complete execution.
  drawn_bug failure(const lincheck::scenario& s, std::uint64_t executions, std::uint64_t seed,
                    std::uint64_t& count,
                    const std::function<void(const model::graph&)>& each = nullptr) const {
    model::options opt;
    opt.model = model_;
    opt.sites = sites_;
    opt.sample = {executions, seed, sampler_for(strategy_, seed, lincheck::steps(s))};
    opt.max_events_per_thread = events_bound(s);
    if (executions == 0) opt.max_executions = exhaustive_cap;
    if (each)
      opt.on_complete = [&each](const model::graph& g, const model::consistency_checker&) {
        each(g);
      };
    const auto f = binding_.model(info_.spec, capacity_, opt, &count)(s, seed);
    return f ? drawn_bug{f->report, f->kind} : drawn_bug{};
  }
  /// The same for a built-in client (sample_client, with this runner's model and sites).
  drawn_bug client_failure(const model::clients::client_entry& c, std::uint64_t executions,
                           std::uint64_t seed, std::uint64_t& count,
                           const std::function<void(const model::graph&)>& each = nullptr) const {
    return sample_client(c.run, model_, sites_, strategy_, executions, seed, count, each);
  }

 private:
  const lincheck::binding& binding_;
  const variant_info& info_;
  model::memory_model model_;
  std::string strategy_;
  std::int64_t capacity_;
  std::vector<model::site_override> sites_;
};

/// One round of a campaign: a scenario, or a built-in client, and the seed of its draws.
struct round {
  lincheck::scenario s;
  std::uint64_t seed = 0;
  const model::clients::client_entry* client = nullptr;  ///< a client's round: this one
};

// The rounds of a campaign: each a scenario and its seed. Generated from the seed stream; with
// greybox, mutated from the corpus of scenarios that reached new coverage (greybox.hpp). Every
// client_every-th round samples one of `clients` instead (each in turn, its seeds from a stream
// of their own), when there are any and a.clients.
// Thread role: any; the jobs of one run share it (its stream, coverage and corpus), so with
// one job the rounds are those of the seed, with more they interleave as the jobs go.
class campaign {
 public:
  campaign(const fuzz_args& a, bool batch, std::vector<model::clients::client_entry> clients = {})
      : a_(a),
        batch_(batch),
        clients_(a.clients ? std::move(clients) : std::vector<model::clients::client_entry>{}),
        stream_(a.seed),
        client_stream_(a.seed ^ 0x636c69656e7473ULL),  // "clients"
        pool_(static_cast<std::size_t>(model::max_threads) - 1,
              2 * static_cast<std::size_t>(std::max({a.z.prefix + a.z.ops, a.z.steals, 8})), batch,
              a.z.steal_from_thieves.value_or(true)) {
    if (!a.corpus_dir.empty()) pool_.open(a.corpus_dir);
  }
  bool greybox() const { return a_.strategy == "greybox"; }
  /// The next round.
  round next() {
    const std::lock_guard<std::mutex> lock(m_);
    round r;
    if (!clients_.empty() && ++rounds_ % client_every == 0) {
      r.client = &clients_[(rounds_ / client_every - 1) % clients_.size()];
      r.seed = splitmix64_next(client_stream_);
      return r;
    }
    r.seed = splitmix64_next(stream_);
    const lincheck::scenario fresh = random_scenario(r.seed, a_.z, batch_);
    r.s = greybox() ? pool_.next(stream_, fresh) : fresh;
    return r;
  }
  /// Runs round r with `run` (its executions added to `count`); keeps its scenario when it
  /// reached new coverage. Returns the report of its bug, or "".
  drawn_bug run(const scenario_runner& run, const round& r, std::uint64_t& count) {
    auto tally = [this](const model::graph& g) { events_ += event_count(g); };
    if (r.client != nullptr)
      return run.client_failure(*r.client, client_executions(a_.per_scenario), r.seed, count,
                                tally);
    const lincheck::scenario& s = r.s;
    const std::uint64_t seed = r.seed;
    if (!greybox()) return run.failure(s, a_.per_scenario, seed, count, tally);
    std::size_t fresh = 0;
    drawn_bug found = run.failure(s, a_.per_scenario, seed, count, [&](const model::graph& g) {
      tally(g);
      const std::lock_guard<std::mutex> lock(m_);
      fresh += cov_.add(g);
    });
    const std::lock_guard<std::mutex> lock(m_);
    if (fresh > 0) pool_.add(s);
    return found;
  }
  /// The events of every complete execution run so far (the throughput in events/s).
  std::uint64_t events() const noexcept { return events_.load(); }
  std::size_t coverage_size() const {
    const std::lock_guard<std::mutex> lock(m_);
    return cov_.size();
  }
  std::size_t corpus_size() const {
    const std::lock_guard<std::mutex> lock(m_);
    return pool_.size();
  }

 private:
  const fuzz_args& a_;
  bool batch_;
  std::vector<model::clients::client_entry> clients_;
  mutable std::mutex m_;
  std::uint64_t stream_, client_stream_, rounds_ = 0;
  std::atomic<std::uint64_t> events_{0};
  coverage cov_;
  corpus pool_;
};

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
