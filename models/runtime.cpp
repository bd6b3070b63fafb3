// models/runtime.cpp: fibers, replay cursor and commit of one run (see runtime.hpp).
#include "models/runtime.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <new>
#include <string>

#include "models/hb.hpp"
#include "models/report.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define STEALCHECK_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define STEALCHECK_TSAN 1
#endif

namespace stealcheck::model::detail {

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t default_stack = std::size_t{1} << 20;
#else
constexpr std::size_t default_stack = std::size_t{256} << 10;
#endif

// Recycles fiber stacks across runs (each run creates fresh fibers). Each stack has an
// inaccessible guard region below it (stack_guard_bytes), so that a model thread that
// overflows its stack faults there (reported by crash.cpp) instead of overwriting other
// memory. The pool holds the usable bases; ~execution unmaps them with their guards.
class pool_stack {
 public:
  pool_stack(std::vector<void*>* pool, std::size_t size, void** last)
      : pool_(pool), size_(size), last_(last) {}
  boost::context::stack_context allocate() {
    void* base = nullptr;
    if (!pool_->empty()) {
      base = pool_->back();
      pool_->pop_back();
    } else {
      const std::size_t guard = stack_guard_bytes();
      void* m = ::mmap(nullptr, guard + size_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      if (::mprotect(m, guard, PROT_NONE) != 0) {
        ::munmap(m, guard + size_);
        throw std::bad_alloc();
      }
      base = static_cast<char*>(m) + guard;
    }
    *last_ = base;
    boost::context::stack_context sc;
    sc.size = size_;
    sc.sp = static_cast<char*>(base) + size_;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept {
    pool_->push_back(static_cast<char*>(sc.sp) - sc.size);
  }

 private:
  std::vector<void*>* pool_;
  std::size_t size_;
  void** last_;
};

std::uint64_t mask(std::uint64_t v, std::uint8_t width) {
  return width >= 8 ? v : (v & ((std::uint64_t{1} << (8U * width)) - 1));
}

}  // namespace

constinit thread_local execution* tls_current_execution = nullptr;

std::size_t stack_guard_bytes() noexcept {
  // 64 KiB, not one page: a frame larger than the guard could step over it (stack clash);
  // the guard is address space only
  static const std::size_t bytes =
      std::max(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)), std::size_t{64} << 10);
  return bytes;
}

std::uint64_t rmw_result(const event& r, std::uint64_t old, std::uint8_t width) {
  std::uint64_t v = old;
  switch (r.op) {
    case rmw_op::exchange:
    case rmw_op::cas:
      v = r.operand;
      break;
    case rmw_op::add:
      v = old + r.operand;
      break;
    case rmw_op::sub:
      v = old - r.operand;
      break;
    case rmw_op::band:
      v = old & r.operand;
      break;
    case rmw_op::bor:
      v = old | r.operand;
      break;
    case rmw_op::bxor:
      v = old ^ r.operand;
      break;
    case rmw_op::none:
      break;
  }
  return mask(v, width);
}

namespace {
// The fields every access event takes from its operation.
event access_of(const pending_op& op, event_kind k) {
  event e;
  e.kind = k;
  e.loc = op.loc;
  e.src = op.src;
  e.order = op.order;
  return e;
}
}  // namespace

event make_read(const pending_op& op) {
  event r = access_of(op, event_kind::read);
  r.ok_order = op.order;
  r.fail_order = op.fail_order;
  r.weak = op.weak;
  r.operand = op.value;
  r.expected = op.expected;
  if (op.kind == op_kind::rmw) {
    r.op = op.op;
    r.rmw = true;
  } else if (op.kind == op_kind::cas || op.kind == op_kind::lock) {
    r.op = rmw_op::cas;
  }
  return r;
}

event make_store(const pending_op& op, bool last) {
  event w = access_of(op, event_kind::write);
  w.value = op.value;
  w.added_max = last;
  return w;
}

event make_fence_or_join(const pending_op& op) {
  event e;
  e.kind = op.kind == op_kind::fence ? event_kind::fence : event_kind::join;
  e.order = op.order;
  e.aux = op.aux;
  e.src = op.src;
  return e;
}

event make_write_part(const graph& g, const event& r) {
  event w;
  w.kind = event_kind::write;
  w.rmw = true;
  w.loc = r.loc;
  w.src = r.src;
  w.order = write_part(r.ok_order);
  w.value = rmw_result(r, r.value, g.locs[r.loc].width);
  return w;
}

