#include "stealcheck/detail/stress/ledger.hpp"

#include <fmt/format.h>

#include <bit>

#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/harness/verdict.hpp"
#include "stealcheck/detail/stress/oplog.hpp"

namespace stealcheck::stress {
namespace {

// A slot's word: id << 12 | how << 10 | thread << 2 | state. An id has 52 bits; threads fit
// in 8 (oplog::max_threads is 160).
enum word_kind : std::uint64_t { empty = 0, live_value = 1, taken = 2 };

constexpr std::uint64_t word_state(std::uint64_t w) noexcept {
  return w & 3;
}
constexpr std::uint64_t word_id(std::uint64_t w) noexcept {
  return w >> 12;
}
constexpr std::uint64_t live_word(std::uint64_t id) noexcept {
  return id << 12 | live_value;
}
constexpr std::uint64_t taken_word(const take_record& r) noexcept {
  return r.id << 12 | static_cast<std::uint64_t>(r.how) << 10 |
         static_cast<std::uint64_t>(r.thread & 0xff) << 2 | taken;
}
take_record taker_of(std::uint64_t w) noexcept {
  return {word_id(w), static_cast<std::uint32_t>((w >> 2) & 0xff),
          static_cast<taker_kind>((w >> 10) & 3)};
}

// One id's share of a fingerprint: a bijective 64-bit mix, so sums of different multisets of
// ids collide with probability 2^-64.
constexpr std::uint64_t fingerprint_of(std::uint64_t id) noexcept {
  return splitmix64_mix(id + splitmix64_gamma);
}

constexpr std::size_t side_entry_bytes = 64;  // an unordered_map node and its bucket, roughly

}  // namespace

std::string describe(const take_record& r) {
  const char* how = "pop";
  switch (r.how) {
    case taker_kind::pop:
      how = "pop";
      break;
    case taker_kind::steal:
      how = "steal";
      break;
    case taker_kind::steal_into:
      how = "steal_into";
      break;
    case taker_kind::drain:
      how = "final drain";
      break;
  }
  if (r.thread == 0) return fmt::format("owner {}", how);
  return fmt::format("thief {} {}", r.thread, how);
}

value_ledger::value_ledger(bool duplicates_allowed, std::size_t window)
    : slots_(std::bit_ceil(std::max<std::size_t>(window, 2))),
      mask_(slots_.size() - 1),
      duplicates_allowed_(duplicates_allowed),
      reported_bytes_(slots_.size() * sizeof(std::atomic<std::uint64_t>)) {
  oplog::add_harness_bytes(static_cast<std::int64_t>(reported_bytes_));
}

value_ledger::~value_ledger() {
  oplog::add_harness_bytes(-static_cast<std::int64_t>(reported_bytes_));
}

std::size_t value_ledger::bytes() const {
  return slots_.size() * sizeof(std::atomic<std::uint64_t>) + side_.size() * side_entry_bytes;
}

void value_ledger::attach(take_log& l) {
  l.ledger_ = this;
  logs_.push_back(&l);
}

std::uint64_t value_ledger::live(std::uint64_t pushed) const noexcept {
  std::uint64_t taken = 0;
  for (const take_log* l : logs_)
    taken += l->published_takes_.load(std::memory_order_relaxed);  // a count; orders nothing
  return pushed > taken ? pushed - taken : 0;
}

void value_ledger::pushing(std::uint64_t id) {
  std::atomic<std::uint64_t>& s = slot(id);
  // relaxed: only the owner writes live words, and only after it read the slot's last take
  // (coherence orders the two); the deque's push publishes the word to whoever takes `id`
  const std::uint64_t w = s.load(std::memory_order_relaxed);
  if (word_state(w) != empty && word_id(w) == id) return;  // a push of it was refused before
  if (word_state(w) != live_value) {
    s.store(live_word(id), std::memory_order_relaxed);  // see above
    return;
  }
  const std::lock_guard lock(side_mutex_);  // an older value still holds the slot
  side_.emplace(id, live_word(id));
}

void value_ledger::pushed(std::uint64_t id) noexcept {
  ++pushes_;
  push_fingerprint_ += fingerprint_of(id);
}

void value_ledger::set_verdict(const harness::fault& found) {
  if (judged_.exchange(true)) return;  // the failure path only: keep the first
  verdict_ = found.text + " (judged as it returned)";
  verdict_kind_ = found.kind;
  oplog::set_verdict(verdict_, verdict_kind_);
}

void value_ledger::judge(const take_record& r, std::uint64_t pushed_bound, take_log& log) {
  if (r.id >= pushed_bound) {
    set_verdict(harness::value_fault(
        failure_kind::value_invented, r.id,
        fmt::format("{} took it when {} values were pushed", describe(r), pushed_bound)));
    return;
  }
  std::atomic<std::uint64_t>& s = slot(r.id);
  // relaxed: a word seen is a push or a take that happened, and the word orders nothing else
  std::uint64_t w = s.load(std::memory_order_relaxed);
  if (word_state(w) != empty && word_id(w) == r.id) {
    // A CAS, not a store: two takers of one value judge at the same moment exactly when a
    // deque hands it out twice in a race (owner and thief on the last item), and a load and a
    // store let both see it live. relaxed: the RMW's atomicity is what is needed, not order.
    if (word_state(w) == live_value &&
        s.compare_exchange_strong(w, taken_word(r), std::memory_order_relaxed)) {
      return;
    }
    // w: the word of an earlier take of r.id (the load's, or the failed CAS's)
    if (word_state(w) == taken && word_id(w) == r.id && !duplicates_allowed_) {
      set_verdict(
          harness::value_fault(failure_kind::value_taken_twice, r.id,
                               fmt::format("{}, then {}", describe(taker_of(w)), describe(r))));
    }
    return;
  }
  {
    const std::lock_guard lock(side_mutex_);
    if (side_.erase(r.id) != 0) return;
  }
  if (log.unresolved_.size() < take_log::max_unresolved) {
    log.unresolved_.push_back(r);  // judged after the join, when every write is seen
  } else {
    ++log.unresolved_dropped_;
  }
}

void take_log::record(std::uint64_t id, std::uint32_t thread, taker_kind how,
                      std::uint64_t pushed_bound) {
  const take_record r{id, thread, how};
  ++takes_;
  // relaxed: a plain store of a count only this thread writes; the owner's estimate of the
  // values in the deque reads it, and nothing is ordered by it
  published_takes_.store(takes_, std::memory_order_relaxed);
  fingerprint_ += fingerprint_of(id);
  if (!highest_ || id > highest_->id) highest_ = r;
  if (ledger_ != nullptr) ledger_->judge(r, pushed_bound, *this);
}

std::optional<harness::fault> value_ledger::check(std::uint64_t pushed) {
  const std::vector<take_log*>& logs = logs_;
  const take_record* high = nullptr;
  for (const take_log* l : logs) {
    if (l->highest_ && (high == nullptr || l->highest_->id > high->id)) high = &*l->highest_;
  }
  if (high != nullptr && high->id >= pushed) {
    return harness::value_fault(
        failure_kind::value_invented, high->id,
        fmt::format("taken by {} when {} values were pushed", describe(*high), pushed));
  }
  // The takes that found no state as they ran: every write is seen now.
  for (take_log* l : logs) {
    for (const take_record& r : l->unresolved_) {
      std::atomic<std::uint64_t>& s = slot(r.id);
      const std::uint64_t w = s.load(std::memory_order_relaxed);  // after the join
      if (word_state(w) != empty && word_id(w) == r.id) {
        if (word_state(w) == live_value) {
          s.store(taken_word(r), std::memory_order_relaxed);  // after the join
        } else if (!duplicates_allowed_) {
          return harness::value_fault(failure_kind::value_taken_twice, r.id,
                                      fmt::format("{} and {}", describe(taker_of(w)), describe(r)));
        }
        continue;
      }
      side_.erase(r.id);
    }
    l->unresolved_.clear();
  }
  // A live value keeps its state until it is taken: the smallest one left is lost.
  std::optional<std::uint64_t> lost;
  auto consider = [&](std::uint64_t w) {
    if (word_state(w) == live_value && word_id(w) < pushed && (!lost || word_id(w) < *lost))
      lost = word_id(w);
  };
  for (const std::atomic<std::uint64_t>& s : slots_)
    consider(s.load(std::memory_order_relaxed));  // after the join
  for (const auto& [id, w] : side_)
    consider(w);
  if (lost)
    return harness::value_fault(failure_kind::value_lost, *lost,
                                "pushed, never taken, not in the final drain");
  if (duplicates_allowed_) return std::nullopt;
  // The values whose state was forgotten: all takes against all pushes.
  std::uint64_t takes = 0, fingerprint = 0;
  for (const take_log* l : logs) {
    takes += l->takes_;
    fingerprint += l->fingerprint_;
  }
  if (takes == pushes_ && fingerprint == push_fingerprint_) return std::nullopt;
  const std::string which =
      takes > pushes_   ? "a value taken twice"
      : takes < pushes_ ? "a value never taken"
                        : "a value taken twice and another never (the fingerprints of the ids "
                          "differ)";
  return harness::fault{
      takes > pushes_ ? failure_kind::value_taken_twice : failure_kind::value_lost,
      fmt::format("{} takes of {} pushed values: {}, among values older than the last {} pushed, "
                  "whose state the run forgets once judged (stress/ledger.hpp; a run of fewer "
                  "operations names it)",
                  takes, pushes_, which, slots_.size())};
}

}  // namespace stealcheck::stress
// SPDX-License-Identifier: Apache-2.0
