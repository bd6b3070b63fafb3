// models/runtime/memory.hpp: stealcheck::model::memory, the model-checking memory backend.
//
// Same interface as stealcheck::native_memory (deques/memory.hpp), instrumented: every
// atomic access and fence becomes an event of the execution graph the explorer builds
// (models/explore/trust.hpp); non-atomic accesses are checked for C11 data races; allocation is
// tracked (use-after-free, double free and leaks are bug reports). Each operation records
// where it was called from (stealcheck::source_loc, defaulted); each location its name
// (deques/memory.hpp, "Location names": a pointer, kept; the text is read when printing).
//
// Thread role: model threads of a running model::explore only (the explorer's fibers).
// Requires: U trivially copyable, at most 8 bytes, for atomic<U>.
// Memory ordering: exactly RC11 (or SC when the exploration chooses it): the explorer
// enumerates every consistent reads-from / modification order. atomic::wait blocks until it
// reads a value other than the one it waits on (a lost wake-up is a deadlock: see wait()).
// A failed compare-exchange is a read with the *failure* order; a weak compare-exchange may
// also fail spuriously (an explored choice); consume is acquire; a relaxed fence is no fence.
// Errors: see models/runtime/runtime_api.hpp. Complexity: one fiber switch per atomic access.
// Source: C++20 [atomics]; RC11 (Lahav et al., PLDI 2017).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/models/graph/site_ids.hpp"
#include "stealcheck/detail/models/runtime/runtime_api.hpp"

namespace stealcheck::model {

namespace detail {
template <class U>
std::uint64_t to_bits(const U& v) noexcept {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(U));
  return b;
}
template <class U>
U from_bits(std::uint64_t b) noexcept {
  U v;
  std::memcpy(&v, &b, sizeof(U));
  return v;
}
inline std::uintptr_t addr_of(const void* p) noexcept {
  return reinterpret_cast<std::uintptr_t>(p);
}
template <class U>
void destroy_n(void* p, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i)
    static_cast<U*>(p)[i].~U();
}
}  // namespace detail

/// Blocks the calling model thread unless `cond` holds: the execution is then counted as
/// *blocked*, not complete (the spin-loop primitive: `while (!flag.load(acq)) spin_assume(false)`
/// is written `spin_assume(flag.load(acq))`). Thread role: model thread.
inline void spin_assume(bool cond, source_loc src = source_loc::current()) {
  detail::rt_assume(cond, src);
}

/// A memory order and the site it came from: what memory::order returns. It converts to the
/// order, so code that stores it in a std::memory_order keeps working (without the site).
struct sited_order {
  std::memory_order order;
  std::uint32_t site;  ///< site_id of the site
  constexpr operator std::memory_order() const noexcept { return order; }
};

/// The memory-order argument of model atomics and fences: a plain std::memory_order, or a
/// site's (then the event records the site: reports print its name).
struct order_arg {
  std::memory_order order;
  std::uint32_t site = 0;
  constexpr order_arg(std::memory_order o) noexcept : order(o) {}
  constexpr order_arg(sited_order s) noexcept : order(s.order), site(s.site) {}
};

namespace detail {
/// src with the site of o (when it has one).
constexpr source_loc at_site(source_loc src, order_arg o) noexcept {
  if (o.site != 0) src.site = o.site;
  return src;
}
}  // namespace detail

struct memory {
  static constexpr std::string_view name = "model";

  template <class U>
  class atomic {
    static_assert(std::is_trivially_copyable_v<U> && sizeof(U) <= 8,
                  "model::memory::atomic<U> needs a trivially copyable U of at most 8 bytes");
    using mo = order_arg;
    static constexpr std::memory_order sc = std::memory_order_seq_cst;

