// models/divide/divide.cpp: the division of a tree among shards, estimates and balance (see
// divide.hpp).
#include "stealcheck/detail/models/divide/divide.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/models/explore/workers.hpp"

namespace stealcheck::model {

using detail::add_counts;
using detail::counted_run;
using detail::explore_one;
using detail::explore_shared;
using detail::explorer;
using detail::no_counts;
using detail::piece_path;
using detail::quiet_options;
using detail::run_pieces_counting;
using detail::run_threads;
using detail::shared_source;
using detail::with_explorer;

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > ~std::uint64_t{0} - b ? ~std::uint64_t{0} : a + b;
}

// The division of the tree among `workers` shards. Greedy: the piece with the largest
// estimated size is split into its children (the alternatives of its branch point), each
// estimated by random dives, until the largest piece that can still be split is at most
// 1/(granularity * workers) of the estimated total, or there are max_pieces_per_worker *
// workers pieces. The splits come in the same order whatever the number of workers (only where
// they stop depends on it), so the division for more workers refines the one for fewer. Every
// dive's seed comes from its piece's path: the division is the same on every machine (integer
// estimates, no clock). A leaf, or a branch point every one of whose alternatives is a dead
// end, cannot be split.
//
// Knuth's estimator is unbiased but skewed on these trees (most paths weigh little, a few very
// much): few dives per piece miss a large piece's weight and leave it whole. So the dives per
// piece grow with the tree: the root's estimate / dive_scale, between min_dives and max_dives
// (a large tree needs balance most and pays for the dives least).
//
// With the counts of an earlier run (shard_options::counts, holding the root), a node's
// count is its size and only counted nodes are split; their children without a count (too
// deep for the earlier run's counts) are estimated and stay whole. Shards count the nodes down
// to count_below levels under their division's deepest piece (shard_division::counted), so the next
// run can split a piece the estimates left too large that many levels further.
constexpr unsigned root_dives = 256, min_dives = 32, max_dives = 256;
constexpr std::uint64_t dive_scale = 512;
constexpr std::uint64_t granularity = 8;
constexpr std::size_t max_pieces_per_worker = 256;
constexpr std::uint64_t division_seed = 0x73746561;
constexpr std::size_t count_below = 3;

// The nodes a shard writes the counts of (shard_division::counted): every node on the way to its
// pieces and the pieces, and below a piece the children of each node that holds at least
// 1/keep_fraction of the shard's executions. A division for about as many shards splits
// only nodes above 1/(granularity N) of the total, so it never needs a smaller one's
// children; the rest would make the file thousands of times larger.
constexpr std::uint64_t keep_fraction = 64;
bool worth_writing(std::uint64_t parent, std::uint64_t shard_executions) {
  return parent >= shard_executions / keep_fraction;
}

struct piece {
  piece_path path;
  std::uint64_t estimate = 0;  // the mean of its dives' weights
  std::uint32_t children = 0;
  bool counted = false;  // the estimate is a count of an earlier run (shard_options::counts)
};

piece measure(explorer& e, piece_path path, unsigned dives, const node_counts* counts) {
  std::uint64_t stream = division_seed;
  for (const std::uint32_t k : path) {
    stream ^= k + 1;
    splitmix64_next(stream);
  }
  piece out{std::move(path)};
  const auto counted = counts != nullptr ? counts->find(out.path) : node_counts::const_iterator{};
  out.counted = counts != nullptr && counted != counts->end();
  if (out.counted) dives = 1;  // only for the number of children
  std::uint64_t sum = 0;
  for (unsigned k = 0; k < dives; ++k) {
    const detail::dive_sample s = e.dive({out.path, 0}, splitmix64_next(stream));
    sum = saturating_add(sum, saturating_add(s.complete, s.blocked));
    out.children = s.children;
  }
  out.estimate = out.counted ? counted->second : sum / dives;
  return out;
}

