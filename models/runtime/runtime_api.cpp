// models/runtime/runtime_api.cpp: the model::memory entry points (see runtime_api.hpp).
#include "stealcheck/detail/models/runtime/runtime_api.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "stealcheck/detail/models/graph/hb.hpp"
#include "stealcheck/detail/models/report/report.hpp"
#include "stealcheck/detail/models/runtime/events.hpp"
#include "stealcheck/detail/models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

namespace {

[[noreturn, gnu::cold]] void used_outside_explore() {
  std::fputs("stealcheck: model::memory used outside model::explore\n", stderr);
  std::abort();
}

execution& ex() {
  execution* e = current_execution();
  if (e == nullptr) used_outside_explore();
  return *e;
}

std::uint64_t teardown_op(execution& x, const pending_op& op, bool& ok) {
  std::uint64_t& cell = x.mem.last_written(op.loc);
  const std::uint64_t old = cell;
  ok = true;
  switch (op.kind) {
    case op_kind::store:
      cell = op.value;
      break;
    case op_kind::rmw: {
      event r;
      r.op = op.op;
      r.operand = op.value;
      cell = rmw_result(r, old, x.g.locs.size() > op.loc ? x.g.locs[op.loc].width : 8);
      break;
    }
    case op_kind::cas:
    case op_kind::lock:
      ok = old == op.expected;
      if (ok) cell = op.value;
      break;
    default:
      break;
  }
  return old;
}

// Posts an operation on an atomic location (after the use-after-free check). In teardown
// the operation takes its teardown effect; a blocking one (a lock, a join) unwinds the fiber
// first (execution::unwind_if_due).
std::uint64_t post(const pending_op& op, bool* ok = nullptr) {
  execution& x = ex();
  if (x.tearing_down()) {
    x.unwind_if_due(op.kind == op_kind::lock || op.kind == op_kind::join);
    x.teardown_op_made();
    bool k = false;
    const std::uint64_t v = teardown_op(x, op, k);
    if (ok != nullptr) *ok = k;
    return v;
  }
  if (op.kind != op_kind::fence && op.kind != op_kind::join) {
    x.mem.ensure(op.loc);
    if (x.mem.freed_by(op.loc).valid())
      x.fail(error_kind::use_after_free, "access to " + location_name(x.g, op.loc) +
                                             " after it was freed at " +
                                             event_name(x.g, x.mem.freed_by(op.loc)));
  }
  const std::uint64_t v = x.post(op);
  if (x.me().unwind_due) {  // torn down while suspended in post(): answer as in teardown
    bool k = false;
    const std::uint64_t tv = teardown_op(x, op, k);
    if (ok != nullptr) *ok = k;
    return tv;
  }
  if (ok != nullptr) *ok = x.me().op.ok;
  return v;
}

// Whether the graph has an access to a location freed by f that is not hb-before
// f: a use-after-free race, which the end-of-execution check reports. Scans only the events
// outside f's hb-prefix (after a join, usually none).
bool unordered_access(execution& x, event_id f) {
  const graph& g = x.g;
  const hb_clocks* h = x.checker.hb(g);
  if (h == nullptr) return true;  // (not for a consistent graph) the end check decides
  const hb_clocks::clock* clk = h->of(f);
  for (std::size_t u = 0; u < g.threads.size(); ++u) {
    const auto& th = g.threads[u];
    for (auto i = static_cast<std::size_t>(clk[u]); i < th.size(); ++i) {
      const event& e = th[i];
      if ((is_access(e) || is_na(e)) && x.mem.freed_by_any(e.loc) == f) return true;
    }
  }
  return false;
}

}  // namespace

