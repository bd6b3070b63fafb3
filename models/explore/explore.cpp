// models/explore/explore.cpp: the test API (see explore.hpp).
#include "models/explore/explore.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "harness/random.hpp"
#include "models/explore/trust.hpp"
#include "models/graph/hb.hpp"
#include "models/runtime/crash.hpp"
#include "models/runtime/runtime.hpp"
#include "models/runtime/watchdog.hpp"

namespace stealcheck::model {

namespace {
detail::execution& ex() {
  detail::execution* e = detail::current_execution();
  if (e == nullptr) std::abort();
  return *e;
}

// The execution, for a client call that reads the run's graph or judges it: a fiber running
// on in teardown (execution::unwind_if_due) unwinds here, as the graph no longer matches it.
detail::execution& judging() {
  detail::execution& x = ex();
  if (x.tearing_down()) x.unwind_if_due();
  return x;
}
}  // namespace

std::size_t client::spawn(std::function<void()> f) {
  detail::execution& x = ex();
  if (x.current() != 0 && !x.tearing_down())
    x.fail(error_kind::assertion,
           "only the client's main thread may spawn (thread numbers must be deterministic)");
  const std::size_t t = x.spawn(std::move(f));
  if (spawned_.size() < spawned_.capacity()) {  // (more only while tearing down: x.spawn fails)
    spawned_.push_back(t);
    joined_.push_back(false);
  }
  return t;
}

void client::join(std::size_t t) {
  detail::execution& x = ex();
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (spawned_[k] == t) joined_[k] = true;
  if (x.tearing_down()) return;
  detail::pending_op op;
  op.kind = detail::op_kind::join;
  op.aux = static_cast<std::uint32_t>(t);
  x.post(op);
  // A join is never made from a destructor: a teardown that resumed it unwinds right here,
  // not at the next operation, which may be the first of a destructor that makes several (a
  // deque destroyed at the end of the client's scope), where throwing would terminate.
  x.unwind_if_due();
}

void client::join_all() {
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (!joined_[k]) join(spawned_[k]);
}

void client::describe_operations(std::vector<operation_span> ops) {
  detail::execution& x = ex();
  if (!x.tearing_down()) x.operations = std::move(ops);
}

void client::check(bool ok, std::string_view what, source_loc src) {
  if (ok) return;
  detail::execution& x = judging();
  if (x.tearing_down()) return;
  const char* f = src.file != nullptr ? std::strrchr(src.file, '/') : nullptr;
  // the location ends the first line: a multi-line `what` goes on below it
  const std::size_t eol = std::min(what.find('\n'), what.size());
  x.fail(error_kind::assertion, "check failed: " + std::string(what.substr(0, eol)) + " (" +
                                    (f != nullptr ? f + 1 : "?") + ":" + std::to_string(src.line) +
                                    ", thread " + std::to_string(x.current()) + ")" +
                                    std::string(what.substr(eol)));
}

void client::operation(const char* name) {
  ex().me().operation = name;
}

event_id client::position() const {
  detail::execution& x = ex();
  return {static_cast<std::int32_t>(x.current()), static_cast<std::int32_t>(x.me().cursor)};
}

bool client::happens_before(event_id a, event_id b) const {
  detail::execution& x = judging();
  const hb_clocks* c = x.checker.hb(x.g);
  if (c == nullptr || !x.g.contains(a) || !x.g.contains(b)) return false;
  return c->hb(a, b);
}

const hb_clocks& client::happens_before_relation() const {
  detail::execution& x = judging();
  const hb_clocks* c = x.checker.hb(x.g);
  if (c == nullptr)  // only a graph with a po ∪ rf cycle, which is never run
    x.fail(error_kind::nondeterminism, "happens-before asked of a cyclic execution graph");
  return *c;
}

namespace {

// For its lifetime, also when the exploration throws: x is the calling OS thread's
// execution, with the crash report installed and, unless it is a token replay, watched by the
// stall watchdog (a slot left active would be reported as a stall later).
class exploring {
 public:
  exploring(detail::execution& x, const options& opt) : x_(x), outer_(detail::current_execution()) {
    detail::install_crash_report();
    if (opt.replay.empty() && opt.stall_seconds != 0)
      x.watch(detail::acquire_progress_slot(opt.stall_seconds));
    detail::set_current_execution(&x);
  }
  ~exploring() {
    detail::release_progress_slot(x_.watched());
    x_.watch(nullptr);  // ~execution's teardown runs after the exploration
    detail::set_current_execution(outer_);
  }
  exploring(const exploring&) = delete;
  exploring& operator=(const exploring&) = delete;