std::vector<piece> divide(const options& opt, const std::shared_ptr<const node_counts>& counted,
                          const std::function<void(client&)>& body, std::uint32_t workers) {
  const node_counts* counts = counted != nullptr && counted->contains({}) ? counted.get() : nullptr;
  return with_explorer(quiet_options(opt), body, [&](explorer& e) {
    std::vector<piece> pieces{measure(e, {}, root_dives, counts)};
    const auto dives = static_cast<unsigned>(
        std::clamp<std::uint64_t>(pieces[0].estimate / dive_scale, min_dives, max_dives));
    std::uint64_t total = pieces[0].estimate;
    const std::size_t max_pieces = max_pieces_per_worker * workers;
    // the splittable pieces by estimate, the earlier piece first among equals
    auto later = [&](std::size_t a, std::size_t b) {
      return pieces[a].estimate != pieces[b].estimate ? pieces[a].estimate < pieces[b].estimate
                                                      : a > b;
    };
    auto splittable = [&](const piece& p) { return p.children > 0 && (!counts || p.counted); };
    std::vector<std::size_t> open;
    if (splittable(pieces[0])) open.push_back(0);
    while (!open.empty() && pieces.size() < max_pieces) {
      std::pop_heap(open.begin(), open.end(), later);
      const std::size_t i = open.back();
      const piece parent = pieces[i];
      if (pieces.size() > 1 && parent.estimate <= total / (granularity * workers)) break;
      open.pop_back();
      total -= std::min(total, parent.estimate);
      for (std::uint32_t k = 0; k < parent.children; ++k) {
        piece_path p = parent.path;
        p.push_back(k);
        piece c = measure(e, std::move(p), dives, counts);
        total = saturating_add(total, c.estimate);
        const std::size_t at = k == 0 ? i : pieces.size();
        if (k == 0)
          pieces[i] = std::move(c);
        else
          pieces.push_back(std::move(c));
        if (splittable(pieces[at])) {
          open.push_back(at);
          std::push_heap(open.begin(), open.end(), later);
        }
      }
    }
    std::sort(pieces.begin(), pieces.end(),
              [](const piece& a, const piece& b) { return a.path < b.path; });
    return pieces;
  });
}

// The pieces in the order to assign them: the largest estimate first (longest processing
// time first), the earlier path first among equals.
std::vector<const piece*> largest_first(const std::vector<piece>& pieces) {
  std::vector<const piece*> order;
  order.reserve(pieces.size());
  for (const piece& p : pieces)
    order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const piece* a, const piece* b) { return a->estimate > b->estimate; });
  return order;
}

// The shard of each piece (in the pieces' order): largest first, each to the shard with the
// smallest estimated load so far (the lowest-numbered among equals).
std::vector<std::uint32_t> assign(const std::vector<piece>& pieces, std::uint32_t shards) {
  std::vector<std::uint64_t> load(shards, 0);
  std::vector<std::uint32_t> owner(pieces.size(), 0);
  for (const piece* p : largest_first(pieces)) {
    const auto s =
        static_cast<std::uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[s] = saturating_add(load[s], p->estimate);
    owner[static_cast<std::size_t>(p - pieces.data())] = s;
  }
  return owner;
}

// What a division was (shard_division): its size, its deepest piece and a fingerprint of its
// paths (FNV-1a), which shards compare (stealcheck merge).
void describe(shard_division& r, const std::vector<piece>& pieces) {
  r.pieces = pieces.size();
  std::uint64_t h = 0xcbf29ce484222325;
  auto mix = [&h](std::uint64_t v) {
    h ^= v;
    h *= 0x100000001b3;
  };
  for (const piece& p : pieces) {
    r.depth = std::max(r.depth, p.path.size());
    mix(p.path.size());
    for (const std::uint32_t k : p.path)
      mix(k);
  }
  r.fingerprint = h;
}

// Fixed pieces handed out by ticket (workers may share `next`, each with its own source).
class ticket_source final : public detail::piece_source {
 public:
  ticket_source(const std::vector<const piece_path*>& paths, std::atomic<std::size_t>& next)
      : paths_(paths), next_(next) {}
  bool next(detail::piece& out) override {
    // relaxed: a ticket; the workers share nothing else (each has its own graph and fibers)
    last_ = next_.fetch_add(1, std::memory_order_relaxed);
    if (last_ >= paths_.size()) return false;
    out.path = *paths_[last_];
    out.from = 0;
    return true;
  }
  std::size_t last() const noexcept { return last_; }

 private:
  const std::vector<const piece_path*>& paths_;
  std::atomic<std::size_t>& next_;
  std::size_t last_ = 0;
};

}  // namespace

