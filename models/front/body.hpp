// models/front/body.hpp: the body API of the model checker, what a model test is written in
// (include/stealcheck/model.hpp documents it for users and re-exports it; stealcheck's own deque
// clients, models/front/clients.hpp, are written in it too): check(options, body), model::thread,
// spin_until, assert_that and STEALCHECK_ASSERT, checked_deque.
//
// Thread role: check() from any one OS thread; the rest from the body and the model threads it
// starts. Errors: a call outside a body throws std::logic_error; a misuse inside one is a bug of
// the result (error_kind::assertion). Complexity: one run of the body per execution explored.
// Source: models/explore/explore.hpp (the explorer), GenMC's spin-assume (Kokologiannakis et
// al., "Effective lock handling in stateless model checking", OOPSLA 2019) for spin_until.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/models/explore/explore.hpp"
#include "stealcheck/detail/models/front/owned.hpp"

namespace stealcheck::model {

namespace detail {
// The client of the body running on this OS thread. Every model thread of one execution runs
// on the OS thread that explores it (as fibers), so this is the running execution's; with
// jobs > 1 each explorer thread sets its own. check() restores the caller's value on return.
inline thread_local client* running_client = nullptr;

inline client& running(const char* what) {
  if (running_client == nullptr)
    throw std::logic_error(std::string("stealcheck::model: ") + what +
                           " outside the body of model::check");
  return *running_client;
}
}  // namespace detail

/// The body API for a client the explorer runs directly (explore(options, f) with f taking the
/// client): makes c the running client of this OS thread, so that model::thread, spin_until,
/// assert_that and checked_deque work in f as in a body of check(). Thread role: the client's
/// main thread (thread 0), first thing in f.
inline void enter(client& c) noexcept {
  detail::running_client = &c;
}

/// A client function (what model::clients::client_entry and explore take) that runs body as
/// check() runs it.
template <class Body>
std::function<void(client&)> as_client(Body body) {
  return [body = std::move(body)](client& c) {
    enter(c);
    body();
  };
}

/// Explores every execution of body under opt (see the top of this header). Returns the counts
/// (complete, blocked), or the first bug found with its report and replay token
/// (opt.replay = that token runs that one execution again).
inline result check(const options& opt, std::function<void()> body) {
  // each execution enters its client, kept until check returns (unjoined threads outlive the
  // body); then the caller's running client is back
  struct restore {
    client* value;
    ~restore() { detail::running_client = value; }
  } const guard{detail::running_client};
  return explore(opt, as_client(std::move(body)));
}

/// A model thread, started by the body: runs f concurrently with the body's thread and the
/// other model threads. join() waits for it: its events happen-before the joiner's next ones.
/// A handle destroyed without join() leaves the thread running; the body's end joins it.
/// Thread role: construct from the body's own thread only; join from the body's thread.
class thread {
 public:
  thread() noexcept = default;
  explicit thread(std::function<void()> f)
      : id_(detail::running("model::thread").spawn(std::move(f))) {}
  thread(thread&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  thread& operator=(thread&& other) noexcept {
    id_ = std::exchange(other.id_, 0);
    return *this;
  }
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  ~thread() = default;

  /// Waits for the thread to finish. Joining a thread twice, or an empty handle, is reported
  /// as an assertion.
  void join(source_loc src = source_loc::current()) {
    client& c = detail::running("model::thread::join");
    if (id_ == 0)
      return c.check(false, "join of a model::thread that is not joinable (joined, or empty)", src);
    c.join(std::exchange(id_, 0));
  }
  bool joinable() const noexcept { return id_ != 0; }
  /// The thread's number in reports: 1, 2, ... in start order (the body's thread is 0).
  std::size_t id() const noexcept { return id_; }

 private:
  std::size_t id_ = 0;
};

/// A spin loop that waits for another thread: `while (!pred()) {}` written so that every
/// execution stays finite. pred() is evaluated once; when it is false this execution is cut
/// as *blocked* (counted in result::blocked, not a bug), and the executions in which pred's
/// reads see the awaited writes cover the wait. Sound when an iteration of the loop has no
/// effect other than pred's reads (GenMC's spin-assume). Thread role: model threads.
template <class Pred>
void spin_until(Pred&& pred, source_loc src = source_loc::current()) {
  spin_assume(static_cast<bool>(std::forward<Pred>(pred)()), src);
}

/// STEALCHECK_ASSERT's function: when ok is false the exploration stops with error_kind::
/// assertion, the message `what`, the condition's text and src, and this execution's trace.
/// Thread role: model threads.
inline void assert_that(bool ok, std::string_view what, std::string_view condition,
                        source_loc src = source_loc::current()) {
  if (ok) return;
  detail::running("STEALCHECK_ASSERT")
      .check(false, fmt::format("{}\n  condition: {}", what, condition), src);
}

/// assert_that naming the kind of failure (deques/failure.hpp: a value lost, taken twice,
/// invented, an order the spec does not explain...), which the bug report carries
/// (bug_report::failure). Thread role: model threads.
inline void assert_that(bool ok, failure_kind kind, std::string_view what,
                        source_loc src = source_loc::current()) {
  if (ok) return;
  detail::running("model::assert_that").check(false, kind, what, src);
}

/// A deque whose operations are recorded and judged as stealcheck's own clients judge theirs
/// (models/front/owned.hpp): a value taken twice (unless the spec is at_least_once) or
/// never pushed fails as soon as the operation returns; finish() drains the deque and fails on a
/// value lost, then checks that the results are explained by the sequential spec (lifo_owner,
/// fifo_owner, at_least_once: deques/spec.hpp) in an order that respects happens-before. A
/// failure names the value and lists the operations per thread in the report.
/// Deque: a deque of std::int64_t on model::memory (my_deque<std::int64_t, model::memory>).
/// Values pushed must be distinct (the judge tells values apart by value).
/// Thread roles: push, pop and finish by one owner thread; steal by any model thread; finish
/// after every thread that used the deque was joined. Complexity: the order check is a search
/// over linearizations, exponential in the worst case; at most 64 operations have their order
/// checked (more: values only).
template <class Deque>
class checked_deque {
 public:
  using value = std::int64_t;
  /// The deque constructed with `capacity` (when it has such a constructor), judged by `spec`.
  explicit checked_deque(std::int64_t capacity, spec::spec_kind spec = spec::spec_kind::lifo_owner)
      : o_(capacity, spec) {}

