#include "stealcheck/detail/stress/oplog.hpp"

#include <cxxabi.h>
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizer runtimes' count of live allocated bytes (compiler-rt's
// sanitizer/allocator_interface.h, which g++ 12 does not install; libasan and libtsan export it).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#else
#include <malloc.h>
#endif
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <typeinfo>

namespace stealcheck::stress::oplog {
namespace {

board local_board;
board* active_board = &local_board;

std::string_view op_name(op o) {
  switch (o) {
    case op::push:
      return "push";
    case op::pop:
      return "pop";
    case op::steal:
      return "steal";
    case op::steal_batch:
      return "steal_batch";
    case op::own_pop:
      return "pop of its own deque";
    case op::size_hint:
      return "size_hint";
    case op::none:
      break;
  }
  return "?";
}

// "push(3)", "push(3) -> full", "pop -> 5", "steal -> empty"; running: "pop()", "push(3)".
std::string describe(const entry& e) {
  const std::uint32_t w = e.word.load(std::memory_order_relaxed);
  const auto o = static_cast<op>(w & 0xff);
  const auto how = static_cast<outcome>((w >> 8) & 0xff);
  std::string s(op_name(o));
  if ((w >> 16) & 1)
    s += fmt::format("({})", e.arg.load(std::memory_order_relaxed));
  else if (how == outcome::running && o != op::own_pop)
    s += "()";
  switch (how) {
    case outcome::running:
    case outcome::done:
      break;
    case outcome::value:
      s += fmt::format(" -> {}", e.result.load(std::memory_order_relaxed));
      break;
    case outcome::empty:
      s += " -> empty";
      break;
    case outcome::abort:
      s += " -> abort";
      break;
    case outcome::full:
      s += " -> full";
      break;
  }
  return s;
}

bool running(const thread_ring& r, std::uint64_t n) {
  return n > 0 &&
         static_cast<outcome>((r.e[(n - 1) % depth].word.load(std::memory_order_relaxed) >> 8) &
                              0xff) == outcome::running;
}

// ", after a, b, c": the operations before the last one (oldest first), or "".
std::string earlier(const thread_ring& r, std::uint64_t n, std::uint64_t skip_last) {
  const std::uint64_t end = n - skip_last;
  const std::uint64_t first = end > depth - skip_last ? end - (depth - skip_last) : 0;
  std::string s;
  for (std::uint64_t i = first; i < end; ++i)
    s += (s.empty() ? "" : ", ") + describe(r.e[i % depth]);
  if (s.empty()) return s;
  return (first > 0 ? ", after ..., " : ", after ") + s;
}

}  // namespace

board* active() noexcept {
  return active_board;
}

void activate(board* b) noexcept {
  active_board = b;
}

void reset() noexcept {
  board& b = *active_board;
  b.fault_thread.store(-1, std::memory_order_relaxed);
  b.verdict_ready.store(false, std::memory_order_relaxed);
  b.verdict[0] = '\0';
  for (thread_ring& r : b.threads)
    r.count.store(0, std::memory_order_relaxed);  // no recording thread runs (Thread role)
}

void add_harness_bytes(std::int64_t delta) noexcept {
  // relaxed: a tally the parent reads while polling; it orders nothing
  active_board->harness_bytes.fetch_add(delta, std::memory_order_relaxed);
}

std::uint64_t heap_bytes() noexcept {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return __sanitizer_get_current_allocated_bytes();
#else
  const struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
#endif
}

void return_free_memory() noexcept {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  ::malloc_trim(0);
#endif
}

void set_context(std::string_view text) noexcept {
  board& b = *active_board;
  const std::size_t n = std::min(text.size(), sizeof b.context - 1);
  std::memcpy(b.context, text.data(), n);
  b.context[n] = '\0';
}

void set_verdict(std::string_view text, failure_kind kind) noexcept {
  board& b = *active_board;
  const std::size_t n = std::min(text.size(), sizeof b.verdict - 1);
  std::memcpy(b.verdict, text.data(), n);
  b.verdict[n] = '\0';
  b.verdict_kind = kind;
  b.verdict_ready.store(true, std::memory_order_release);  // pairs with verdict()'s acquire
}

std::string verdict(const board& b) {
  // A reader in the parent after the child stopped, or in the process after the join.
  return b.verdict_ready.load(std::memory_order_acquire) ? std::string(b.verdict) : std::string();
}

std::optional<failure_kind> verdict_kind(const board& b) {
  // acquire: as verdict()
  if (!b.verdict_ready.load(std::memory_order_acquire)) return std::nullopt;
  return b.verdict_kind;
}

int current_thread() noexcept {
  return detail::current;
}

std::string thread_name(int thread) {
  return thread == 0 ? std::string("owner") : fmt::format("thief {}", thread);
}

bool inside(const board& b, std::uint32_t thread) {
  return thread < max_threads &&
         running(b.threads[thread], b.threads[thread].count.load(std::memory_order_acquire));
}

std::vector<std::uint64_t> progress(const board& b) {
  std::vector<std::uint64_t> out;
  out.reserve(max_threads);
  for (const thread_ring& r : b.threads)
    out.push_back(r.count.load(std::memory_order_acquire));  // pairs with begin()'s release
  return out;
}

std::string locate(const board& b, int thread) {
  if (thread < 0 || static_cast<std::uint32_t>(thread) >= max_threads)
    return thread < 0 ? "outside the deque's threads" : thread_name(thread);
  const thread_ring& r = b.threads[thread];
  const std::uint64_t n = r.count.load(std::memory_order_acquire);
  if (n == 0) return thread_name(thread) + " before its first operation";
  if (running(r, n))
    return fmt::format("{} during {}{}", thread_name(thread), describe(r.e[(n - 1) % depth]),
                       earlier(r, n, 1));
  std::string s = earlier(r, n, 0);  // ", after ..."
  return thread_name(thread) + " between operations" + s;
}

std::string locate_fault(const board& b) {
  const int t = b.fault_thread.load(std::memory_order_relaxed);
  if (t >= 0) return locate(b, t);
  std::vector<std::string> where;
  for (std::uint32_t i = 0; i < max_threads; ++i) {
    if (running(b.threads[i], b.threads[i].count.load(std::memory_order_acquire)))
      where.push_back(locate(b, static_cast<int>(i)));
  }
  if (where.empty()) return "";
  if (where.size() == 1) return where[0];
  return fmt::format("one of: {}", fmt::join(where, "; "));
}

std::string locate_stuck(const board& b, const std::vector<std::uint64_t>& before) {
  std::vector<std::string> stuck, all;
  for (std::uint32_t i = 0; i < max_threads; ++i) {
    const thread_ring& r = b.threads[i];
    const std::uint64_t n = r.count.load(std::memory_order_acquire);
    if (n == 0) continue;
    all.push_back(locate(b, static_cast<int>(i)));
    if (running(r, n) && i < before.size() && before[i] == n) {
      std::string s = locate(b, static_cast<int>(i));
      s.replace(s.find(" during "), 8, " stuck in ");
      stuck.push_back(std::move(s));
    }
  }
  if (!stuck.empty()) return fmt::format("{}", fmt::join(stuck, "; "));
  if (all.empty()) return "no deque operation had begun";
  return fmt::format("no thread stayed inside one operation (a livelock across operations): {}",
                     fmt::join(all, "; "));
}

std::string describe_exception(const std::exception_ptr& e) {
  if (!e) return "unknown exception";
  std::string type = "unknown exception";
  if (const std::type_info* t = e.__cxa_exception_type()) {
    int status = 0;
    char* name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
    type = status == 0 && name != nullptr ? name : t->name();
    std::free(name);
  }
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return type + ": " + x.what();
  } catch (...) {
  }
  return type;
}