// The division for s.count workers, and this shard's fixed share of its pieces (assign),
// explored on opt.jobs workers.
shard_result explore_shard(const options& opt, const shard_options& s,
                           const std::function<void(client&)>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  if (s.count <= 1) return {explore(opt, body), {}};
  const std::vector<piece> pieces = divide(opt, s.counts, body, s.count);
  const std::vector<std::uint32_t> owner = assign(pieces, s.count);
  std::deque<detail::piece> mine;
  std::size_t deepest = 0;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    deepest = std::max(deepest, pieces[k].path.size());
    if (owner[k] == s.index) mine.push_back({pieces[k].path, 0});
  }
  const std::size_t count_depth = deepest + count_below;
  std::optional<counted_run> r;
  if (opt.jobs > 1) r = explore_shared(opt, body, mine, count_depth);
  if (!r) {  // one worker: the sequential report of a bug (a rerun calls no on_complete)
    const options one = opt.jobs > 1 ? quiet_options(opt) : opt;
    shared_source source(1, mine);
    r = with_explorer(one, body,
                      [&](explorer& e) { return run_pieces_counting(e, source, count_depth); });
  }
  std::set<piece_path> on_the_way;
  for (const detail::piece& p : mine)
    for (std::size_t k = 0; k <= p.path.size(); ++k)
      on_the_way.emplace(p.path.begin(), p.path.begin() + static_cast<std::ptrdiff_t>(k));
  std::erase_if(r->counted, [&](const auto& node) {
    if (node.first.empty() || on_the_way.contains(node.first)) return false;
    const auto parent = r->counted.find({node.first.begin(), node.first.end() - 1});
    return parent == r->counted.end() || !worth_writing(parent->second, r->run.executions());
  });
  shard_result out{std::move(r->run), {}};
  describe(out.division, pieces);
  out.division.counted = std::move(r->counted);
  out.division.counted_depth = r->counted_depth;
  out.run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

namespace {

// The piece of `pieces` (sorted by path, as divide returns them) whose subtree holds the node
// at `path`: the last one not after it, if it is a prefix of it; pieces.size() if none is (the
// node lies above the pieces, or the division misses it).
std::size_t piece_holding(const std::vector<piece>& pieces, const piece_path& path) {
  const auto at = std::upper_bound(pieces.begin(), pieces.end(), path,
                                   [](const piece_path& p, const piece& q) { return p < q.path; });
  if (at == pieces.begin()) return pieces.size();
  const piece_path& holder = (at - 1)->path;
  const bool prefix =
      holder.size() <= path.size() && std::equal(holder.begin(), holder.end(), path.begin());
  return prefix ? static_cast<std::size_t>(at - 1 - pieces.begin()) : pieces.size();
}

}  // namespace

