// deques/memory.hpp: the memory-backend seam and memory-order sites.
//
// Every deque in stealcheck is written once, as a template on a memory backend `Mem`, so the
// very same source runs natively (this file's `native_memory`) and under the model checker
// (`stealcheck::model::memory`, models/runtime/memory.hpp). A backend provides:
//
//   Mem::atomic<U>            std::atomic<U>'s interface (load, store, exchange,
//                             compare_exchange_strong/_weak, fetch_add/sub/and/or/xor); every
//                             operation takes its memory order explicitly. One more
//                             constructor, atomic(v, "name"): see "Location names" below.
//   Mem::fence(order)         std::atomic_thread_fence; a `relaxed` fence is no fence.
//   Mem::fence_then_store(a, v, fence_order, store_order)
//                             the publication idiom "fence; store" in one call (see below).
//   Mem::fence_covered_store(a, v, order)
//                             a store that relies on an *earlier* release fence of the same
//                             thread to publish what came before that fence (see below).
//   Mem::nonatomic<U>         plain shared data: read() / write() return a reference; under the
//                             model checker each call is an access checked for C11 data races.
//                             nonatomic(named{"name"}, args...) names it.
//   Mem::mutex                BasicLockable + try_lock; mutex("name") names it.
//   Mem::create<U>(args...) / Mem::destroy(p)          one object.
//   Mem::create_array<U>(n[, "name"[, where]]) / Mem::destroy_array(p, n)
//                             n value-initialised objects; `where` (default: the call)
//                             is the source line an unnamed array, and the alloc event,
//                             print as (a helper passes its caller's).
//                             Under the model checker these are tracked (use-after-free,
//                             double free and leaks are bug reports).
//   Mem::order(site)          the memory order of a named site (below).
//   Mem::spin_while_equal(a, old, order)
//                             waits until a load of `a` reads a value other than `old`:
//                             natively a spin (for waits whose end is near, a join); under
//                             the model checker a blocking wait (a value that never changes
//                             is a deadlock), so a spin loop is one event, not a bound hit.
//   Mem::retry_read_only()    called before a loop retries an iteration that only loaded
//                             (it wrote nothing and read values it cannot act on, such as
//                             an inconsistent pair of indices): natively a pause; under the
//                             model checker the execution is blocked (an assume), since the
//                             executions whose loads read values that let it go on cover
//                             the retry. A spin on stale reads is then one blocked execution,
//                             not a run to the event bound.
//   Mem::caught_exception()   std::current_exception() inside a catch (...); under the model
//                             checker it rethrows the exception that abandons an execution.
//   Mem::unwinding()          under the model checker, whether the calling thread is being
//                             unwound because its execution is abandoned: a destructor that
//                             would wait for other threads (a task group's) returns at once;
//                             natively always false.
//   a.wait(old, order), a.notify_one(), a.notify_all()
//                             C++20 atomic wait/notify (a futex natively; under the model
//                             checker a wait blocks until the value differs from `old`).
//
// Location names. The model checker's reports (traces, DOT, error messages) name each memory
// location. A deque names its locations with one argument where it makes them:
//   typename Mem::template atomic<std::int64_t> top_{0, "top"};
//   typename Mem::template nonatomic<std::deque<T>> items_{named{"items"}};
//   mutable typename Mem::mutex mutex_{"mutex"};
//   slots = Mem::template create_array<typename Mem::template atomic<T>>(n, "ring");
// The name must outlive the exploration (a string literal: the model backend keeps the
// pointer and reads the text only when it prints). The native backend ignores it: no storage,
// no code (native_memory::atomic<U> is std::atomic<U> with that one constructor more).
// Under the model checker a location prints as
//   top              a named atomic, nonatomic or mutex;
//   ring#2[1]        element 1 of the 2nd array named "ring" in the execution (in
//                    allocation order; the trace's alloc event says `alloc ring#2 (8 elements)`);
//   chase_lev.hpp:57 an unnamed one: the file and line of its construction;
//   deque.hpp:80#2[1] element 1 of the 2nd unnamed array allocated at that line.
// When several scalar locations print alike (two deques' `top`, two atomics made on one line),
// each gets its ordinal too: top#1, top#2 (in the order the checker first created them).
//
// Memory-order sites (docs/design.md, "Memory backends and memory-order sites"). Every
// memory-order argument in a deque names a `site`, declared once per variant in a `*_sites`
// struct. Natively `Mem::order(s)` is a constant expression; under the model checker it can be
// overridden at run time, which is how mutation analysis and known-bad variants are produced
// without editing the deque source.
//
// ThreadSanitizer and fences. TSan does not model std::atomic_thread_fence: a release fence
// followed by a relaxed store, read by an acquire load, is reported as a race although C11
// orders it. Following crossbeam-deque, TSan builds (and only those) replace the fence-based
// synchronization by release stores, through two backend calls:
//   - fence_then_store(a, v, release, relaxed): "release fence; relaxed store" becomes one
//     release store of v;
//   - fence_covered_store(a, v, relaxed): a *later* relaxed store of the same thread becomes a
//     release store. C11 needs this: a release fence synchronizes with an acquire load that
//     reads *any* later store of the thread, so in chase_lev a thief that reads bottom from
//     pop's relaxed store still sees the slots pushed before push's fence. A release store
//     alone would not (C++20 release sequences end at a plain store): the model checker found
//     exactly that bug in an early steal_half, which publishes with release stores and so
//     makes every store of bottom a release store.
// Both substitutions only add synchronization that C11 already provides, so a TSan run checks
// what the fences are there for (plain data published through bottom) without false reports.
// seq_cst fences are still executed (real barriers on x86), but TSan cannot see what they
// order; the stress tests say what a TSan run does and does not prove. g++ warns about every
// fence under -fsanitize=thread (-Wtsan); the tsan preset silences that one warning because
// the substitutions above are deliberate.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