execution::execution(run_config c, std::function<void()> main_body)
    : cfg(std::move(c)), stack_size_(default_stack), main_body_(std::move(main_body)) {}

execution::~execution() {
  teardown();
  for (void* p : stack_pool_)
    ::munmap(static_cast<char*>(p) - stack_guard_bytes(), stack_guard_bytes() + stack_size_);
  for (const auto& [bytes, p] : spare_storage_)
    ::operator delete (p, std::align_val_t{alignof(std::max_align_t)});
}

void* execution::take_storage(std::size_t bytes) {
  for (std::size_t k = spare_storage_.size(); k-- > 0;)
    if (spare_storage_[k].first == bytes) {
      void* p = spare_storage_[k].second;
      spare_storage_.erase(spare_storage_.begin() + static_cast<std::ptrdiff_t>(k));
      return p;
    }
  return ::operator new (bytes, std::align_val_t{alignof(std::max_align_t)});
}

void execution::reset_run() {
  recycle_threads();
  threads.push_back(fresh_thread());
  threads[0]->body = main_body_;
  if (g.threads.empty()) {
    g.threads.resize(1);
    g.info.resize(1);
  }
  // sized for the recorded graph's locations at once (ensure_loc grows them for new ones)
  loc_addr.assign(g.locs.size(), 0);
  loc_freed.assign(g.locs.size(), event_id::none());
  shadow.assign(g.locs.size(), 0);
  allocs.clear();
  next_element.reset();
  na_recorded = false;
  late_access = false;
}

// Every switch between the explorer (main) and a fiber goes through these two functions, so
// AddressSanitizer and ThreadSanitizer can be told about each stack change. Abandoned fibers
// are unwound by switching into them with `unwinding` set (post/park then throw
// unwind_request), not by Boost's forced unwinding, so that no switch is unannotated.
void execution::switch_to_fiber(std::size_t t) {
  model_thread& th = *threads[t];
#if defined(STEALCHECK_ASAN)
  __sanitizer_start_switch_fiber(&main_fake_, th.stack_base, th.stack_size);
#endif
#if defined(STEALCHECK_TSAN)
  if (tsan_main_ == nullptr) tsan_main_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(th.tsan_fiber, 0);
#endif
  const std::size_t prev = current;
  current = t;
  if (watched != nullptr) {
    const event* last = last_event(t);
    watched->resumed(t, last != nullptr ? static_cast<std::int32_t>(th.cursor) - 1 : -1, last);
  }
  th.fib = std::move(th.fib).resume();
  if (watched != nullptr) watched->returned();
  current = prev;
#if defined(STEALCHECK_ASAN)
  __sanitizer_finish_switch_fiber(main_fake_, nullptr, nullptr);
#endif
#if defined(STEALCHECK_TSAN)
  if (th.finished && th.tsan_fiber != nullptr) {
    __tsan_destroy_fiber(th.tsan_fiber);
    th.tsan_fiber = nullptr;
  }
#endif
}

void execution::switch_to_main(bool exiting, bool in_post) {
  model_thread& th = me();
#if defined(STEALCHECK_ASAN)
  __sanitizer_start_switch_fiber(exiting ? nullptr : &th.asan_fake, main_bottom_, main_size_);
#endif
#if defined(STEALCHECK_TSAN)
  __tsan_switch_to_fiber(tsan_main_, 0);
#endif
  if (exiting) return;  // the caller returns the sink to Boost, which switches
  th.sink = std::move(th.sink).resume();
#if defined(STEALCHECK_ASAN)
  __sanitizer_finish_switch_fiber(th.asan_fake, &main_bottom_, &main_size_);
#endif
  if (!th.unwinding) return;
  if (in_post) {
    th.unwind_due = true;  // see unwind_if_due
    return;
  }
  throw unwind_request{};
}

