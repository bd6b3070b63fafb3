// models/graph/event.hpp: the events of an execution graph (one concept: what an event is).
//
// An event is one memory operation of one model thread, identified by (thread, index) where
// index counts the thread's events in program order (po). Kinds follow RC11 (Lahav et al.,
// PLDI 2017, section 3): reads, writes (an RMW is a read part and a write part, adjacent in
// po and linked by the `rmw` flag), fences, plus bookkeeping events that carry no choice:
// location initialisation, non-atomic accesses (for race detection), thread spawn/end/join,
// allocation and free, and `block` (a thread that stopped on spin_assume, a held mutex or the
// event bound).
//
// Thread role: plain data, used by the explorer thread only. Complexity: O(1) per operation.
// Source: RC11 (PLDI 2017, section 3); event stamps and the revisit flags follow TruSt
// (Kokologiannakis et al., POPL 2022, section 4) and GenMC's labels.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::model {

/// (thread, index) of an event. `none()` marks "no event" (e.g. an unset reads-from).
struct event_id {
  std::int32_t thread = -1;
  std::int32_t index = -1;
  static constexpr event_id none() noexcept { return {}; }
  constexpr bool valid() const noexcept { return thread >= 0; }
  friend constexpr bool operator==(event_id, event_id) = default;
};

enum class event_kind : std::uint8_t {
  init,      ///< initialisation write of a location (mo-first; written by its constructor)
  read,      ///< atomic load, the read part of an RMW, a failed CAS, a mutex lock attempt
  write,     ///< atomic store or the write part of an RMW
  fence,     ///< atomic_thread_fence (never relaxed: a relaxed fence is no event)
  na_read,   ///< non-atomic read (race detection only)
  na_write,  ///< non-atomic write, including construction (race detection only)
  spawn,     ///< thread creation; `aux` is the child thread
  join,      ///< join; `aux` is the joined thread
  end,       ///< the thread finished
  alloc,     ///< model allocation; `aux` is the allocation number; an array's (create_array)
             ///< has `value` its element count, `operand` its name (const char*), `src`
  free,      ///< model deallocation; `aux` is the allocation number
  block,     ///< the thread blocked; `aux` is a block_reason
};

/// Why a thread blocked: a false spin_assume, a lock that read the mutex held, the event bound,
/// or an atomic wait that read the value it waits to change (memory::atomic::wait).
enum class block_reason : std::uint8_t { assume, mutex, bound, wait };

/// RMW operation carried by the read part of an RMW so that the write part can be
/// recomputed from any reads-from choice.
enum class rmw_op : std::uint8_t { none, exchange, add, sub, band, bor, bxor, cas };

constexpr std::string_view kind_name(event_kind k) noexcept {
  switch (k) {
    case event_kind::init:
      return "init";
    case event_kind::read:
      return "R";
    case event_kind::write:
      return "W";
    case event_kind::fence:
      return "F";
    case event_kind::na_read:
      return "Rna";
    case event_kind::na_write:
      return "Wna";
    case event_kind::spawn:
      return "spawn";
    case event_kind::join:
      return "join";
    case event_kind::end:
      return "end";
    case event_kind::alloc:
      return "alloc";
    case event_kind::free:
      return "free";
    case event_kind::block:
      return "block";
  }
  return "?";
}

/// 64 bytes, one cache line (graphs are vectors of events, scanned and copied per
/// execution): the memory orders, the RMW operation and the flags are bit-fields.
struct event {
  std::uint64_t value = 0;     ///< written value, or the value read
  std::uint64_t operand = 0;   ///< RMW operand, or CAS desired value
  std::uint64_t expected = 0;  ///< CAS expected value
  event_id rf;                 ///< reads: the write read from
  source_loc src;              ///< where in the source
  std::uint32_t loc = 0;       ///< location (memory events)
  std::uint32_t aux = 0;       ///< spawn/join: thread; alloc/free: allocation; block: reason
  std::uint32_t stamp = 0;     ///< insertion order (TruSt's <_G)
  event_kind kind = event_kind::fence;
  rmw_op op : 4 = rmw_op::none;  ///< read part of an RMW: the operation
  std::memory_order order : 4 = std::memory_order_relaxed;
  std::memory_order fail_order : 4 = std::memory_order_relaxed;  ///< CAS: order when it fails
  std::memory_order ok_order : 4 = std::memory_order_relaxed;    ///< RMW: order when it succeeds
  bool rmw : 1 = false;                                          ///< read or write part of an RMW
  bool cas_ok : 1 = false;      ///< CAS read part: the value matched (a write part follows)
  bool weak : 1 = false;        ///< weak CAS (may fail spuriously)
  bool spurious : 1 = false;    ///< weak CAS that failed spuriously (an explored choice)
  bool added_max : 1 = true;    ///< TruSt: added with its maximal choice (rf mo-max / mo last)
  bool revisitable : 1 = true;  ///< TruSt: may still be backward-revisited
};
static_assert(sizeof(void*) != 8 || sizeof(event) == 64, "one cache line on 64-bit targets");

constexpr bool is_read(const event& e) noexcept {
  return e.kind == event_kind::read;
}
constexpr bool is_write(const event& e) noexcept {
  return e.kind == event_kind::write || e.kind == event_kind::init;
}
constexpr bool is_access(const event& e) noexcept {
  return is_read(e) || is_write(e);
}
/// A non-atomic access (race detection only).
constexpr bool is_na(const event& e) noexcept {
  return e.kind == event_kind::na_read || e.kind == event_kind::na_write;
}

/// consume is treated as acquire (docs/design.md, "The model checker").
constexpr bool is_acquire(std::memory_order o) noexcept {
  return o == std::memory_order_acquire || o == std::memory_order_acq_rel ||
         o == std::memory_order_seq_cst || o == std::memory_order_consume;
}
constexpr bool is_release(std::memory_order o) noexcept {
  return o == std::memory_order_release || o == std::memory_order_acq_rel ||
         o == std::memory_order_seq_cst;
}
constexpr bool is_sc(const event& e) noexcept {
  return (is_access(e) || e.kind == event_kind::fence) && e.order == std::memory_order_seq_cst;
}

/// The order of the read part of an RMW with success order `o` (RC11: acq_rel = acq + rel).
constexpr std::memory_order read_part(std::memory_order o) noexcept {
  if (o == std::memory_order_acq_rel || o == std::memory_order_consume)
    return std::memory_order_acquire;
  if (o == std::memory_order_release) return std::memory_order_relaxed;
  return o;
}
/// The order of the write part of an RMW with success order `o`.
constexpr std::memory_order write_part(std::memory_order o) noexcept {
  if (o == std::memory_order_acq_rel) return std::memory_order_release;
  if (o == std::memory_order_acquire || o == std::memory_order_consume)
    return std::memory_order_relaxed;
  return o;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