namespace stealcheck {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool under_tsan = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool under_tsan = true;
#else
inline constexpr bool under_tsan = false;
#endif
#else
inline constexpr bool under_tsan = false;
#endif

/// A spin-wait hint to the processor (x86 PAUSE; nothing elsewhere).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Where in the source an access is. Like std::source_location, but built on the
/// __builtin_FILE/__builtin_LINE intrinsics, which clang 14 with libstdc++ 12 also accepts
/// (std::source_location does not compile there; see docs/toolchain.md).
struct source_loc {
  const char* file = "";
  unsigned line = 0;
  /// The memory-order site whose order the access here uses, as the model checker numbers
  /// sites (models/graph/site_ids.hpp), so its reports can name it; 0: none (and always natively).
  std::uint32_t site = 0;
  static constexpr source_loc current(const char* f = __builtin_FILE(),
                                      unsigned l = __builtin_LINE()) noexcept {
    return source_loc{f, l};
  }
};

/// What kind of operation a site gives its order to. It bounds the orders an override may use
/// (a load cannot be release, a failure order cannot be release/acq_rel).
enum class site_kind : std::uint8_t { load, store, rmw, cas_failure, fence };

/// A named memory-order site (docs/design.md, "Memory backends and memory-order sites").
/// `name` is "variant::operation.what" (e.g. "chase_lev::pop.fence"); `why` is the one-line
/// justification also written at the use: what it synchronizes with and why weaker breaks.
struct site {
  std::string_view name;
  std::memory_order order;
  site_kind kind;
  std::string_view why;
};

/// The sites of several lists, in order, as one list: a variant whose sites are another's plus
/// its own (deques/the.hpp's ticket lock), or a protocol made of parts (the scheduler's). The
/// lengths add up at compile time, so no list's length is written by hand.
template <std::size_t... N>
constexpr std::array<const site*, (N + ... + 0)> concat_sites(
    const std::array<const site*, N>&... parts) {
  std::array<const site*, (N + ... + 0)> all{};
  std::size_t n = 0;
  ((std::copy(parts.begin(), parts.end(), all.begin() + static_cast<std::ptrdiff_t>(n)), n += N),
   ...);
  return all;
}

constexpr std::string_view order_name(std::memory_order o) noexcept {
  switch (o) {
    case std::memory_order_relaxed:
      return "relaxed";
    case std::memory_order_consume:
      return "consume";
    case std::memory_order_acquire:
      return "acquire";
    case std::memory_order_release:
      return "release";
    case std::memory_order_acq_rel:
      return "acq_rel";
    case std::memory_order_seq_cst:
      return "seq_cst";
  }
  return "?";
}

/// A location's name for the nonatomic constructor (see "Location names" above): a distinct
/// type, since `nonatomic<U>`'s other constructor forwards any arguments to `U`'s.
struct named {
  const char* text = nullptr;
  /// Where the location is declared, for the model checker's reports: as a default member
  /// initializer, the line of the braces that build this `named` (the declaration's).
  source_loc where = source_loc::current();
};
/// An argument that is not a `named` (nonatomic's forwarding constructor takes only these).
template <class A>
concept not_a_name = !std::is_same_v<std::remove_cvref_t<A>, named>;

/// The native backend: std::atomic, std::atomic_thread_fence, plain variables, std::mutex,
/// new/delete. Zero overhead: every call inlines to what hand-written code would be.
struct native_memory {
  static constexpr std::string_view name = "native";