 private:
  detail::execution& x_;
  detail::execution* outer_;
};

// One explorer on the calling OS thread (its own execution: fibers and graph), handed to f.
template <class F>
auto with_explorer(const options& opt, const std::function<void(client&)>& body, F&& f) {
  detail::run_config cfg;
  cfg.model = opt.model;
  cfg.max_events_per_thread = std::min(opt.max_events_per_thread, hb_clocks::max_events);
  cfg.sites = opt.sites;
  detail::execution x(cfg, [&body] {
    client c;
    body(c);
    c.join_all();
  });
  const exploring scope(x, opt);
  detail::explorer e(opt, x);
  return f(e);
}

result explore_one(const options& opt, const std::function<void(client&)>& body) {
  return with_explorer(opt, body, [](detail::explorer& e) { return e.run(); });
}

// The options of the runs that only measure (dives): no on_complete calls, no limit.
options quiet_options(const options& opt) {
  options quiet = opt;
  quiet.on_complete = nullptr;
  quiet.max_executions = 0;
  quiet.replay.clear();
  quiet.jobs = 1;
  quiet.shard_count = 1;
  return quiet;
}

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
// With the counts of an earlier run (options::division_counts, holding the root), a node's
// count is its size and only counted nodes are split; their children without a count (too
// deep for the earlier run's counts) are estimated and stay whole. Shards count the nodes down
// to count_below levels under their division's deepest piece (result::counted), so the next
// run can split a piece the estimates left too large that many levels further.
constexpr unsigned root_dives = 256, min_dives = 32, max_dives = 256;
constexpr std::uint64_t dive_scale = 512;
constexpr std::uint64_t granularity = 8;
constexpr std::size_t max_pieces_per_worker = 256;
constexpr std::uint64_t division_seed = 0x73746561;
constexpr std::size_t count_below = 3;

// The nodes a shard writes the counts of (result::counted): every node on the way to its
// pieces and the pieces, and below a piece the children of each node that holds at least
// 1/keep_fraction of the shard's executions. A division for about as many shards splits
// only nodes above 1/(granularity N) of the total, so it never needs a smaller one's
// children; the rest would make the file thousands of times larger.
constexpr std::uint64_t keep_fraction = 64;
bool worth_writing(std::uint64_t parent, std::uint64_t shard_executions) {
  return parent >= shard_executions / keep_fraction;
}

struct piece {
  detail::piece_path path;
  std::uint64_t estimate = 0;  // the mean of its dives' weights
  std::uint32_t children = 0;
  bool counted = false;  // the estimate is a count of an earlier run (options::division_counts)
};

piece measure(detail::explorer& e, detail::piece_path path, unsigned dives,
              const node_counts* counts) {
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

std::vector<piece> divide(const options& opt, const std::function<void(client&)>& body,
                          std::uint32_t workers) {
  const node_counts* counts = opt.division_counts != nullptr && opt.division_counts->contains({})
                                  ? opt.division_counts.get()
                                  : nullptr;
  return with_explorer(quiet_options(opt), body, [&](detail::explorer& e) {
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
        detail::piece_path p = parent.path;
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

// What a division was (result::subtrees, depth and division): its size, its deepest piece and
// a fingerprint of its paths (FNV-1a), which shards compare (stealcheck merge).
void describe(result& r, const std::vector<piece>& pieces) {
  r.subtrees = pieces.size();
  std::uint64_t h = 0xcbf29ce484222325;
  auto mix = [&h](std::uint64_t v) {
    h ^= v;
    h *= 0x100000001b3;
  };
  for (const piece& p : pieces) {
    r.cut = std::max(r.cut, p.path.size());
    mix(p.path.size());
    for (const std::uint32_t k : p.path)
      mix(k);
  }
  r.division = h;
}

// Fixed pieces handed out by ticket (workers may share `next`, each with its own source).
class ticket_source final : public detail::piece_source {
 public:
  ticket_source(const std::vector<const detail::piece_path*>& paths, std::atomic<std::size_t>& next)
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
  const std::vector<const detail::piece_path*>& paths_;
  std::atomic<std::size_t>& next_;
  std::size_t last_ = 0;
};

// The pieces of a parallel exploration: at first `start` (the whole tree, or a shard's share);
// then what busy workers give away while another waits (explorer::give_away). The run ends
// when every worker waits, or at once when one stops with a bug or a bound hit (abort).
// In lockstep (measure_balance), every worker exploring a piece waits after each execution
// until each of them has made one: a round ("tick") is one execution per busy worker, as if
// all ran at one speed, and the number of rounds is when the last would finish.
class shared_source final : public detail::piece_source {
 public:
  shared_source(unsigned workers, std::deque<detail::piece> start, bool lockstep = false)
      : workers_(workers), lockstep_(lockstep), queue_(std::move(start)) {
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  bool next(detail::piece& out) override {
    std::unique_lock lock(mutex_);
    while (queue_.empty() && !stop_) {
      if (++idle_ == workers_) {  // nobody explores, nothing is queued: done
        stop_ = true;
        ready_.notify_all();
        break;
      }
      if (round_complete()) next_round();
      waiting_.store(idle_, std::memory_order_relaxed);
      ready_.wait(lock, [&] { return !queue_.empty() || stop_; });
      waiting_.store(--idle_, std::memory_order_relaxed);
    }
    if (stop_) return false;
    out = std::move(queue_.front());
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_relaxed);
    ++handed_;
    ++busy_;
    return true;
  }
  // relaxed: hints read at every branch point; the queue itself is under the mutex
  bool hungry() const noexcept override {
    return waiting_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed);
  }
  bool stopped() const noexcept override { return aborted_.load(std::memory_order_relaxed); }
  void give(detail::piece p) override {
    const std::scoped_lock lock(mutex_);
    queue_.push_back(std::move(p));
    queued_.store(queue_.size(), std::memory_order_relaxed);
    ready_.notify_all();
  }
  void executed() override {
    if (!lockstep_) return;
    std::unique_lock lock(mutex_);
    const std::uint64_t round = rounds_;
    ++arrived_;
    if (round_complete()) {
      next_round();
    } else {
      ready_.wait(lock, [&] { return rounds_ != round || stop_; });
    }
  }
  void finished() override {
    const std::scoped_lock lock(mutex_);
    --busy_;
    if (round_complete()) next_round();
  }
  void abort() {
    const std::scoped_lock lock(mutex_);
    stop_ = true;
    aborted_.store(true, std::memory_order_relaxed);
    ready_.notify_all();
  }
  std::uint64_t handed() const {
    const std::scoped_lock lock(mutex_);
    return handed_;
  }
  std::uint64_t rounds() const {
    const std::scoped_lock lock(mutex_);
    return rounds_;
  }

 private:
  // In lockstep, a round ends when every busy worker has made its execution and every other
  // worker waits for work, none of it queued: a worker starting up, between pieces or not yet
  // woken for a piece given to it holds the round back, so the rounds do not depend on how
  // the OS schedules the threads. (Under the mutex.)
  bool round_complete() const {
    return lockstep_ && arrived_ > 0 && arrived_ >= busy_ && idle_ + busy_ >= workers_ &&
           (queue_.empty() || idle_ == 0);
  }
  void next_round() {  // (under the mutex)
    arrived_ = 0;
    ++rounds_;
    ready_.notify_all();
  }

  const unsigned workers_;
  const bool lockstep_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<detail::piece> queue_;
  unsigned idle_ = 0, busy_ = 0, arrived_ = 0;
  bool stop_ = false;
  std::uint64_t handed_ = 0, rounds_ = 0;
  std::atomic<unsigned> waiting_{0};
  std::atomic<std::size_t> queued_{0};
  std::atomic<bool> aborted_{false};
};

// Runs `jobs` OS threads, thread k calling work(k), and rethrows the first exception one
// of them threw, after calling stop() so that the others end (they may wait for work).
template <class Work, class Stop>
void run_threads(unsigned jobs, Work&& work, Stop&& stop) {
  std::vector<std::exception_ptr> errors(jobs);
  {
    std::vector<std::jthread> threads;
    for (unsigned k = 0; k < jobs; ++k)
      threads.emplace_back([&, k] {
        try {
          work(k);
        } catch (...) {
          errors[k] = std::current_exception();
          stop();
        }
      });
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

constexpr std::size_t no_counts = ~std::size_t{0};

// The pieces `source` hands out, explored by e, counting each node's executions down to
// count_depth (result::counted) unless it is no_counts.
result run_pieces_counting(detail::explorer& e, detail::piece_source& source,
                           std::size_t count_depth,
                           const std::function<void(std::uint64_t)>& done = nullptr) {
  if (count_depth != no_counts) e.count_nodes(count_depth);
  result r = e.run_pieces(source, done);
  if (count_depth != no_counts) {
    r.counted = e.node_counts();
    r.counted_depth = count_depth;
  }
  return r;
}

// Runs opt.jobs workers on `source` (each its own explorer on its own OS thread) and returns
// their results; a worker that stops with a bug or a bound hit stops the others.
std::vector<result> run_shared(const options& opt, const std::function<void(client&)>& body,
                               shared_source& source, std::size_t count_depth) {
  std::vector<result> runs(opt.jobs);
  run_threads(
      opt.jobs,
      [&](unsigned k) {
        runs[k] = with_explorer(opt, body, [&](detail::explorer& e) {
          return run_pieces_counting(e, source, count_depth);
        });
        if (runs[k].bug || runs[k].bound_hits > 0) source.abort();
      },
      [&] { source.abort(); });
  return runs;
}

// Adds one worker's counts (complete, blocked and why, and per node) to `total`.
void add_counts(result& total, const result& w) {
  total.complete += w.complete;
  total.blocked += w.blocked;
  total.blocked_mutex += w.blocked_mutex;
  total.blocked_assume += w.blocked_assume;
  for (const auto& [path, n] : w.counted)
    total.counted[path] += n;
  total.counted_depth = std::max(total.counted_depth, w.counted_depth);
}

// The pieces `start` explored on opt.jobs workers that give each other work (shared_source),
// their results added up; nullopt when a worker stopped with a bug or a bound hit (the
// sequential report depends on the order: the caller explores again on one worker). With
// `rounds`: in lockstep, and the number of rounds is stored there. Nodes are counted down to
// count_depth (run_pieces_counting).
std::optional<result> explore_shared(const options& opt, const std::function<void(client&)>& body,
                                     std::deque<detail::piece> start,
                                     std::size_t count_depth = no_counts,
                                     std::uint64_t* rounds = nullptr) {
  std::mutex complete_mutex;
  options shared = opt;
  if (opt.on_complete)
    shared.on_complete = [&](const graph& g, const consistency_checker& c) {
      std::scoped_lock lock(complete_mutex);
      opt.on_complete(g, c);
    };
  shared_source source(opt.jobs, std::move(start), rounds != nullptr);
  const std::vector<result> runs = run_shared(shared, body, source, count_depth);
  result total;
  for (const result& w : runs) {
    if (w.bug || w.bound_hits > 0) return std::nullopt;
    add_counts(total, w);
    total.busiest_job = std::max(total.busiest_job, w.executions());
  }
  total.subtrees = source.handed();
  if (rounds != nullptr) *rounds = source.rounds();
  return total;
}

// Parallel exploration: opt.jobs workers, one of them starting at the root; a busy worker
// gives away part of its piece whenever another waits. The pieces partition the executions,
// so the counts add up exactly.
result explore_parallel(const options& opt, const std::function<void(client&)>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<result> r = explore_shared(opt, body, {detail::piece{}});
  if (!r) r = explore_one(quiet_options(opt), body);
  r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return *r;
}

// One shard (options::shard_count): the division for shard_count workers, and this shard's
// fixed share of its pieces (assign), explored on opt.jobs workers.
result explore_shard(const options& opt, const std::function<void(client&)>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<piece> pieces = divide(opt, body, opt.shard_count);
  const std::vector<std::uint32_t> owner = assign(pieces, opt.shard_count);
  std::deque<detail::piece> mine;
  std::size_t deepest = 0;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    deepest = std::max(deepest, pieces[k].path.size());
    if (owner[k] == opt.shard_index) mine.push_back({pieces[k].path, 0});
  }
  const std::size_t count_depth = deepest + count_below;
  std::optional<result> r;
  if (opt.jobs > 1) r = explore_shared(opt, body, mine, count_depth);
  if (!r) {  // one worker: the sequential report of a bug (a rerun calls no on_complete)
    const options one = opt.jobs > 1 ? quiet_options(opt) : opt;
    shared_source source(1, mine);
    r = with_explorer(one, body, [&](detail::explorer& e) {
      return run_pieces_counting(e, source, count_depth);
    });
  }
  std::set<detail::piece_path> on_the_way;
  for (const detail::piece& p : mine)
    for (std::size_t k = 0; k <= p.path.size(); ++k)
      on_the_way.emplace(p.path.begin(), p.path.begin() + static_cast<std::ptrdiff_t>(k));
  std::erase_if(r->counted, [&](const auto& node) {
    if (node.first.empty() || on_the_way.contains(node.first)) return false;
    const auto parent = r->counted.find({node.first.begin(), node.first.end() - 1});
    return parent == r->counted.end() || !worth_writing(parent->second, r->executions());
  });
  describe(*r, pieces);
  r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return *r;
}

// The piece of `pieces` (sorted by path, as divide returns them) whose subtree holds the node
// at `path`: the last one not after it, if it is a prefix of it; pieces.size() if none is (the
// node lies above the pieces, or the division misses it).
std::size_t piece_holding(const std::vector<piece>& pieces, const detail::piece_path& path) {
  const auto at =
      std::upper_bound(pieces.begin(), pieces.end(), path,
                       [](const detail::piece_path& p, const piece& q) { return p < q.path; });
  if (at == pieces.begin()) return pieces.size();
  const detail::piece_path& holder = (at - 1)->path;
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
  with_explorer(quiet, body, [&](detail::explorer& e) {
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
  const std::vector<piece> fine = divide(opt, body, most);
  // each piece's executions, on opt.jobs threads claiming the pieces
  const options quiet = quiet_options(opt);
  std::vector<std::uint64_t> count(fine.size(), 0);
  std::vector<const detail::piece_path*> paths;
  std::size_t fine_depth = 0;
  for (const piece& p : fine) {
    paths.push_back(&p.path);
    fine_depth = std::max(fine_depth, p.path.size());
  }
  // every node a division from counts can make a piece of (count_below levels under the
  // deepest counted node, and its children)
  const std::size_t count_depth = fine_depth + count_below + 1;
  std::atomic<std::size_t> next{0};
  std::vector<result> runs(std::max(1u, opt.jobs));
  run_threads(
      static_cast<unsigned>(runs.size()),
      [&](unsigned k) {
        ticket_source source(paths, next);
        runs[k] = with_explorer(quiet, body, [&](detail::explorer& e) {
          return run_pieces_counting(e, source, count_depth,
                                     [&](std::uint64_t n) { count[source.last()] = n; });
        });
      },
      // relaxed: the other threads take no more pieces
      [&] { next.store(paths.size(), std::memory_order_relaxed); });
  for (const result& r : runs) {
    add_counts(out.total, r);
    out.total.bound_hits += r.bound_hits;
    if (r.bug && !out.total.bug) out.total.bug = r.bug;
  }
  describe(out.total, fine);
  if (out.total.bug || out.total.bound_hits > 0) return out;  // no full count to share out
  const auto executions = static_cast<double>(out.total.executions());
  for (const std::uint32_t n : workers) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<piece> coarse = divide(opt, body, n);
    balance_row row;
    row.workers = n;
    row.divide_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result shape;
    describe(shape, coarse);
    row.pieces = shape.subtrees;
    row.depth = shape.cut;
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
    for (const auto& [path, c] : out.total.counted) {
      if (path.size() > row.depth + count_below) continue;
      const std::size_t at = piece_holding(coarse, path);
      const bool below = at != coarse.size() && coarse[at].path.size() < path.size();
      if (below &&
          !worth_writing(out.total.counted.at({path.begin(), path.end() - 1}), load[owner[at]]))
        continue;
      counted->emplace(path, c);
    }
    options second = opt;
    second.division_counts = counted;
    const std::vector<piece> by_counts = divide(second, body, n);
    const std::vector<std::uint32_t> counted_owner = assign(by_counts, n);
    std::fill(load.begin(), load.end(), 0);
    for (std::size_t k = 0; k < by_counts.size(); ++k) {
      if (by_counts[k].path.size() > count_depth)
        throw std::logic_error("a piece of the division from counts lies below the counted nodes");
      const auto c = out.total.counted.find(by_counts[k].path);
      if (c != out.total.counted.end()) load[counted_owner[k]] += c->second;
    }
    row.counted_pieces = by_counts.size();
    row.counted_busiest = *std::max_element(load.begin(), load.end());
    row.counted_share =
        executions > 0 ? static_cast<double>(row.counted_busiest) * n / executions : 1.0;
    options lockstep = quiet;
    lockstep.jobs = n;
    const std::optional<result> jobs =
        explore_shared(lockstep, body, {detail::piece{}}, no_counts, &row.rounds);
    if (!jobs || jobs->executions() != out.total.executions())
      throw std::logic_error("the lockstep run of " + std::to_string(n) +
                             " jobs did not make the executions of the pieces");
    row.given = jobs->subtrees;
    row.jobs_share = executions > 0 ? static_cast<double>(row.rounds) * n / executions : 1.0;
    out.rows.push_back(row);
  }
  return out;
}

result explore(const options& opt, const std::function<void(client&)>& body) {
  if (opt.shard_count > 1) return explore_shard(opt, body);
  if (opt.jobs <= 1 || !opt.replay.empty() || opt.max_executions != 0)
    return explore_one(opt, body);
  return explore_parallel(opt, body);
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
