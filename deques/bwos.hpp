// deques/bwos.hpp: block-based work stealing (Wang, Chen, Xu, Huang, Zhang, Bai, Chen,
// "BWoS: Formally Verified Block-based Work Stealing for Parallel Processing", OSDI 2023,
// sections 3 and 4; the queue NVIDIA's stdexec ships as exec::bwos::lifo_queue,
// include/exec/detail/bwos_lifo_queue.hpp: push_back, pop_back, steal_front and the block's
// put, get, steal, grant, takeover, is_writable and reclaim).
//
// Thread role: push, pop and owner_size_hint by the owner; steal and size_hint by any thread.
//
// Layout. `blocks` blocks (a power of two, at least 2) of `block_size` slots each, used as a
// ring of blocks. A block counter c names a block and a lap: the block is c & (blocks - 1),
// its round is c / blocks. The owner works in one block, `last`; thieves work in the blocks
// [start, last), oldest first. Per block:
//   head, tail    the owner's: its items are the slots [head, tail) of its block. Plain
//                 fields: no thief reads them.
//   steal_tail    the thieves': (round << 32) | next slot to steal. A slot number of
//                 block_size means "closed": the block is the owner's, or its thieves have
//                 claimed every slot. A thief claims one slot with a CAS of steal_tail.
//   steal_count   the thieves' completed steals in this round: a thief adds one after it has
//                 read its slot, so the owner reuses a block only when every claimed slot has
//                 been read.
// The owner touches no atomic location while it pushes into and pops from its own block:
// BWoS's point is that owner and thieves meet only on a block's change of hands.
//
// The protocol. push writes the slot at tail. When the block is full, the owner *grants* it to
// the thieves (one release store of steal_tail = (round, head): the slots [head, block_size)
// become stealable) and moves to the next block, which it *reclaims* first: only when that
// block is closed and all its claimed slots have been read (steal_count equals the slots its
// thieves claimed); otherwise push reports full. pop takes the slot below tail; when its block
// is empty it moves back to the previous block and *takes it over*: one exchange of
// steal_tail with "closed" returns the first slot no thief has claimed, and the slots from it
// up are the owner's again. A thief reads `start` and walks the blocks up to `last`: in a
// closed block of its own round it goes on to the next; in an open one it claims the slot at
// steal_tail with a CAS (acquire: it synchronizes with the grant, so the slot holds the
// granted value), reads the slot, and adds one to steal_count (release: the read happens
// before the owner reuses the block).
//
// Rounds. A thief compares the round in steal_tail with the round of the block counter it
// reached. Without that, a thief that read `start` before the owner lapped the ring of blocks
// would claim in a block of the next lap while older blocks still hold items: a steal that
// takes neither the oldest value nor a value lost to no one, but one out of order (stdexec
// added the same check in "Implement round detection", commit dcac2387, for tasks lost across
// block reuse). A steal_tail value can recur within one round (a block taken over at slot k
// and granted again from k), and a CAS that succeeds then claims a slot that holds the oldest
// stealable value: the argument is in proofs/bwos.md.
//
// What this file does differently from stdexec's queue, and why:
//   - reclaim does not spin until the block's thieves are done: push reports full instead, so
//     the owner never waits for a preempted thief (the deque stays lock-free; a scheduler then
//     runs the task inline);
//   - a thief claims with an acquire CAS and reads no `tail`: a granted block is full, and the
//     grant's release store publishes its slots;
//   - a steal never reports empty: a thief cannot see the owner's block, whose items are
//     private (owner_shares), so "nothing to steal" is abort (thieves_report_empty = false).
//
// Overflow policy: bounded. push on a full queue returns false and leaves the value with the
// caller. Capacity: blocks * block_size slots, of which the owner can fill all only when the
// thieves have emptied the blocks it comes back to.
//
// Costs: push and pop inside a block: plain loads and stores and one relaxed slot access, no
// RMW, no fence. Forward: two loads, one release store (grant), three relaxed stores (reset,
// `last`; a fourth, `start`, when the oldest block is reused); back: one exchange (takeover) and
// one relaxed store. A steal: one CAS, one fetch_add, one load per block walked. Complexity:
// O(1) for push and pop (O(blocks) when a pop walks back over empty blocks), O(blocks) for
// steal. Lock-free. Values: see deques/slot.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/deque.hpp"
#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/memory.hpp"
#include "stealcheck/detail/deques/slot.hpp"

