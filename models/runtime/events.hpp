// models/runtime/events.hpp: the events an operation is recorded as: reads, stores, fences and
// joins, the write part of an RMW, and RMW arithmetic at a location's width. Inline: they are made
// on the hot path of every run (runtime.cpp) and of the explorer (trust.cpp).
#pragma once

#include <cstdint>

#include "stealcheck/detail/models/runtime/runtime.hpp"

namespace stealcheck::model::detail {

inline std::uint64_t mask(std::uint64_t v, std::uint8_t width) {
  return width >= 8 ? v : (v & ((std::uint64_t{1} << (8U * width)) - 1));
}

/// The write part's value of an RMW read part `r` that read `old`.
inline std::uint64_t rmw_result(const event& r, std::uint64_t old, std::uint8_t width) {
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

// The fields every access event takes from its operation.
inline event access_of(const pending_op& op, event_kind k) {
  event e;
  e.kind = k;
  e.loc = op.loc;
  e.src = op.src;
  e.order = op.order;
  return e;
}

/// A read event for pending operation `op` (before its reads-from is set).
inline event make_read(const pending_op& op) {
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

/// The write event of a plain store; `last`: added with its maximal (mo-last) choice.
inline event make_store(const pending_op& op, bool last) {
  event w = access_of(op, event_kind::write);
  w.value = op.value;
  w.added_max = last;
  return w;
}

/// The event of a fence or join pending operation (they have no choice to make).
inline event make_fence_or_join(const pending_op& op) {
  event e;
  e.kind = op.kind == op_kind::fence ? event_kind::fence : event_kind::join;
  e.order = op.order;
  e.aux = op.aux;
  e.src = op.src;
  return e;
}

/// Whether read part `r` of an RMW writes (an RMW, or a CAS whose value matched): its write
/// part follows it.
inline bool needs_write_part(const event& r) {
  return r.rmw || (r.op == rmw_op::cas && r.cas_ok);
}

/// The write part of RMW read part `r` (value from r's current reads-from).
inline event make_write_part(const graph& g, const event& r) {
  event w;
  w.kind = event_kind::write;
  w.rmw = true;
  w.loc = r.loc;
  w.src = r.src;
  w.order = write_part(r.ok_order);
  w.value = rmw_result(r, r.value, g.locs[r.loc].width);
  return w;
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