  /// std::atomic<U>, plus a constructor that takes a location name and ignores it.
  template <class U>
  struct atomic : std::atomic<U> {
    using std::atomic<U>::atomic;
    using std::atomic<U>::operator=;
    constexpr atomic() noexcept = default;
    constexpr atomic(U v, const char* /*name*/) noexcept : std::atomic<U>(v) {}
  };

  /// std::mutex, plus a constructor that takes a location name and ignores it.
  struct mutex : std::mutex {
    constexpr mutex() noexcept = default;
    explicit constexpr mutex(const char* /*name*/) noexcept {}
  };

  /// Plain (non-atomic) shared data. Natively just the value.
  template <class U>
  class nonatomic {
   public:
    template <not_a_name... A>
    explicit nonatomic(A&&... args) : value_(std::forward<A>(args)...) {}
    template <class... A>
    explicit nonatomic(named /*name*/, A&&... args) : value_(std::forward<A>(args)...) {}
    const U& read() const noexcept { return value_; }
    U& write() noexcept { return value_; }

   private:
    U value_;
  };

  static constexpr std::memory_order order(const site& s) noexcept { return s.order; }

  static void fence(std::memory_order o) noexcept {
    if (o == std::memory_order_relaxed) return;  // a relaxed fence is no fence
    std::atomic_thread_fence(o);  // under TSan still executed (a real barrier), but unmodelled
  }

  /// "fence(fence_order); a.store(v, store_order)" -- the publication idiom of push.
  /// Under TSan a release fence becomes a release store (see the file comment).
  template <class A, class V>
  static void fence_then_store(A& a, V v, std::memory_order fence_order,
                               std::memory_order store_order) noexcept {
    if constexpr (under_tsan) {
      if (fence_order == std::memory_order_release || fence_order == std::memory_order_acq_rel) {
        a.store(v, std::memory_order_release);
        return;
      }
    }
    fence(fence_order);
    a.store(v, store_order);
  }

  /// A store that relies on an earlier release fence of this thread (see the file comment).
  template <class A, class V>
  static void fence_covered_store(A& a, V v, std::memory_order order) noexcept {
    a.store(v,
            under_tsan && order == std::memory_order_relaxed ? std::memory_order_release : order);
  }

  /// Spins until a.load(order) != old. Thread role: any. Complexity: until the change.
  template <class A, class V>
  static void spin_while_equal(const A& a, V old, std::memory_order order) noexcept {
    while (a.load(order) == old)
      cpu_relax();
  }

  /// Before retrying a loop iteration that only loaded (see the file comment): a pause.
  static void retry_read_only() noexcept { cpu_relax(); }

  /// The exception being handled (call inside a catch handler).
  static std::exception_ptr caught_exception() noexcept { return std::current_exception(); }

  /// Whether the calling thread unwinds an execution the model checker abandons: never here.
  static constexpr bool unwinding() noexcept { return false; }

  /// Which thread runs: equal on the same thread, different on two threads alive at once (the
  /// model backend answers with the model thread). Code that must tell "the thread that
  /// created this object" from any other asks here (scheduler/pool.hpp's own_worker).
  using thread_id = std::thread::id;
  static thread_id this_thread() noexcept { return std::this_thread::get_id(); }

  template <class U, class... A>
  static U* create(A&&... args) {
    return new U(std::forward<A>(args)...);
  }
  template <class U>
  static void destroy(U* p) noexcept {
    delete p;
  }
  template <class U>
  static U* create_array(std::size_t n, const char* /*name*/ = nullptr,
                         source_loc /*where*/ = source_loc::current()) {
    return new U[n]();
  }
  template <class U>
  static void destroy_array(U* p, std::size_t /*n*/) noexcept {
    delete[] p;
  }
};

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
