// stress/lincheck.cpp: native histories through the linearizability core (deques/linearize.hpp)
// in real-time order, their minimizer and timelines (harness/timeline.hpp).
#include "stealcheck/detail/stress/lincheck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <string>

#include "stealcheck/detail/deques/linearize.hpp"
#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/harness/timeline.hpp"
#include "stealcheck/detail/stress/lincheck_fast.hpp"

namespace stealcheck::stress::lincheck {
namespace {

// "steal -> 2", or for a steal from thief N's deque "steal@N -> 2".
std::string label(const operation& op) {
  std::string l = timeline::label(op);
  return op.from_thief == 0 ? l : timeline::steal_from_thief_label(l, op.from_thief);
}

std::vector<timeline::item> items(const history& h) {
  std::vector<timeline::item> out;
  out.reserve(h.size());
  for (const operation& op : h)
    out.push_back({op.thread, op.invoke, op.response, label(op)});
  return out;
}

// h's real-time order, its memo keys from splitmix64.
linearize::real_time_order real_time(const history& h) {
  std::vector<linearize::real_time_order::interval> when;
  when.reserve(h.size());
  for (const operation& op : h)
    when.push_back({op.invoke, op.response});
  return linearize::real_time_order(when, splitmix64_next);
}

}  // namespace

check_result check(const history& h, spec::spec_kind kind) {
  fast_result f = fast_check(h, kind);
  if (f.verdict == fast_verdict::undecided) return search(h, kind);
  check_result r;
  r.direct = true;
  r.linearizable = f.verdict == fast_verdict::linearizable;
  r.order = std::move(f.order);
  r.proof = std::move(f.reason);
  r.core = std::move(f.core);
  return r;
}

check_result search(const history& h, spec::spec_kind kind) {
  linearize::real_time_order order = real_time(h);
  spec::sequential_deque<std::uint64_t> s(kind);
  linearize::search<linearize::real_time_order> search;
  check_result r;
  r.linearizable = search.run(s, std::span<const operation>(h), order);
  if (r.linearizable) r.order = search.witness();
  r.states_explored = search.states();
  return r;
}

history minimize(const history& h, spec::spec_kind kind) {
  constexpr std::size_t max_ops = 5000;  // beyond this, greedy removal costs too much
  if (h.size() > max_ops) {
    const check_result r = check(h, kind);
    if (r.core.empty() || r.core.size() > max_ops) return h;
    const history core = linearize::subset(std::span<const operation>(h), r.core);
    return check(core, kind).linearizable ? h : minimize(core, kind);
  }
  const std::span<const operation> ops(h);
  return linearize::subset(ops, linearize::minimize(ops, [&](std::span<const std::size_t> kept) {
                             return !check(linearize::subset(ops, kept), kind).linearizable;
                           }));
}

std::string describe(const operation& op) {
  return fmt::format("{}: {}", timeline::owner_or_thief(op.thread), label(op));
}

history with_steals_from_thieves(const history& h, const history& aside) {
  history out = h;
  for (const operation& step : aside) {
    if (!step.has_value) continue;
    const bool held = std::any_of(h.begin(), h.end(), [&](const operation& op) {
      return (op.has_value && op.value == step.value) ||
             std::find(op.batch.begin(), op.batch.end(), step.value) != op.batch.end();
    });
    if (held) out.push_back(step);
  }
  return out;
}

std::string spec_step(const history& h, spec::spec_kind kind) {
  linearize::real_time_order order = real_time(h);
  return timeline::dead_end_text<std::uint64_t>(std::span<const operation>(h), order, kind);
}

std::string timeline_text(const history& h) {
  return timeline::text(items(h));
}

std::string timeline_svg(const history& h, const std::string& title) {
  return timeline::svg(items(h), title);
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