std::uint32_t rt_location(loc_shape shape, std::uint64_t init, std::uintptr_t addr, source_loc src,
                          const char* name) {
  const loc_kind kind = shape.kind;
  execution& x = ex();
  location l;
  l.key = (static_cast<std::uint64_t>(x.current()) << 32) | x.me().loc_counter++;
  l.atomic = kind != loc_kind::nonatomic;
  l.width = shape.width;
  const auto element = x.mem.take_element();
  // an array element's construction is reported at create_array's caller, not inside the
  // element's type
  if (element) src = x.mem.element_src();
  l.src = src;
  l.name = name;
  if (element) {  // named after its array (report.cpp)
    l.in_array = true;
    l.element = *element;
    l.alloc = x.mem.array();
  }
  const event_kind k = kind == loc_kind::nonatomic ? event_kind::na_write : event_kind::init;
  const event* recorded = x.recorded_next();  // a replay: try the recorded event's location
  const std::uint32_t loc = x.g.location_for(l, recorded ? recorded->loc : location_hint_none);
  x.mem.placed(loc, addr, init);
  if (x.tearing_down()) return loc;
  if (x.replay_free(k, loc, init, 0)) return loc;  // free_event's replay, without an event copy
  event e;
  e.kind = k;
  e.loc = loc;
  e.value = init;
  e.src = src;
  x.free_event(e);
  return loc;
}

namespace {
// The operations' slow paths (a new event, or a replay that post() decides), out of line:
// the replay fast paths in rt_load, rt_store and rt_fence then need no stack frame.
[[gnu::noinline]] std::uint64_t post_load(std::uint32_t loc, std::memory_order o, source_loc src) {
  pending_op op;
  op.kind = op_kind::load;
  op.loc = loc;
  op.order = o;
  op.src = src;
  return post(op);
}

[[gnu::noinline]] void post_store(std::uint32_t loc, std::uint64_t v, std::memory_order o,
                                  source_loc src) {
  pending_op op;
  op.kind = op_kind::store;
  op.loc = loc;
  op.value = v;
  op.order = o;
  op.src = src;
  post(op);
}

[[gnu::noinline]] void post_fence(std::memory_order o, source_loc src) {
  pending_op op;
  op.kind = op_kind::fence;
  op.order = o;
  op.src = src;
  post(op);
}
}  // namespace

std::uint64_t rt_load(std::uint32_t loc, std::memory_order o, source_loc src) {
  std::uint64_t v = 0;
  if (ex().replay_load(loc, v)) return v;
  return post_load(loc, o, src);
}

void rt_store(std::uint32_t loc, std::uint64_t v, std::memory_order o, source_loc src) {
  if (ex().replay_store(loc, v)) return;
  post_store(loc, v, o, src);
}

std::uint64_t rt_rmw(std::uint32_t loc, rmw_op r, std::uint64_t operand, std::memory_order o,
                     source_loc src) {
  pending_op op;
  op.kind = op_kind::rmw;
  op.op = r;
  op.loc = loc;
  op.value = operand;
  op.order = o;
  op.src = src;
  return post(op);
}

bool rt_cas(std::uint32_t loc, std::uint64_t& expected, std::uint64_t desired, bool weak,
            std::memory_order okm, std::memory_order fail, source_loc src) {
  pending_op op;
  op.kind = op_kind::cas;
  op.op = rmw_op::cas;
  op.loc = loc;
  op.value = desired;
  op.expected = expected;
  op.weak = weak;
  op.order = okm;
  op.fail_order = fail;
  op.src = src;
  bool ok = false;
  const std::uint64_t old = post(op, &ok);
  if (!ok) expected = old;
  return ok;
}

void rt_fence(std::memory_order o, source_loc src) {
  if (ex().replay_fence()) return;
  post_fence(o, src);
}

void rt_na_access(std::uint32_t loc, bool write, source_loc src) {
  execution& x = ex();
  if (x.tearing_down()) {
    x.unwind_if_due(/*blocking=*/false);
    x.teardown_op_made();
    return;
  }
  x.mem.ensure(loc);
  if (x.mem.freed_by(loc).valid())
    x.fail(error_kind::use_after_free, "access to " + location_name(x.g, loc) +
                                           " after it was freed at " +
                                           event_name(x.g, x.mem.freed_by(loc)));
  event e;
  e.kind = write ? event_kind::na_write : event_kind::na_read;
  e.loc = loc;
  e.src = src;
  x.free_event(e);
}

void rt_lock(std::uint32_t loc, source_loc src) {
  pending_op op;
  op.kind = op_kind::lock;
  op.op = rmw_op::cas;
  op.loc = loc;
  op.value = 1;
  op.expected = 0;
  op.order = std::memory_order_acquire;
  op.fail_order = std::memory_order_acquire;
  op.src = src;
  bool ok = false;
  post(op, &ok);
  execution& x = ex();
  if (!ok && !x.tearing_down()) x.block(block_reason::mutex);
}