estimate estimate_exploration(const options& opt, const std::function<void(client&)>& body,
                              std::uint64_t samples, std::uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  options quiet = quiet_options(opt);
  estimate out;
  out.samples = samples;
  out.seed = seed;
  double sum = 0, sum_sq = 0;
  with_explorer(quiet, body, [&](explorer& e) {
    std::uint64_t stream = seed;
    for (std::uint64_t k = 0; k < samples; ++k) {
      const detail::dive_sample s = e.dive(detail::piece{}, splitmix64_next(stream));
      const auto x = static_cast<double>(s.complete) + static_cast<double>(s.blocked);
      sum += x;
      sum_sq += x * x;
    }
    return 0;
  });
  const double n = static_cast<double>(std::max<std::uint64_t>(samples, 1));
  out.executions = sum / n;
  const double var = samples > 1 ? std::max(0.0, (sum_sq - sum * sum / n) / (n - 1)) : 0.0;
  const double half = 1.96 * std::sqrt(var / n);
  out.low = std::max(0.0, out.executions - half);
  out.high = out.executions + half;
  quiet.max_executions = 2000;  // the rate of this machine on this client
  const result timed = explore_one(quiet, body);
  const double per_execution =
      timed.executions() > 0 ? timed.seconds / static_cast<double>(timed.executions()) : 0.0;
  out.seconds = out.executions * per_execution;
  out.seconds_low = out.low * per_execution;
  out.seconds_high = out.high * per_execution;
  out.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

balance measure_balance(const options& opt, const std::function<void(client&)>& body,
                        const std::vector<std::uint32_t>& workers) {
  balance out;
  if (workers.empty()) return out;
  const std::uint32_t most = *std::max_element(workers.begin(), workers.end());
  const std::vector<piece> fine = divide(opt, nullptr, body, most);
  // each piece's executions, on opt.jobs threads claiming the pieces
  const options quiet = quiet_options(opt);
  std::vector<std::uint64_t> count(fine.size(), 0);
  std::vector<const piece_path*> paths;
  std::size_t fine_depth = 0;
  for (const piece& p : fine) {
    paths.push_back(&p.path);
    fine_depth = std::max(fine_depth, p.path.size());
  }
  // every node a division from counts can make a piece of (count_below levels under the
  // deepest counted node, and its children)
  const std::size_t count_depth = fine_depth + count_below + 1;
  std::atomic<std::size_t> next{0};
  std::vector<counted_run> runs(std::max(1u, opt.jobs));
  run_threads(
      static_cast<unsigned>(runs.size()),
      [&](unsigned k) {
        ticket_source source(paths, next);
        runs[k] = with_explorer(quiet, body, [&](explorer& e) {
          return run_pieces_counting(e, source, count_depth,
                                     [&](std::uint64_t n) { count[source.last()] = n; });
        });
      },
      // relaxed: the other threads take no more pieces
      [&] { next.store(paths.size(), std::memory_order_relaxed); });
  counted_run total;
  for (const counted_run& r : runs) {
    add_counts(total, r);
    total.run.bound_hits += r.run.bound_hits;
    if (r.run.bug && !total.run.bug) total.run.bug = r.run.bug;
  }
  out.total = total.run;
  if (out.total.bug || out.total.bound_hits > 0) return out;  // no full count to share out
  const auto executions = static_cast<double>(out.total.executions());
  for (const std::uint32_t n : workers) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<piece> coarse = divide(opt, nullptr, body, n);
    balance_row row;
    row.workers = n;
    row.divide_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    shard_division shape;
    describe(shape, coarse);
    row.pieces = shape.pieces;
    row.depth = shape.depth;
    const std::vector<std::uint32_t> owner = assign(coarse, n);
    std::vector<std::uint64_t> load(n, 0);
    // every fine piece lies below exactly one coarse one
    for (std::size_t f = 0; f < fine.size(); ++f) {
      const std::size_t at = piece_holding(coarse, fine[f].path);
      if (at == coarse.size())
        throw std::logic_error("the division for " + std::to_string(most) +
                               " workers does not refine the one for " + std::to_string(n));
      load[owner[at]] += count[f];
    }
    row.busiest = *std::max_element(load.begin(), load.end());
    row.share = executions > 0 ? static_cast<double>(row.busiest) * n / executions : 1.0;
    // a second run: divided by the counts the shards of this division would have written
    auto counted = std::make_shared<node_counts>();
    for (const auto& [path, c] : total.counted) {
      if (path.size() > row.depth + count_below) continue;
      const std::size_t at = piece_holding(coarse, path);
      const bool below = at != coarse.size() && coarse[at].path.size() < path.size();
      if (below &&
          !worth_writing(total.counted.at({path.begin(), path.end() - 1}), load[owner[at]]))
        continue;
      counted->emplace(path, c);
    }
    const std::vector<piece> by_counts = divide(opt, counted, body, n);
    const std::vector<std::uint32_t> counted_owner = assign(by_counts, n);
    std::fill(load.begin(), load.end(), 0);
    for (std::size_t k = 0; k < by_counts.size(); ++k) {
      if (by_counts[k].path.size() > count_depth)
        throw std::logic_error("a piece of the division from counts lies below the counted nodes");
      const auto c = total.counted.find(by_counts[k].path);
      if (c != total.counted.end()) load[counted_owner[k]] += c->second;
    }
    row.counted_pieces = by_counts.size();
    row.counted_busiest = *std::max_element(load.begin(), load.end());
    row.counted_share =
        executions > 0 ? static_cast<double>(row.counted_busiest) * n / executions : 1.0;
    options lockstep = quiet;
    lockstep.jobs = n;
    const std::optional<counted_run> jobs =
        explore_shared(lockstep, body, {detail::piece{}}, no_counts, &row.rounds);
    if (!jobs || jobs->run.executions() != out.total.executions())
      throw std::logic_error("the lockstep run of " + std::to_string(n) +
                             " jobs did not make the executions of the pieces");
    row.given = jobs->run.pieces;
    row.jobs_share = executions > 0 ? static_cast<double>(row.rounds) * n / executions : 1.0;
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