void execution::start_fiber(std::size_t t) {
  model_thread& th = *threads[t];
  th.started = true;
  th.fib = boost::context::fiber(
      std::allocator_arg, pool_stack(&stack_pool_, stack_size_, &last_stack_),
      [this, t](boost::context::fiber&& sink) {
        model_thread& self = *threads[t];
#if defined(STEALCHECK_ASAN)
        __sanitizer_finish_switch_fiber(nullptr, &main_bottom_, &main_size_);
#endif
        self.sink = std::move(sink);
        try {
          if (!self.unwinding) self.body();
        } catch (const unwind_request&) {
          // abandoned run: the stack is unwound, nothing to record
        } catch (const std::exception& ex) {
          if (!tearing_down && !error)
            error = error_state{error_kind::exception,
                                "thread " + std::to_string(t) + " threw: " + ex.what()};
        } catch (...) {
          if (!tearing_down && !error)
            error = error_state{error_kind::exception,
                                "thread " + std::to_string(t) + " threw a non-std exception"};
        }
        if (!tearing_down && !error) record(event_kind::end, 0);
        self.finished = true;
        switch_to_main(true);
        return std::move(self.sink);
      });
  th.stack_base = last_stack_;
  th.stack_size = stack_size_;
#if defined(STEALCHECK_TSAN)
  th.tsan_fiber = __tsan_create_fiber(0);
#endif
}

void execution::advance(std::size_t t) {
  model_thread& th = *threads[t];
  if (th.finished || th.blocked || th.has_op || error) return;
  if (!th.started) start_fiber(t);
  switch_to_fiber(t);
}

bool execution::replay_ready(std::size_t t) const {
  const model_thread& th = *threads[t];
  const event& e = g.threads[t][th.cursor];
  if (is_read(e)) {
    const event_id rf = e.rf;
    if (!g.contains(rf)) return false;
    const auto u = static_cast<std::size_t>(rf.thread);
    return u == t ||
           (u < threads.size() && static_cast<std::size_t>(rf.index) < threads[u]->cursor);
  }
  if (e.kind == event_kind::join) return e.aux < threads.size() && threads[e.aux]->finished;
  return true;
}

bool execution::mismatch(std::size_t t, std::size_t c) {
  const pending_op& op = threads[t]->op;
  const event& e = g.threads[t][c];
  error = error_state{error_kind::nondeterminism,
                      "re-execution of thread " + std::to_string(t) + " diverged at event " +
                          std::to_string(c) + " (" + std::string(kind_name(e.kind)) + " vs op " +
                          std::to_string(static_cast<int>(op.kind)) + " loc " +
                          std::to_string(e.loc) + "/" + std::to_string(op.loc) + ")" +
                          "): the client must be deterministic given the values it reads"};
  return true;
}

// The event kind each operation is recorded as (indexed by op_kind).
constexpr event_kind recorded_kind[] = {
    event_kind::read,   // load
    event_kind::write,  // store
    event_kind::read,   // rmw (its read part)
    event_kind::read,   // cas
    event_kind::fence,  // fence
    event_kind::join,   // join
    event_kind::read,   // lock (a CAS)
};
static_assert(std::size(recorded_kind) == static_cast<std::size_t>(op_kind::lock) + 1);

bool execution::commit(std::size_t t) {
  model_thread& th = *threads[t];
  pending_op& op = th.op;
  auto& evs = g.threads[t];
  std::size_t c = th.cursor;
  event& e = evs[c];
  if (th.half_rmw) {  // the read part was committed by an earlier replay
    if (c == 0 || !(e.kind == event_kind::write && e.rmw)) return mismatch(t, c);
    const event& r = evs[c - 1];
    e.value = rmw_result(r, r.value, g.locs[r.loc].width);
    ensure_loc(e.loc);
    shadow[e.loc] = e.value;
    op.result = r.value;
    op.ok = true;
    th.cursor = c + 1;
    th.has_op = false;
    th.half_rmw = false;
    return true;
  }
  if (e.kind != recorded_kind[static_cast<std::size_t>(op.kind)] ||
      (is_access(e) && e.loc != op.loc))
    return mismatch(t, c);
  bool ok = false;
  if (e.kind == event_kind::read) {
    e.value = g.at(e.rf).value;
    op.result = e.value;
    ok = op.kind == op_kind::rmw ||
         (op.kind != op_kind::load && !e.spurious && e.value == e.expected);
    if (e.op == rmw_op::cas) e.cas_ok = ok;
    ++c;
    if (ok) {
      if (c == evs.size()) {
        th.cursor = c;
        th.half_rmw = true;
        return false;
      }
      event& w = evs[c];
      if (!(w.kind == event_kind::write && w.rmw)) return mismatch(t, c);
      w.value = rmw_result(e, e.value, g.locs[e.loc].width);
      ensure_loc(e.loc);
      shadow[e.loc] = w.value;
      ++c;
    } else if (c < evs.size() && evs[c].kind == event_kind::write && evs[c].rmw) {
      return mismatch(t, c);
    }
  } else if (e.kind == event_kind::write) {
    e.value = op.value;
    ensure_loc(e.loc);
    shadow[e.loc] = e.value;
    ++c;
  } else {
    ++c;
  }
  op.ok = ok;
  th.cursor = c;
  th.has_op = false;
  th.half_rmw = false;
  return true;
}