bool rt_try_lock(std::uint32_t loc, source_loc src) {
  std::uint64_t expected = 0;
  return rt_cas(loc, expected, 1, false, std::memory_order_acquire, std::memory_order_relaxed, src);
}

void rt_unlock(std::uint32_t loc, source_loc src) {
  // Made from a destructor (an RAII guard): a store, so a torn-down fiber does not unwind
  // here (execution::unwind_if_due).
  if (ex().replay_store(loc, 0)) return;
  post_store(loc, 0, std::memory_order_release, src);
}

void rt_assume(bool cond, source_loc /*src*/) {
  execution& x = ex();
  if (x.tearing_down()) {
    x.unwind_if_due();  // a spin loop torn down mid-run leaves here
    x.teardown_op_made();
    return;
  }
  if (!cond) x.block(block_reason::assume);
}

void rt_wait(std::uint32_t loc, std::uint64_t old, std::memory_order o, source_loc src) {
  const std::uint64_t v = rt_load(loc, o, src);
  execution& x = ex();
  if (x.tearing_down()) {
    x.unwind_if_due();  // a wait loop torn down mid-run leaves here
    x.teardown_op_made();
    return;
  }
  if (v == old) x.block(block_reason::wait);
}

bool rt_unwinding() noexcept {
  const execution* x = current_execution();
  return x != nullptr && x->tearing_down();
}

std::size_t rt_thread() noexcept {
  const execution* x = current_execution();
  return x != nullptr ? x->current() : 0;
}

constinit thread_local bool tls_sites_overridden = false;

std::memory_order rt_site_order(const site& s) noexcept {
  const execution* x = current_execution();
  if (x != nullptr && !x->config().sites.empty())
    for (const auto& [name, o] : x->config().sites)
      if (name == s.name) return o;
  return s.order;
}

void* rt_alloc(std::size_t size, std::size_t /*align*/, std::size_t count,
               void (*destroy)(void*, std::size_t)) {
  execution& x = ex();
  const std::size_t k =
      x.mem.allocate(x.current(), size * (count == 0 ? 1 : count), count, destroy);
  alloc_record& a = x.mem.allocation(k);
  if (!x.tearing_down()) a.alloc_event = x.record(event_kind::alloc, static_cast<std::uint32_t>(k));
  return a.storage;
}

void* rt_alloc_array(std::size_t size, std::size_t count, void (*destroy)(void*, std::size_t),
                     const char* name, source_loc src) {
  execution& x = ex();
  const std::size_t k =
      x.mem.allocate(x.current(), size * (count == 0 ? 1 : count), count, destroy);
  alloc_record& a = x.mem.allocation(k);
  const auto n = static_cast<std::uint32_t>(k);
  x.mem.allocating_array(n);
  if (!x.tearing_down()) a.alloc_event = x.record_array(n, count, name, src);
  return a.storage;
}

void rt_array_element(std::uint32_t i, source_loc src) {
  ex().mem.next_is_element(i, src);
}

bool rt_free_begin(const void* p, bool /*array*/) {
  execution& x = ex();
  for (const alloc_record& a : x.mem.allocations()) {
    if (a.storage != p) continue;
    if (a.live) return true;
    if (x.tearing_down()) return false;
    x.fail(error_kind::double_free, "double free of the allocation made at " +
                                        event_name(x.g, a.alloc_event) + ", first freed at " +
                                        event_name(x.g, a.free_event));
  }
  if (x.tearing_down()) return false;
  x.fail(error_kind::double_free, "destroy of a pointer that create() did not return");
}

void rt_free_end(const void* p) {
  execution& x = ex();
  for (std::size_t k = 0; k < x.mem.allocations().size(); ++k) {
    alloc_record& a = x.mem.allocation(k);
    if (a.storage != p || !a.live) continue;
    a.live = false;
    if (x.tearing_down()) return;
    a.free_event = x.record(event_kind::free, static_cast<std::uint32_t>(k));
    if (x.mem.free_locations(k, a.free_event) && !x.late_access() &&
        unordered_access(x, a.free_event))
      x.note_late_access();
    return;
  }
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
