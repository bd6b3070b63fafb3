// models/explore/explore.cpp: the test API (see explore.hpp).
#include "stealcheck/detail/models/explore/explore.hpp"

#include <cstdlib>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/models/explore/forward.hpp"
#include "stealcheck/detail/models/explore/trust.hpp"
#include "stealcheck/detail/models/explore/workers.hpp"
#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/runtime/runtime.hpp"

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
  check(ok, failure_kind::wrong_result, what, src);
}

void client::check(bool ok, failure_kind failure, std::string_view what, source_loc src) {
  if (ok) return;
  detail::execution& x = judging();
  if (x.tearing_down()) return;
  const char* f = src.file != nullptr ? std::strrchr(src.file, '/') : nullptr;
  // the location ends the first line: a multi-line `what` goes on below it
  const std::size_t eol = std::min(what.find('\n'), what.size());
  x.fail(error_kind::assertion,
         "check failed: " + std::string(what.substr(0, eol)) + " (" + (f != nullptr ? f + 1 : "?") +
             ":" + std::to_string(src.line) + ", thread " + std::to_string(x.current()) + ")" +
             std::string(what.substr(eol)),
         failure);
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

result explore(const options& opt, const std::function<void(client&)>& body) {
  if (opt.sample.executions > 0 && opt.replay.empty())
    return detail::with_explorer(opt, body, [&](detail::explorer& e) {
      const auto& s = opt.sample;
      if (s.strategy == options::sampler::tree) return e.sample(s.executions, s.seed);
      detail::uniform_strategy uniform(s.seed);
      detail::pct_strategy pct(s.seed, s.pct_depth);
      detail::forward_strategy& f = s.strategy == options::sampler::pct
                                        ? static_cast<detail::forward_strategy&>(pct)
                                        : uniform;
      return e.sample_forward(s.executions, f);
    });
  if (opt.jobs <= 1 || !opt.replay.empty() || opt.max_executions != 0)
    return detail::explore_one(opt, body);
  return detail::explore_parallel(opt, body);
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
