// models/runtime/runtime_api.hpp: the calls model::memory makes into the running exploration.
//
// Thread role: called from model threads (fibers) of the exploration in progress, on the
// explorer's OS thread. Requires: an exploration is running (model::explore); otherwise each
// call reports "model::memory used outside model::explore" and aborts.
// Values travel as 64-bit patterns zero-extended from the access width.
// Errors: an access to freed memory, a double free, a failed check: the call records the bug
// and the calling fiber never resumes (the explorer reports and unwinds it).
// Complexity: O(1) amortised per call, plus one fiber switch for each atomic access.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/models/graph/event.hpp"

namespace stealcheck::model::detail {

enum class loc_kind : std::uint8_t { atomic, nonatomic, mutex };
/// A new location's kind and value width, together: one argument register, so that
/// rt_location's arguments all travel in registers.
struct loc_shape {
  loc_kind kind;
  std::uint8_t width;
};
constexpr loc_shape shape_of(loc_kind k, std::size_t width) noexcept {
  return {k, static_cast<std::uint8_t>(width)};
}

/// A new location; `name` (a string literal, or null) is kept as a pointer.
std::uint32_t rt_location(loc_shape shape, std::uint64_t init, std::uintptr_t addr, source_loc src,
                          const char* name);
std::uint64_t rt_load(std::uint32_t loc, std::memory_order o, source_loc src);
void rt_store(std::uint32_t loc, std::uint64_t v, std::memory_order o, source_loc src);
std::uint64_t rt_rmw(std::uint32_t loc, rmw_op op, std::uint64_t operand, std::memory_order o,
                     source_loc src);
bool rt_cas(std::uint32_t loc, std::uint64_t& expected, std::uint64_t desired, bool weak,
            std::memory_order ok, std::memory_order fail, source_loc src);
void rt_fence(std::memory_order o, source_loc src);
void rt_na_access(std::uint32_t loc, bool write, source_loc src);
void rt_lock(std::uint32_t loc, source_loc src);
bool rt_try_lock(std::uint32_t loc, source_loc src);
void rt_unlock(std::uint32_t loc, source_loc src);
void rt_assume(bool cond, source_loc src);
/// An atomic wait: a load of loc with order o; blocks the thread (block_reason::wait) when it
/// reads `old`.
void rt_wait(std::uint32_t loc, std::uint64_t old, std::memory_order o, source_loc src);
std::memory_order rt_site_order(const site& s) noexcept;
/// Whether the calling fiber's execution is being abandoned (its stack unwound).
bool rt_unwinding() noexcept;
/// The index of the calling model thread in its execution (0: the client's main thread).
std::size_t rt_thread() noexcept;
/// Whether the exploration running on this OS thread overrides site orders (set with the
/// current execution): without overrides, memory::order is the site's own, inline.
extern constinit thread_local bool tls_sites_overridden;

/// Allocation: storage for `count` objects of `size` bytes each; `destroy(p, count)` runs
/// the destructors (used when a run is abandoned). rt_alloc_array: the same for an array
/// named `name` (a string literal, or null) made at `src`, which its alloc event records;
/// rt_array_element(i, src) says the constructor that runs next makes its element i of the
/// array made at src (for location names, and the source line its construction reports).
void* rt_alloc(std::size_t size, std::size_t align, std::size_t count,
               void (*destroy)(void*, std::size_t));
void* rt_alloc_array(std::size_t size, std::size_t count, void (*destroy)(void*, std::size_t),
                     const char* name, source_loc src);
void rt_array_element(std::uint32_t i, source_loc src);
/// Begins freeing p (checks double/invalid free; returns false if the destructor must not
/// run), then, after the destructors ran, ends it (the free event).
bool rt_free_begin(const void* p, bool array);
void rt_free_end(const void* p);

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