bool execution::eager_load(std::size_t t, event_id only_from) {
  model_thread& th = *threads[t];
  const pending_op& op = th.op;
  if (op.kind != op_kind::load || th.half_rmw || th.cursor != g.threads[t].size() ||
      op.loc >= g.mo.size())
    return false;
  const auto& m = g.mo[op.loc];
  const std::size_t n = m.size();
  if (n == 0 || coherence_floor(g, t, op.loc) != static_cast<int>(n) - 1) return false;
  const event_id w = m[n - 1];
  if (only_from.valid() && !(only_from == w)) return false;
  const event_id rid = g.append(t, make_read(op));
  set_reads_from(g, rid, w);
  g.at(rid).added_max = true;  // (it reads the mo-maximal write)
  return commit(t);
}

bool execution::eager_store(std::size_t t) {
  model_thread& th = *threads[t];
  const pending_op& op = th.op;
  if (op.kind != op_kind::store || th.half_rmw || th.cursor != g.threads[t].size() ||
      op.loc >= g.mo.size())
    return false;
  const std::size_t n = g.mo[op.loc].size();
  if (n == 0 || coherence_floor(g, t, op.loc) != static_cast<int>(n) - 1 ||
      read_outside(g, op.loc, porf_before_next(g, t), /*revisitable_only=*/false))
    return false;
  const event_id wid = g.append(t, make_store(op, /*last=*/true));
  g.mo_insert(wid, n);
  return commit(t);
}

bool execution::eager_fence(std::size_t t) {
  model_thread& th = *threads[t];
  if (th.op.kind != op_kind::fence || th.half_rmw || th.cursor != g.threads[t].size()) return false;
  g.append(t, make_fence_or_join(th.op));
  return commit(t);
}

bool execution::restart(graph target) {
  teardown();
  g = std::move(target);
  return rerun();
}

bool execution::rerun() {
  teardown();
  reset_run();
  // Replayed threads post their first new operation and stop there, eager or not: the
  // explorer adds it (a load without a choice the way eager_load would).
  const bool was_eager = eager;
  eager = false;
  const bool ok = replay_recorded();
  eager = was_eager;
  return ok;
}

bool execution::replay_recorded() {
  for (;;) {
    bool pending = false;
    bool progress = false;
    for (std::size_t t = 0; t < threads.size() && !error; ++t) {
      model_thread& th = *threads[t];
      const std::size_t len = t < g.threads.size() ? g.threads[t].size() : 0;
      while (th.cursor < len && !error) {
        if (!th.has_op) {
          const std::size_t before = th.cursor;
          advance(t);
          if (th.cursor != before) progress = true;
          if (!th.has_op) break;  // finished or blocked: checked below
          if (th.cursor >= len) break;
        }
        if (!replay_ready(t)) break;
        commit(t);
        progress = true;
        if (th.half_rmw) break;
      }
      if (th.cursor < len) pending = true;
    }
    if (error) return false;
    if (!pending) return true;
    if (!progress) {
      error = error_state{error_kind::nondeterminism,
                          "re-execution could not replay the recorded graph (a thread finished "
                          "or blocked early): the client must be deterministic"};
      return false;
    }
  }
}

void execution::teardown() {
  tearing_down = true;
  for (std::size_t t = threads.size(); t-- > 0;) {
    model_thread& th = *threads[t];
    if (!th.started || th.finished) continue;
    th.unwinding = true;
    switch_to_fiber(t);  // throws unwind_request inside the fiber; it then finishes
  }
  current = 0;
  constexpr std::size_t max_spare = 64;  // a client allocating more per run frees the rest
  for (alloc_record& a : allocs) {
    if (spare_storage_.size() < max_spare)
      spare_storage_.emplace_back(a.bytes, a.storage);
    else
      ::operator delete (a.storage, std::align_val_t{alignof(std::max_align_t)});
  }
  allocs.clear();
  recycle_threads();
  tearing_down = false;
}

// Called by teardown while `tearing_down` is set: a body's captured state is destroyed here,
// as when the threads themselves were destroyed (a capture's destructor may use the runtime).
void execution::recycle_threads() {
  for (auto& th : threads) {
    th->body = nullptr;
    spare_threads_.push_back(std::move(th));
  }
  threads.clear();
}

