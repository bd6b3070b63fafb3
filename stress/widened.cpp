// stress/widened.cpp: the widened-history generator of stress/widened.hpp.
#include "stealcheck/detail/stress/widened.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/harness/random.hpp"

namespace stealcheck::stress::lincheck {
namespace {

constexpr std::array<std::string_view, 4> change_names{"none", "duplicate", "empty_steal",
                                                       "empty_pop"};

// A uniform draw below `bound` (bound > 0), from the generator's state.
std::size_t below(std::uint64_t& state, std::size_t bound) {
  return static_cast<std::size_t>(splitmix64_next(state) % bound);
}

struct in_flight {
  operation op;
  bool took_effect = false;
};

// The operations where `c` is certain to break linearizability (see the header), by index.
std::vector<std::size_t> candidates(const history& h, widened_change c) {
  std::vector<std::size_t> out;
  if (c == widened_change::empty_pop || c == widened_change::duplicate) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const bool pop_value = h[i].kind == op_kind::pop && h[i].has_value;
      const bool steal_value = h[i].kind == op_kind::steal && h[i].has_value;
      if (c == widened_change::empty_pop ? pop_value : steal_value) out.push_back(i);
    }
    return out;
  }
  // empty_steal: steals of a value older than the youngest stolen value
  std::uint64_t youngest = 0;
  bool any = false;
  for (const operation& op : h)
    if (op.kind == op_kind::steal && op.has_value) {
      youngest = any ? std::max(youngest, op.value) : op.value;
      any = true;
    }
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i].kind == op_kind::steal && h[i].has_value && h[i].value < youngest) out.push_back(i);
  return out;
}

}  // namespace

std::string_view change_name(widened_change c) noexcept {
  return change_names[static_cast<std::size_t>(c)];
}

std::optional<widened_change> change_by_name(std::string_view name) noexcept {
  for (std::size_t i = 0; i < change_names.size(); ++i)
    if (change_names[i] == name) return static_cast<widened_change>(i);
  return std::nullopt;
}

std::optional<history> widened_history(const widened_options& o) {
  const std::size_t threads = std::max<std::size_t>(o.threads, 2);
  std::uint64_t state = o.seed;
  spec::sequential_deque<std::uint64_t> deque(spec::spec_kind::lifo_owner);
  std::uint64_t clock = 0, next_value = 0;
  std::size_t invoked = 0, owner_ops = 0;
  history h;
  h.reserve(o.ops);
  std::vector<std::optional<in_flight>> flight(threads);
  const auto invoke = [&](std::size_t t) {
    if (invoked == o.ops) return;
    ++invoked;
    in_flight f;
    f.op.thread = static_cast<std::uint32_t>(t);
    f.op.invoke = clock++;
    if (t == 0) {
      const bool filling = (owner_ops++ / 256) % 2 == 0;
      f.op.kind = below(state, 10) < (filling ? 9U : 5U) ? op_kind::push : op_kind::pop;
      if (f.op.kind == op_kind::push) {
        f.op.value = next_value++;
        f.op.has_value = true;
      }
    } else {
      f.op.kind = op_kind::steal;
      f.op.status = below(state, 50) == 0 ? steal_status::abort : steal_status::empty;
    }
    flight[t] = f;
  };
  const auto take_effect = [&](operation& op) {
    switch (op.kind) {
      case op_kind::push:
        deque.push(op.value);
        return;
      case op_kind::pop:
        if (deque.empty()) return;
        op.set_taken(deque.items().back());
        static_cast<void>(deque.pop(&op.value));
        return;
      default:
        if (op.status == steal_status::abort) return;
        if (deque.empty()) return;
        op.status = steal_status::item;
        op.set_taken(deque.items().front());
        static_cast<void>(deque.steal(steal_status::item, &op.value));
        return;
    }
  };
  std::size_t busy = 0;  // threads with an operation in flight
  for (std::size_t t = 0; t < threads; ++t) {
    invoke(t);
    busy += flight[t] ? 1 : 0;
  }
  while (busy > 0) {
    const std::size_t t = below(state, 5) < 3 ? 0 : 1 + below(state, threads - 1);
    if (!flight[t]) continue;
    in_flight& f = *flight[t];
    if (!f.took_effect) {
      take_effect(f.op);
      f.took_effect = true;
      continue;
    }
    f.op.response = clock++;
    h.push_back(f.op);
    flight[t].reset();
    invoke(t);
    if (!flight[t]) --busy;
  }
  if (o.change == widened_change::none) return h;
  const std::vector<std::size_t> where = candidates(h, o.change);
  if (where.empty()) return std::nullopt;
  operation& op = h[where[below(state, where.size())]];
  if (o.change == widened_change::duplicate) {
    const std::vector<std::size_t> pops = candidates(h, widened_change::empty_pop);
    if (pops.empty()) return std::nullopt;
    op.value = h[pops[below(state, pops.size())]].value;
  } else {
    op.set_taken(std::nullopt);
    if (op.kind == op_kind::steal) op.status = steal_status::empty;
  }
  return h;
}

double mean_overlap(const history& h) {
  if (h.empty()) return 0;
  std::vector<std::uint64_t> invokes, responses;
  invokes.reserve(h.size());
  responses.reserve(h.size());
  for (const operation& op : h) {
    invokes.push_back(op.invoke);
    responses.push_back(op.response);
  }
  std::sort(invokes.begin(), invokes.end());
  std::sort(responses.begin(), responses.end());
  double total = 0;
  for (const operation& op : h) {
    // others invoked by op's response, less those that returned before op's invocation
    const auto started = std::upper_bound(invokes.begin(), invokes.end(), op.response);
    const auto ended = std::lower_bound(responses.begin(), responses.end(), op.invoke);
    total += static_cast<double>((started - invokes.begin()) - (ended - responses.begin()) - 1);
  }
  return total / static_cast<double>(h.size());
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