   public:
    atomic(source_loc src = source_loc::current())
        : loc_(detail::rt_location(detail::shape_of(detail::loc_kind::atomic, sizeof(U)), 0,
                                   detail::addr_of(this), src, nullptr)) {}
    atomic(U v, source_loc src = source_loc::current())
        : loc_(detail::rt_location(detail::shape_of(detail::loc_kind::atomic, sizeof(U)),
                                   detail::to_bits(v), detail::addr_of(this), src, nullptr)) {}
    /// A named location (deques/memory.hpp, "Location names"): `label` must outlive the
    /// exploration (a string literal).
    atomic(U v, const char* label, source_loc src = source_loc::current())
        : loc_(detail::rt_location(detail::shape_of(detail::loc_kind::atomic, sizeof(U)),
                                   detail::to_bits(v), detail::addr_of(this), src, label)) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    U load(mo o = sc, source_loc s = source_loc::current()) const {
      return detail::from_bits<U>(detail::rt_load(loc_, o.order, detail::at_site(s, o)));
    }
    void store(U v, mo o = sc, source_loc s = source_loc::current()) {
      detail::rt_store(loc_, detail::to_bits(v), o.order, detail::at_site(s, o));
    }
    U exchange(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::exchange, v, o, s);
    }
    bool compare_exchange_strong(U& expected, U desired, mo ok, mo fail,
                                 source_loc s = source_loc::current()) {
      return cas(expected, desired, false, ok, fail, s);
    }
    bool compare_exchange_strong(U& expected, U desired, mo o = sc,
                                 source_loc s = source_loc::current()) {
      return cas(expected, desired, false, o, default_failure(o.order), s);
    }
    bool compare_exchange_weak(U& expected, U desired, mo ok, mo fail,
                               source_loc s = source_loc::current()) {
      return cas(expected, desired, true, ok, fail, s);
    }
    bool compare_exchange_weak(U& expected, U desired, mo o = sc,
                               source_loc s = source_loc::current()) {
      return cas(expected, desired, true, o, default_failure(o.order), s);
    }
    U fetch_add(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::add, v, o, s);
    }
    U fetch_sub(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::sub, v, o, s);
    }
    U fetch_and(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::band, v, o, s);
    }
    U fetch_or(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::bor, v, o, s);
    }
    U fetch_xor(U v, mo o = sc, source_loc s = source_loc::current()) {
      return rmw(rmw_op::bxor, v, o, s);
    }

    /// C++20 atomic wait, by value: a load with order o that blocks the model thread when it
    /// reads `old`. Where a later write changes the value, another execution reads that write
    /// and returns; if no thread can run and the location's last value is still `old`, nothing
    /// can ever wake the thread: error_kind::deadlock (a lost wake-up). No spurious returns.
    void wait(U old, mo o = sc, source_loc s = source_loc::current()) const {
      detail::rt_wait(loc_, detail::to_bits(old), o.order, detail::at_site(s, o));
    }
    /// No events: a wait returns on a change of value, which every wake-up of the protocols
    /// checked here makes before it notifies (a notify without a change wakes nobody for good:
    /// std::atomic::wait re-checks the value and sleeps again).
    void notify_one() const noexcept {}
    void notify_all() const noexcept {}

   private:
    static constexpr std::memory_order default_failure(std::memory_order o) noexcept {
      if (o == std::memory_order_acq_rel) return std::memory_order_acquire;
      if (o == std::memory_order_release) return std::memory_order_relaxed;
      return o;
    }
    U rmw(rmw_op op, U v, mo o, source_loc s) {
      return detail::from_bits<U>(
          detail::rt_rmw(loc_, op, detail::to_bits(v), o.order, detail::at_site(s, o)));
    }
    bool cas(U& expected, U desired, bool weak, mo ok, mo fail, source_loc s) {
      std::uint64_t e = detail::to_bits(expected);
      const bool won = detail::rt_cas(loc_, e, detail::to_bits(desired), weak, ok.order, fail.order,
                                      detail::at_site(detail::at_site(s, fail), ok));
      if (!won) expected = detail::from_bits<U>(e);
      return won;
    }
    std::uint32_t loc_;
  };

  /// Plain shared data: each read()/write() is an access checked for data races.
  template <class U>
  class nonatomic {
   public:
    // Reports give a location the line that declares it: src, or the `named`'s own line.
    explicit nonatomic(source_loc src = source_loc::current())
        : loc_(location(src, nullptr)), value_() {}
    // (nonatomic is neither copied nor moved, below: there is no constructor to hide)
    template <not_a_name V>
    explicit nonatomic(V&& v,  // NOLINT(bugprone-forwarding-reference-overload)
                       source_loc src = source_loc::current())
        : loc_(location(src, nullptr)), value_(std::forward<V>(v)) {}
    template <not_a_name A0, not_a_name A1, not_a_name... A>
    explicit nonatomic(A0&& a0, A1&& a1, A&&... args)
        : loc_(location(source_loc::current(), nullptr)),
          value_(std::forward<A0>(a0), std::forward<A1>(a1), std::forward<A>(args)...) {}
    /// A named location (deques/memory.hpp, "Location names").
    template <class... A>
    explicit nonatomic(named label, A&&... args)
        : loc_(location(label.where, label.text)), value_(std::forward<A>(args)...) {}
    nonatomic(const nonatomic&) = delete;  // a location is its address: never copied
    nonatomic& operator=(const nonatomic&) = delete;
    const U& read(source_loc s = source_loc::current()) const {
      detail::rt_na_access(loc_, false, s);
      return value_;
    }
    U& write(source_loc s = source_loc::current()) {
      detail::rt_na_access(loc_, true, s);
      return value_;
    }

   private:
    std::uint32_t location(source_loc src, const char* label) {
      return detail::rt_location(detail::shape_of(detail::loc_kind::nonatomic, 0), 0,
                                 detail::addr_of(this), src, label);
    }
    std::uint32_t loc_;
    U value_;
  };

  /// BasicLockable + try_lock. lock() is an acquire CAS 0 -> 1 that blocks the model thread
  /// while the mutex is held; unlock() a release store of 0.
  class mutex {
   public:
    mutex(source_loc s = source_loc::current())
        : loc_(detail::rt_location(detail::shape_of(detail::loc_kind::mutex, 1), 0,
                                   detail::addr_of(this), s, nullptr)) {}
    /// A named location (deques/memory.hpp, "Location names").
    explicit mutex(const char* label, source_loc s = source_loc::current())
        : loc_(detail::rt_location(detail::shape_of(detail::loc_kind::mutex, 1), 0,
                                   detail::addr_of(this), s, label)) {}
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;
    void lock(source_loc s = source_loc::current()) { detail::rt_lock(loc_, s); }
    bool try_lock(source_loc s = source_loc::current()) { return detail::rt_try_lock(loc_, s); }
    void unlock(source_loc s = source_loc::current()) { detail::rt_unlock(loc_, s); }

   private:
    std::uint32_t loc_;
  };

  /// The site's order, or the override the running exploration set for its name.
  [[gnu::always_inline]] static sited_order order(const site& s) {
    return {detail::tls_sites_overridden ? detail::rt_site_order(s) : s.order, site_id(s)};
  }

  static void fence(order_arg o, source_loc s = source_loc::current()) {
    if (o.order == std::memory_order_relaxed) return;  // a relaxed fence is no fence
    detail::rt_fence(o.order, detail::at_site(s, o));
  }

  /// Two events: the fence (if not relaxed), then the store.
  template <class A, class V>
  static void fence_then_store(A& a, V v, order_arg fence_order, order_arg store_order,
                               source_loc s = source_loc::current()) {
    fence(fence_order, s);
    a.store(v, store_order, s);
  }

  /// A store that C11 already orders after an earlier release fence of the same thread
  /// (deques/memory.hpp): under the model checker exactly store(v, order).
  template <class A, class V>
  static void fence_covered_store(A& a, V v, order_arg order,
                                  source_loc s = source_loc::current()) {
    a.store(v, order, s);
  }

  /// A blocking wait until a.load(order) != old (atomic::wait): a spin loop of the native
  /// backend is one wait here, and a value that never changes is a deadlock.
  template <class A, class V>
  static void spin_while_equal(const A& a, V old, order_arg order,
                               source_loc s = source_loc::current()) {
    a.wait(old, order, s);
  }

  /// Before retrying a loop iteration that only loaded (deques/memory.hpp): blocks the
  /// execution, as spin_assume(false); the executions whose loads let the loop go on cover it.
  static void retry_read_only(source_loc s = source_loc::current()) { spin_assume(false, s); }

  /// The exception being handled (call inside a catch handler), as std::current_exception();
  /// the exception that unwinds an abandoned execution is rethrown instead, so that a
  /// catch (...) in the code under test does not keep the thread running.
  static std::exception_ptr caught_exception() {
    if (detail::rt_unwinding()) throw;
    return std::current_exception();
  }

  /// Whether the calling fiber is being unwound because its execution is abandoned
  /// (deques/memory.hpp, native_memory::unwinding); records no event.
  static bool unwinding() noexcept { return detail::rt_unwinding(); }

  /// Which model thread runs (deques/memory.hpp, native_memory::this_thread); records no event.
  using thread_id = std::size_t;
  static thread_id this_thread() noexcept { return detail::rt_thread(); }

  template <class U, class... A>
  static U* create(A&&... args) {
    void* p = detail::rt_alloc(sizeof(U), alignof(U), 1, &detail::destroy_n<U>);
    return ::new (p) U(std::forward<A>(args)...);
  }
  template <class U>
  static void destroy(U* p) {
    if (p == nullptr) return;
    if (detail::rt_free_begin(p, false)) p->~U();
    detail::rt_free_end(p);
  }
  /// n value-initialised objects; each location among them is element i of the allocation,
  /// named after `label` (or, unnamed, after the line of the call: deques/memory.hpp).
  template <class U>
  static U* create_array(std::size_t n, const char* label = nullptr,
                         source_loc src = source_loc::current()) {
    void* p = detail::rt_alloc_array(sizeof(U), n, &detail::destroy_n<U>, label, src);
    U* a = static_cast<U*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      detail::rt_array_element(static_cast<std::uint32_t>(i), src);
      ::new (static_cast<void*>(a + i)) U();
    }
    return a;
  }
  template <class U>
  static void destroy_array(U* p, std::size_t n) {
    if (p == nullptr) return;
    if (detail::rt_free_begin(p, true)) detail::destroy_n<U>(p, n);
    detail::rt_free_end(p);
  }
};

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