std::string threw(const std::exception_ptr& e, const board& b, int thread) {
  return fmt::format("threw {} in {}", describe_exception(e), locate(b, thread));
}

void record_into(tape* t) noexcept {
  detail::recording = t;
}

std::optional<lincheck::history> history_of(const tape& t, std::string& why_not) {
  if (t.overflowed()) {
    why_not = "the run recorded more operations than the tape keeps (try fewer --ops)";
    return std::nullopt;
  }
  lincheck::history h;
  for (std::size_t thread = 0; thread < t.threads().size(); ++thread) {
    for (const tape::entry& e : t.threads()[thread]) {
      if (e.how == outcome::running) {
        why_not = fmt::format("{} never returned from an operation",
                              thread_name(static_cast<int>(thread)));
        return std::nullopt;
      }
      lincheck::operation o;
      o.thread = static_cast<std::uint32_t>(thread);
      o.invoke = e.invoke;
      o.response = e.response;
      switch (e.what) {
        case op::push:
          if (e.how == outcome::full) continue;  // nothing was pushed
          o.kind = spec::op_kind::push;
          o.value = e.arg;
          o.has_value = true;
          break;
        case op::pop:
          o.kind = spec::op_kind::pop;
          if (e.how == outcome::value) o.set_taken(e.result);
          break;
        case op::steal:
          o.kind = spec::op_kind::steal;
          o.status = e.how == outcome::value   ? steal_status::item
                     : e.how == outcome::abort ? steal_status::abort
                                               : steal_status::empty;
          if (e.how == outcome::value) o.set_taken(e.result);
          break;
        case op::size_hint:
        case op::none:
          continue;
        case op::steal_batch:
        case op::own_pop:
          why_not =
              "the scenario steals in batches or pops thieves' own deques: its operations "
              "are not one deque's history";
          return std::nullopt;
      }
      h.push_back(std::move(o));
    }
  }
  std::sort(h.begin(), h.end(), [](const lincheck::operation& a, const lincheck::operation& b) {
    return a.invoke < b.invoke;
  });
  return h;
}

}  // namespace stealcheck::stress::oplog
// SPDX-License-Identifier: Apache-2.0
