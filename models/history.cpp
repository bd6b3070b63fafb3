// models/history.cpp: conservation and hb-linearizability checks (see history.hpp).
#include "models/history.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "models/hb.hpp"

namespace stealcheck::model {

// Depth-first search over the linear extensions of hb between operations, applying each
// operation to the spec and undoing it on backtrack; sets of operations are bitmasks.
bool history::linearizable(const hb_clocks& hb) const {
  const std::size_t n = ops_.size();
  if (n > 64) return false;  // check_all reports this case by name
  using mask = std::uint64_t;
  // a before b: earlier in the same thread, or a's last event hb-before b's first. Per
  // thread the operations are recorded in po order, and those of thread u hb-before b form a
  // prefix of u's list that only grows along b's thread: one pointer per pair of threads.
  constexpr std::size_t W = hb_cache::width;
  std::array<std::array<std::uint8_t, 64>, W> of_thread;  // per thread: its operations
  std::array<std::size_t, W> count{};
  for (std::size_t i = 0; i < n; ++i) {
    const auto t = static_cast<std::size_t>(ops_[i].first.thread);
    of_thread[t][count[t]++] = static_cast<std::uint8_t>(i);
  }
  std::array<std::size_t, W> active;  // the threads with operations
  std::size_t na = 0;
  for (std::size_t t = 0; t < W; ++t)
    if (count[t] > 0) active[na++] = t;
  std::array<mask, 64> preds{};
  for (std::size_t ta = 0; ta < na; ++ta) {
    const std::size_t t = active[ta];
    std::array<std::size_t, W> seen{};  // per thread u: its operations hb-before so far
    std::array<mask, W> before{};       // and their set
    mask earlier = 0;                   // t's operations po-before
    for (std::size_t k = 0; k < count[t]; ++k) {
      const std::size_t b = of_thread[t][k];
      const hb_cache::clock* clk = hb.of(ops_[b].first);
      mask m = earlier;
      for (std::size_t ua = 0; ua < na; ++ua) {
        const std::size_t u = active[ua];
        if (u == t) continue;
        while (seen[ua] < count[u] && ops_[of_thread[u][seen[ua]]].last.index < clk[u])
          before[ua] |= mask{1} << of_thread[u][seen[ua]++];
        m |= before[ua];
      }
      preds[b] = m;
      earlier |= mask{1} << b;
    }
  }
  const mask all = n == 64 ? ~mask{0} : (mask{1} << n) - 1;
  // one spec per OS thread, emptied per call: no allocation per execution once warm
  static thread_local spec::sequential_deque<std::int64_t> s;
  s.clear();
  // Only the next operation of each thread can come next (a thread's operations are ordered
  // by po, which preds contains): at each depth, at most one candidate per thread.
  struct frame {
    mask done;
    std::size_t next;  // the next thread (index into active) to try at this depth
  };
  std::array<frame, 65> stack;       // one frame per depth: at most n + 1
  std::array<std::size_t, W> pos{};  // per active thread: its operations done
  std::size_t depth = 1;
  stack[0] = {0, 0};
  while (depth > 0) {
    frame& f = stack[depth - 1];
    if (f.done == all) return true;
    bool descended = false;
    while (f.next < na) {
      const std::size_t ta = f.next++;
      if (pos[ta] == count[active[ta]]) continue;  // the thread's operations are all done
      const std::size_t i = of_thread[active[ta]][pos[ta]];
      if ((preds[i] & ~f.done) != 0 || !spec::apply(s, ops_[i])) continue;
      ++pos[ta];
      stack[depth++] = {f.done | mask{1} << i, 0};
      descended = true;
      break;
    }
    if (descended) continue;
    if (--depth == 0) break;
    const std::size_t ta = stack[depth - 1].next - 1;  // the thread applied at that depth
    spec::undo(s, ops_[of_thread[active[ta]][--pos[ta]]]);
  }
  return false;
}

void history::check_all(client& c, const std::vector<std::int64_t>& pushed,
                        const std::vector<std::int64_t>& drained) const {
  // per pushed value (sorted, distinct) how often it was taken; one buffer per OS thread,
  // emptied per call: no allocation per execution once warm
  static thread_local std::vector<std::pair<std::int64_t, int>> count;
  count.clear();
  for (const std::int64_t v : pushed)
    count.emplace_back(v, 0);
  std::sort(count.begin(), count.end());
  count.erase(std::unique(count.begin(), count.end()), count.end());
  auto take = [&](std::int64_t v) {
    const auto it =
        std::lower_bound(count.begin(), count.end(), std::pair<std::int64_t, int>{v, 0});
    if (it == count.end() || it->first != v) {
      c.check(false, "value " + std::to_string(v) + " was never pushed (invented)");
      return;
    }
    if (++it->second > 1) c.check(false, "value " + std::to_string(v) + " was taken twice");
  };
  for (const deque_op& op : ops_) {
    if (const auto v = op.taken()) take(*v);
    if (op.kind == spec::op_kind::steal_batch)
      for (std::size_t k = 1; k < op.batch.size(); ++k)
        take(op.batch[k]);
  }
  for (const std::int64_t v : drained)
    take(v);
  for (const auto& [v, k] : count)
    if (k == 0) c.check(false, "value " + std::to_string(v) + " was lost");
  if (ops_.size() > 64)
    c.check(false,
            "more than 64 deque operations in one client (the hb-linearizability check "
            "takes at most 64)");
  if (!linearizable(c.happens_before_relation())) {
    std::string what = "no linearization respecting happens-before explains the results:";
    for (const deque_op& op : ops_) {
      static constexpr const char* names[] = {"push", "pop", "steal", "steal_batch"};
      what += " T" + std::to_string(op.first.thread) + ":" + names[static_cast<int>(op.kind)];
      if (op.kind == spec::op_kind::push) what += "(" + std::to_string(op.value) + ")";
      if (const auto v = op.taken()) what += "->" + std::to_string(*v);
      if (!op.taken() && op.kind != spec::op_kind::push)
        what += "->" + std::string(status_name(op.status));
    }
    c.check(false, what);
  }
}

}  // namespace stealcheck::model
