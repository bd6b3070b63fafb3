// models/history.cpp: conservation and hb-linearizability checks (see history.hpp).
#include "models/history.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace stealcheck::model {

namespace {

bool apply(spec::sequential_deque<std::int64_t>& s, const deque_op& op) {
  switch (op.type) {
    case op_type::push:
      s.push(op.value);
      return true;
    case op_type::pop:
      return s.pop(op.result);
    case op_type::steal:
      return s.steal(op.status, op.result);
    case op_type::steal_batch:
      if (op.status != steal_status::item) return s.steal(op.status, std::nullopt);
      return s.steal_batch(op.batch);
  }
  return false;
}

bool ordered(const hb_clocks& hb, const deque_op& a, const deque_op& b) {
  if (a.first.thread == b.first.thread) return a.first.index < b.first.index;
  return hb.hb(a.last, b.first);
}

}  // namespace

bool history::linearizable(const hb_clocks& hb) const {
  const std::size_t n = ops_.size();
  std::vector<std::vector<std::size_t>> preds(n);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b && ordered(hb, ops_[a], ops_[b])) preds[b].push_back(a);
  std::vector<bool> done(n, false);
  std::function<bool(spec::sequential_deque<std::int64_t>&, std::size_t)> dfs =
      [&](spec::sequential_deque<std::int64_t>& s, std::size_t k) {
        if (k == n) return true;
        for (std::size_t i = 0; i < n; ++i) {
          if (done[i]) continue;
          if (!std::all_of(preds[i].begin(), preds[i].end(),
                           [&](std::size_t p) { return done[p]; }))
            continue;
          spec::sequential_deque<std::int64_t> next = s;
          if (!apply(next, ops_[i])) continue;
          done[i] = true;
          if (dfs(next, k + 1)) return true;
          done[i] = false;
        }
        return false;
      };
  spec::sequential_deque<std::int64_t> s;
  return dfs(s, 0);
}

void history::check_all(client& c, const std::vector<std::int64_t>& pushed,
                        const std::vector<std::int64_t>& drained) const {
  std::map<std::int64_t, int> count;
  for (const std::int64_t v : pushed)
    count[v] += 0;
  auto take = [&](std::int64_t v) {
    if (count.find(v) == count.end()) {
      c.check(false, "value " + std::to_string(v) + " was never pushed (invented)");
      return;
    }
    if (++count[v] > 1) c.check(false, "value " + std::to_string(v) + " was taken twice");
  };
  for (const deque_op& op : ops_) {
    if (op.result) take(*op.result);
    if (op.type == op_type::steal_batch)
      for (std::size_t k = 1; k < op.batch.size(); ++k)
        take(op.batch[k]);
  }
  for (const std::int64_t v : drained)
    take(v);
  for (const auto& [v, k] : count)
    if (k == 0) c.check(false, "value " + std::to_string(v) + " was lost");
  if (!linearizable(c.happens_before_relation())) {
    std::string what = "no linearization respecting happens-before explains the results:";
    for (const deque_op& op : ops_) {
      static constexpr const char* names[] = {"push", "pop", "steal", "steal_batch"};
      what += " T" + std::to_string(op.first.thread) + ":" + names[static_cast<int>(op.type)];
      if (op.type == op_type::push) what += "(" + std::to_string(op.value) + ")";
      if (op.result) what += "->" + std::to_string(*op.result);
      if (!op.result && op.type != op_type::push)
        what += "->" + std::string(status_name(op.status));
    }
    c.check(false, what);
  }
}

}  // namespace stealcheck::model