namespace stealcheck {

struct bwos_sites {
  static constexpr std::string_view variant = "bwos";
  static constexpr bool known_bad = false;
  static constexpr std::string_view known_bad_reason = "";
  /// A thief cannot tell an empty queue from one whose items are all in the owner's block.
  static constexpr bool thieves_report_empty = false;
  /// The owner reuses a block only when its thieves have read every slot they claimed; false:
  /// as soon as the block is closed (bwos_reuse_unchecked).
  static constexpr bool reuse_waits_for_thieves = true;
  using mo = std::memory_order;
  static constexpr site push_store_slot{"bwos::push.store_slot", mo::relaxed, site_kind::store,
                                        "private until grant.store_steal_tail publishes the block"};
  static constexpr site pop_load_slot{"bwos::pop.load_slot", mo::relaxed, site_kind::load,
                                      "the owner reads its own store"};
  static constexpr site grant_store_steal_tail{
      "bwos::grant.store_steal_tail", mo::release, site_kind::store,
      "pairs with steal.claim_cas: publishes the granted slots (MP); relaxed lets a thief read "
      "a slot before its value (killed in push2_pop_steal2)"};
  static constexpr site reuse_load_steal_tail{
      "bwos::reuse.load_steal_tail", mo::relaxed, site_kind::load,
      "is the block closed; reuse.load_steal_count orders what the thieves read"};
  static constexpr site reuse_load_steal_count{
      "bwos::reuse.load_steal_count", mo::acquire, site_kind::load,
      "pairs with steal.add_count: a thief's read of its slot happens before the owner writes "
      "the slot again; not needed under RC11: the thief reading the new value while the owner "
      "reads its add is a po-rf cycle (LB), which RC11 forbids; kept for models without that "
      "axiom (relaxed: the same executions)"};
  static constexpr site reuse_store_steal_count{
      "bwos::reuse.store_steal_count", mo::relaxed, site_kind::store,
      "no thief adds to it before the next grant, which publishes it"};
  static constexpr site reuse_store_steal_tail{
      "bwos::reuse.store_steal_tail", mo::relaxed, site_kind::store,
      "closes the block in its new round; publishes nothing (it is the owner's)"};
  static constexpr site store_start{
      "bwos::store_start", mo::relaxed, site_kind::store,
      "a hint: a thief that reads an older start walks over closed blocks or aborts"};
  static constexpr site store_last{
      "bwos::store_last", mo::relaxed, site_kind::store,
      "a bound for the thieves' walk; the blocks' steal_tail decide what they take"};
  static constexpr site takeover_exchange{
      "bwos::takeover.exchange", mo::relaxed, site_kind::rmw,
      "RMW atomicity alone decides the race with steal.claim_cas; the owner reads only slots "
      "it wrote"};
  static constexpr site steal_load_start{"bwos::steal.load_start", mo::relaxed, site_kind::load,
                                         "a hint, as store_start"};
  static constexpr site steal_load_last{"bwos::steal.load_last", mo::relaxed, site_kind::load,
                                        "a bound, as store_last"};
  static constexpr site steal_load_steal_tail{
      "bwos::steal.load_steal_tail", mo::relaxed, site_kind::load,
      "only the expected value of steal.claim_cas, which fails on any stale one"};
  static constexpr site steal_claim_cas{
      "bwos::steal.claim_cas", mo::acquire, site_kind::rmw,
      "pairs with grant.store_steal_tail: the claimed slot holds the granted value (MP); "
      "relaxed reads a slot before its value (killed in push2_pop_steal2)"};
  static constexpr site steal_claim_cas_failure{"bwos::steal.claim_cas_failure", mo::relaxed,
                                                site_kind::cas_failure,
                                                "abort uses nothing it read"};
  static constexpr site steal_load_slot{"bwos::steal.load_slot", mo::relaxed, site_kind::load,
                                        "ordered by steal.claim_cas"};
  static constexpr site steal_add_count{
      "bwos::steal.add_count", mo::release, site_kind::rmw,
      "pairs with reuse.load_steal_count: the slot is read before the owner reuses it; not "
      "needed under RC11 for the same reason (LB); kept for models without that axiom"};
  static constexpr site size_load{"bwos::size_hint.load", mo::relaxed, site_kind::load,
                                  "a snapshot; synchronizes nothing"};