  /// Owner: pushes v. Returns false when a bounded deque is full (v stays with the owner).
  bool push(value v) { return o_.push(c(), v); }
  /// Owner: pops; nullopt when the deque is empty.
  std::optional<value> pop() { return o_.pop(c()); }
  /// Any thread: steals; the item, empty, or abort (a lost race).
  steal_result<value> steal() { return o_.steal(c()); }
  /// A thief, owner of `mine` (a deque of the same type, batch stealers only): steals a batch
  /// into `mine` (steal_into), then pops `mine` empty to learn the batch; values of `prefilled`
  /// (what `mine` held before) are not part of it. Judged as one operation.
  void steal_into(Deque& mine,
                  const std::vector<value>& prefilled = {}) requires batch_stealing_deque<Deque> {
    o_.steal_into(c(), mine, prefilled);
  }
  /// Owner, after joining every thread: drains the deque and runs every check.
  void finish() { o_.finish(c()); }
  /// The deque itself, for operations the recorder does not know (not recorded or judged).
  Deque& deque() noexcept { return o_.d; }

 private:
  static client& c() { return detail::running("model::checked_deque"); }
  clients::owned<Deque> o_;
};

}  // namespace stealcheck::model

/// STEALCHECK_ASSERT(cond, message): checks cond in every explored execution; message (a
/// string) names what it means. Thread role: model threads (the body and its threads).
#define STEALCHECK_ASSERT(cond, message) \
  ::stealcheck::model::assert_that(static_cast<bool>(cond), (message), #cond)
// SPDX-License-Identifier: Apache-2.0