std::unique_ptr<model_thread> execution::fresh_thread() {
  if (spare_threads_.empty()) return std::make_unique<model_thread>();
  std::unique_ptr<model_thread> th = std::move(spare_threads_.back());
  spare_threads_.pop_back();
  *th = model_thread{};
  return th;
}

void execution::grow_locs(std::uint32_t loc) {
  loc_addr.resize(loc + 1, 0);
  loc_freed.resize(loc + 1);
  shadow.resize(loc + 1, 0);
}

event_id execution::free_event(event e) {
  model_thread& th = me();
  const std::size_t t = current;
  const std::size_t len = t < g.threads.size() ? g.threads[t].size() : 0;
  if (th.cursor < len) {
    if (!replay_free(e.kind, e.loc, e.value, e.aux))
      fail(error_kind::nondeterminism, "re-execution of thread " + std::to_string(t) +
                                           " diverged at event " + std::to_string(th.cursor) +
                                           ": the client must be deterministic");
    return {static_cast<std::int32_t>(t), static_cast<std::int32_t>(th.cursor - 1)};
  }
  if (len >= cfg.max_events_per_thread && e.kind != event_kind::block && e.kind != event_kind::end)
    block(block_reason::bound);
  const event_id id = g.append(t, e);
  ++th.cursor;
  if (e.kind == event_kind::init) g.mo[e.loc].push_back(id);
  na_recorded = na_recorded || is_na(e);
  return id;
}

std::uint64_t execution::post(const pending_op& op) {
  model_thread& th = me();
  const std::size_t len = g.threads[current].size();
  if (th.cursor >= len && len >= cfg.max_events_per_thread) block(block_reason::bound);
  th.op = op;
  th.has_op = true;
  // Replaying a recorded event whose reads-from is replayed already: commit it right here,
  // without the two fiber switches through the explorer (most of a re-execution's cost).
  // An RMW whose write part is not recorded yet (commit returns false) goes to the explorer.
  if (th.cursor < len && !th.half_rmw && replay_ready(current) && commit(current)) {
    if (error) park();  // a mismatch: the re-execution stops (rerun reports it)
    return th.op.result;
  }
  // A new load, store or fence without a choice: recorded right here, as the explorer would
  // (eager_load, eager_store, eager_fence).
  if (eager && th.cursor == len &&
      (eager_load(current) || eager_store(current) || eager_fence(current)))
    return th.op.result;
  switch_to_main(false, /*in_post=*/true);
  return th.op.result;  // the caller replaces it when th.unwind_due (a teardown)
}

void execution::teardown_op_made() {
  const std::uint64_t budget = std::uint64_t{64} * cfg.max_events_per_thread;
  if (++me().teardown_ops <= budget) return;
  std::fprintf(stderr,
               "stealcheck: error: thread %zu did not finish unwinding within %llu operations: a "
               "destructor run while the checker abandons an unfinished execution loops over "
               "its state (destructors must tolerate a torn state, e.g. walk top..bottom by "
               "distance, not by i != bottom)\n",
               current, static_cast<unsigned long long>(budget));
  std::fflush(stderr);
  std::_Exit(2);
}

void execution::fail(error_kind k, std::string message) {
  if (!error && !tearing_down) error = error_state{k, std::move(message)};
  park();
}

void execution::block(block_reason why) {
  model_thread& th = me();
  event e;
  e.kind = event_kind::block;
  e.aux = static_cast<std::uint32_t>(why);
  if (!tearing_down) free_event(e);
  th.blocked = true;
  th.why = why;
  park();
}

void execution::park() {
  for (;;)
    switch_to_main(false);  // leaves only by unwind_request (teardown)
}

std::size_t execution::spawn(std::function<void()> body) {
  const std::size_t child = threads.size();
  if (child >= hb_cache::width && !tearing_down)
    fail(error_kind::assertion,
         "too many model threads (at most " + std::to_string(hb_cache::width) + ")");
  threads.push_back(fresh_thread());
  threads[child]->body = std::move(body);
  if (tearing_down) return child;
  const event_id id = record(event_kind::spawn, static_cast<std::uint32_t>(child));
  if (g.threads.size() <= child) {
    g.threads.resize(child + 1);
    g.info.resize(child + 1);
  }
  g.info[child].created_by = id;
  return child;
}

}  // namespace stealcheck::model::detail