  template <class S>
  static constexpr auto list() {
    return std::array{&S::push_store_slot,
                      &S::pop_load_slot,
                      &S::grant_store_steal_tail,
                      &S::reuse_load_steal_tail,
                      &S::reuse_load_steal_count,
                      &S::reuse_store_steal_count,
                      &S::reuse_store_steal_tail,
                      &S::store_start,
                      &S::store_last,
                      &S::takeover_exchange,
                      &S::steal_load_start,
                      &S::steal_load_last,
                      &S::steal_load_steal_tail,
                      &S::steal_claim_cas,
                      &S::steal_claim_cas_failure,
                      &S::steal_load_slot,
                      &S::steal_add_count,
                      &S::size_load};
  }
};

template <class T, class Mem = native_memory, class Sites = bwos_sites>
class bwos {
  using codec = detail::slot_codec<T, Mem>;
  using stored = typename codec::stored;
  using slot = typename Mem::template atomic<stored>;
  using word = typename Mem::template atomic<std::uint64_t>;

 public:
  using value_type = T;
  using memory = Mem;
  using sites = Sites;
  static constexpr std::string_view variant_name = Sites::variant;
  /// Thieves reach only the blocks the owner granted (deques/deque.hpp, owner_shares_v).
  static constexpr bool owner_shares = true;

  /// 32 blocks of 8 slots, stdexec's default for its static_thread_pool (bwos_params).
  bwos() : bwos(32, 8) {}

  /// At least `capacity` slots (at least 2), as blocks of equal size: 2 blocks up to a
  /// capacity of 4, else blocks of capacity / 8 slots, at least 1 and at most 8.
  explicit bwos(std::int64_t capacity) : bwos(blocks_for(capacity), block_size_for(capacity)) {}

