// models/fuzz/replay_fuzz.cpp: libFuzzer target for replay tokens (`--replay TOKEN`).
//
// Property: for any text, replaying it as a token on a correct deque's client (chase_lev,
// push_pop_steal2, RC11) either runs one execution of the client with no bug (the token names
// an execution RC11 allows) or reports bad_replay with one line (a malformed token, or one that
// does not fit this client: the CLI prints that line and exits 2); never another bug kind, a
// crash or undefined behaviour (built with -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace {
template <class T, class Mem>
using deque = stealcheck::chase_lev<T, Mem>;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stealcheck::model;
  if (size == 0) return 0;  // an empty token is no replay: the exploration of every execution
  options o;
  o.replay.assign(reinterpret_cast<const char*>(data), size);
  o.stall_seconds = 0;
  const result r = explore(o, clients::push_pop_steal2<deque>);
  if (r.complete > 1) std::abort();
  if (!r.bug) return 0;
  if (r.bug->kind != error_kind::bad_replay) std::abort();
  if (r.bug->message.empty() || r.bug->message.find('\n') != std::string::npos) std::abort();
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