  /// Requires: blocks >= 2 (rounded up to a power of two), 1 <= block_size < 2^31.
  bwos(std::int64_t blocks, std::int64_t block_size)
      : mask_(std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(blocks, 2))) - 1),
        shift_(static_cast<unsigned>(std::countr_zero(mask_ + 1))),
        size_(static_cast<std::uint32_t>(std::max<std::int64_t>(block_size, 1))),
        start_block_(0, "start"),
        last_block_(0, "last"),
        steal_tail_(Mem::template create_array<word>(mask_ + 1, "steal_tail")),
        steal_count_(Mem::template create_array<word>(mask_ + 1, "steal_count")),
        slots_(Mem::template create_array<slot>((mask_ + 1) * size_, "slots")),
        own_(mask_ + 1) {
    // Every block starts closed in round 0 with nothing claimed; block 0 is the owner's.
    for (std::uint64_t i = 0; i <= mask_; ++i) {
      steal_tail_[i].store(size_, std::memory_order_relaxed);  // before any thread starts
    }
  }

  bwos(const bwos&) = delete;
  bwos& operator=(const bwos&) = delete;

  /// Requires: no operation is running. Destroys the values still in the queue.
  ~bwos() {
    for (std::uint64_t c = start_; c < last_; ++c) {  // granted blocks: what no thief claimed
      const std::uint64_t i = c & mask_;
      const std::uint64_t s = steal_tail_[i].load(std::memory_order_relaxed);  // quiescent
      if (round_of(s) == round(c)) discard(i, slot_of(s), size_);
    }
    const block& b = own_[last_ & mask_];
    discard(last_ & mask_, b.head, b.tail);
    Mem::destroy_array(slots_, (mask_ + 1) * size_);
    Mem::destroy_array(steal_count_, mask_ + 1);
    Mem::destroy_array(steal_tail_, mask_ + 1);
  }

  /// Thread role: owner. Returns false (and leaves v untouched) when the queue is full: the
  /// owner's block is full and the next block is not yet closed and read by its thieves.
  STEALCHECK_OWNER_INLINE bool push(T&& v) {
    block* b = &own_[last_ & mask_];
    if (b->tail == size_) [[unlikely]] {
      if (!advance()) return false;
      b = &own_[last_ & mask_];
    }
    // relaxed (push.store_slot): private until the block's grant publishes it.
    at(last_ & mask_, b->tail)
        .store(codec::encode(std::move(v)), Mem::order(Sites::push_store_slot));
    ++b->tail;
    return true;
  }
  STEALCHECK_OWNER_INLINE bool push(const T& v) {
    T copy(v);
    return push(std::move(copy));
  }

  /// Thread role: owner. The newest value, or nullopt when every block from `start` to the
  /// owner's is empty to the owner.
  STEALCHECK_OWNER_INLINE std::optional<T> pop() {
    for (;;) {
      block& b = own_[last_ & mask_];
      if (b.tail != b.head) [[likely]] {
        --b.tail;
        return codec::decode(at(last_ & mask_, b.tail).load(Mem::order(Sites::pop_load_slot)));
      }
      if (!retreat()) return std::nullopt;
    }
  }

  /// Thread role: any. The oldest granted value: item | abort (another thief claimed the slot,
  /// the owner took the block over or reused it, or nothing is granted: the owner's block is
  /// private). Never empty: see the file comment.
  steal_result<T> steal() {
    std::uint64_t c = start_block_.load(Mem::order(Sites::steal_load_start));
    for (;;) {
      const std::uint64_t i = c & mask_;
      std::uint64_t s = steal_tail_[i].load(Mem::order(Sites::steal_load_steal_tail));
      if (round_of(s) != round(c)) return steal_result<T>::abort();  // reused, or not reached
      if (slot_of(s) == size_) {  // closed: taken or the owner's; the next block may be granted
        ++c;
        if (c >= last_block_.load(Mem::order(Sites::steal_load_last))) {
          return steal_result<T>::abort();
        }
        continue;
      }
      // acquire CAS (steal.claim_cas) pairs with grant.store_steal_tail: the slot is published.
      if (!steal_tail_[i].compare_exchange_strong(s, s + 1, Mem::order(Sites::steal_claim_cas),
                                                  Mem::order(Sites::steal_claim_cas_failure))) {
        return steal_result<T>::abort();
      }
      const stored x = at(i, slot_of(s)).load(Mem::order(Sites::steal_load_slot));
      // release (steal.add_count) pairs with reuse.load_steal_count: read before reuse.
      steal_count_[i].fetch_add(1, Mem::order(Sites::steal_add_count));
      return steal_result<T>::item(codec::decode(x));
    }
  }

  /// Thread role: any. The values thieves can still claim in the granted blocks (the owner's
  /// block is private and not counted); exact only when quiescent. Complexity: O(blocks).
  std::int64_t size_hint() const {
    const std::uint64_t first = start_block_.load(Mem::order(Sites::size_load));
    const std::uint64_t end = last_block_.load(Mem::order(Sites::size_load));
    std::int64_t n = 0;
    for (std::uint64_t c = first; c < end && c - first <= mask_; ++c) {
      const std::uint64_t s = steal_tail_[c & mask_].load(Mem::order(Sites::size_load));
      if (round_of(s) == round(c)) n += size_ - slot_of(s);
    }
    return n;
  }

  /// Thread role: owner. The values in the owner's block, which only it can take: plain
  /// fields, no atomic access. Complexity: O(1).
  STEALCHECK_OWNER_INLINE std::int64_t owner_size_hint() const {
    const block& b = own_[last_ & mask_];
    return static_cast<std::int64_t>(b.tail) - b.head;
  }

  std::int64_t capacity() const noexcept { return static_cast<std::int64_t>((mask_ + 1) * size_); }
  std::int64_t block_size() const noexcept { return size_; }
  std::int64_t blocks() const noexcept { return static_cast<std::int64_t>(mask_ + 1); }

 private:
  struct block {
    std::uint32_t head = 0;  // the owner's items are [head, tail)
    std::uint32_t tail = 0;  // only the owner's current block's pair changes
  };

  static std::int64_t block_size_for(std::int64_t capacity) noexcept {
    if (capacity <= 4) return (std::max<std::int64_t>(capacity, 2) + 1) / 2;
    return std::clamp<std::int64_t>(capacity / 8, 1, 8);
  }
  static std::int64_t blocks_for(std::int64_t capacity) noexcept {
    if (capacity <= 4) return 2;
    const std::int64_t n = (capacity + block_size_for(capacity) - 1) / block_size_for(capacity);
    return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n)));
  }

  // Owner: its block is full. Grants it to the thieves and moves to the next block, if that
  // block can be reused; false if not (the queue is full).
  [[gnu::noinline]] bool advance() {
    const std::uint64_t next = last_ + 1;
    const std::uint64_t ni = next & mask_;
    block& nb = own_[ni];
    const std::uint64_t s = steal_tail_[ni].load(Mem::order(Sites::reuse_load_steal_tail));
    if (slot_of(s) != size_) return false;  // its thieves are still claiming: full
    if constexpr (Sites::reuse_waits_for_thieves) {
      // acquire (reuse.load_steal_count) pairs with steal.add_count: every claimed slot read.
      if (steal_count_[ni].load(Mem::order(Sites::reuse_load_steal_count)) != nb.head) {
        return false;  // a thief has claimed a slot and not yet read it: full
      }
    }
    if (next - start_ == mask_ + 1) {  // the oldest block is reused: thieves start after it
      ++start_;
      start_block_.store(start_, Mem::order(Sites::store_start));
    }
    // Grant the full block: the slots [head, size_) become stealable in its round.
    const std::uint64_t i = last_ & mask_;
    block& b = own_[i];
    const std::uint64_t granted = word_of(round(last_), b.head);
    b.head = size_;  // the thieves' claims end at size_; the owner has nothing left here
    // release (grant.store_steal_tail) pairs with steal.claim_cas: publishes the slots.
    steal_tail_[i].store(granted, Mem::order(Sites::grant_store_steal_tail));
    // Reclaim the next block: nothing claimed, closed in its new round.
    nb.head = 0;
    nb.tail = 0;
    steal_count_[ni].store(0, Mem::order(Sites::reuse_store_steal_count));
    steal_tail_[ni].store(word_of(round(next), size_), Mem::order(Sites::reuse_store_steal_tail));
    last_ = next;
    last_block_.store(next, Mem::order(Sites::store_last));
    return true;
  }

  // Owner: its block is empty. Moves back to the previous block and takes over what its
  // thieves have not claimed; false if the owner's block is the oldest (the queue is empty).
  [[gnu::noinline]] bool retreat() {
    if (last_ == start_) return false;
    const std::uint64_t prev = last_ - 1;
    const std::uint64_t pi = prev & mask_;
    // relaxed exchange (takeover.exchange): closes the block; RMW atomicity decides each slot.
    const std::uint64_t s =
        steal_tail_[pi].exchange(word_of(round(prev), size_), Mem::order(Sites::takeover_exchange));
    // The first unclaimed slot: thieves' claims end there (prev >= start_ was granted in its
    // round, so s carries that round).
    own_[pi].head = slot_of(s);
    last_ = prev;
    last_block_.store(prev, Mem::order(Sites::store_last));
    return true;
  }

  std::uint32_t round(std::uint64_t c) const noexcept {
    return static_cast<std::uint32_t>(c >> shift_);
  }
  static std::uint32_t round_of(std::uint64_t s) noexcept {
    return static_cast<std::uint32_t>(s >> 32);
  }
  static std::uint32_t slot_of(std::uint64_t s) noexcept { return static_cast<std::uint32_t>(s); }
  static std::uint64_t word_of(std::uint32_t r, std::uint32_t k) noexcept {
    return (static_cast<std::uint64_t>(r) << 32) | k;
  }
  slot& at(std::uint64_t block_index, std::uint32_t k) const noexcept {
    return slots_[block_index * size_ + k];
  }
  // Requires: quiescent. Destroys the values in slots [from, to) of one block.
  void discard(std::uint64_t block_index, std::uint32_t from, std::uint32_t to) const noexcept {
    for (std::uint32_t k = from; k < to; ++k) {
      codec::discard(at(block_index, k).load(std::memory_order_relaxed));  // the final values
    }
  }

  const std::uint64_t mask_ = 1;  // blocks - 1
  const unsigned shift_ = 1;      // log2(blocks): round = counter >> shift_
  const std::uint32_t size_ = 1;  // block_size
  // Thieves' lines: where to start and where to stop.
  alignas(64) word start_block_;
  alignas(64) word last_block_;
  word* steal_tail_;   // per block: (round << 32) | next slot to steal
  word* steal_count_;  // per block: steals completed in this round
  slot* slots_;        // block i's slot k at i * block_size + k
  // The owner's line: its counters and the blocks' own [head, tail).
  alignas(64) std::uint64_t last_ = 0;
  std::uint64_t start_ = 0;
  std::vector<block> own_;
};

/// KNOWN-BAD: the owner reuses a block as soon as its thieves have claimed every slot, without
/// waiting until they have read them (the steal_count check of stdexec's reclaim removed). A
/// thief that has claimed the last slot of a block and not yet read it then reads the value the
/// owner pushed into the reused block: that value is taken twice and the claimed one is lost.
struct bwos_sites_reuse_unchecked : bwos_sites {
  static constexpr std::string_view variant = "bwos_reuse_unchecked";
  static constexpr bool known_bad = true;
  static constexpr std::string_view known_bad_reason =
      "a block is reused before its thieves have read their claimed slots";
  static constexpr failure_set must_show{failure_kind::value_taken_twice,
                                         failure_kind::value_invented};
  using fixed_in = bwos_sites;
  static constexpr std::string_view fixed_by =
      "reuse_waits_for_thieves = true (a block is reused only once its thieves have read)";
  static constexpr bool reuse_waits_for_thieves = false;
};

template <class T, class Mem = native_memory>
using bwos_reuse_unchecked = bwos<T, Mem, bwos_sites_reuse_unchecked>;

}  // namespace stealcheck
// SPDX-License-Identifier: Apache-2.0
