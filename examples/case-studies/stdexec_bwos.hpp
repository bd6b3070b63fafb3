// stdexec_bwos.hpp: exec::bwos::lifo_queue, NVIDIA stdexec's block-based work-stealing queue
// (Wang et al., "BWoS", OSDI 2023), the queue of its static_thread_pool, transcribed onto
// stealcheck's memory backend as it ships, in two versions:
//
//   stdexec_bwos_v1  commit 0cccd586b8d75c64b289e38f334e95846dfb4f33 (2026-02-20), the queue
//                    users reported losing tasks with (NVIDIA/stdexec#1755, PR #1752);
//   stdexec_bwos     commit e92245d53dfc37f9bc2a7ef0cc44d570bb7b3386 (2026-08-20), with the fix
//                    of "Implement round detection" (commit dcac2387, PR #1967): block counters
//                    and the blocks' head and steal_tail carry a round.
//
// Source: include/exec/detail/bwos_lifo_queue.hpp in each: lifo_queue (constructor, pop_back,
// steal_front, push_back, advance_get_index, advance_put_index, advance_steal_index, and in
// the second increase_block_counter, decrease_block_counter) and block_type (put, get, steal,
// takeover, is_writable, reclaim, grant, and is_stealable in the first, reduce_round in the
// second). Every load, store, exchange and compare-exchange keeps the order written there, and
// each says its partner or why it needs none (the relaxed ones: the owner's own fields,
// counters read as bounds, RMWs whose atomicity alone decides a race); the
// ring buffer is plain memory there (`std::vector<Tp>`) and `Mem::nonatomic` here. Left out:
// the bulk push_back, get_free_capacity and get_available_capacity (not used by pop, push or
// steal), the allocator, the copy and move constructors of block_type (used only to build the
// vector of blocks) and the cache-line alignment. reclaim's spin until the thieves are done
// is a loop of loads with Mem::retry_read_only (natively a pause, as stdexec's
// __spin_loop_pause; under the model checker a wait for a value that lets it go on).
//
// Thread role: push/pop the owner only; steal any thread. Values: T trivially copyable and
// default-initializable (stdexec: task pointers; here 8-byte values). stdexec's pop_back and
// steal_front return Tp{} (nullptr) on every path that takes nothing and the slot's value on
// the one that takes it; here that path returns the value and the others nullopt (pop) or
// `abort` (steal), never `empty`: the owner's block is private to it, so no thief can tell an
// empty queue. push: false when push_back reports the queue full. Complexity: O(1) per block,
// O(blocks) per walk.
//
// Fix (docs/case-studies/stdexec-bwos.md says why): in both, AcquireClaim = true makes
// the thief's claim (the compare-exchange of steal_tail in steal) an acquire (stdexec:
// relaxed), so that the thief synchronizes with the grant whose slot it claims.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stealcheck/deque.hpp>

namespace case_studies {

namespace stdexec_bwos_detail {

inline constexpr auto relaxed = std::memory_order_relaxed;
inline constexpr auto acquire = std::memory_order_acquire;
inline constexpr auto release = std::memory_order_release;

// stdexec's lifo_queue_error_code.
enum class code : std::uint8_t { success, done, empty, full, conflict };

template <class T>
struct fetch_result {
  code status;
  T value;
};

// The blocks' fields as arrays (one named location each under the model checker), and the ring
// buffers as one array of plain slots: block i's slot k at i * block_size + k.
template <class T, class Mem>
struct block_arrays {
  using word = typename Mem::template atomic<std::uint64_t>;
  using plain = typename Mem::template nonatomic<T>;
  block_arrays(std::size_t blocks, std::size_t block_size)
      : n(blocks),
        size(block_size),
        head(Mem::template create_array<word>(n, "head")),
        tail(Mem::template create_array<word>(n, "tail")),
        steal_head(Mem::template create_array<word>(n, "steal_head")),
        steal_tail(Mem::template create_array<word>(n, "steal_tail")),
        ring(Mem::template create_array<plain>(n * size, "ring_buffer")) {}
  ~block_arrays() {
    Mem::destroy_array(ring, n * size);
    Mem::destroy_array(steal_tail, n);
    Mem::destroy_array(steal_head, n);
    Mem::destroy_array(tail, n);
    Mem::destroy_array(head, n);
  }
  block_arrays(const block_arrays&) = delete;
  block_arrays& operator=(const block_arrays&) = delete;

  plain& slot(std::size_t block, std::uint64_t k) const { return ring[block * size + k]; }

  std::size_t n;
  std::uint64_t size;
  word* head;
  word* tail;
  word* steal_head;  // the first version's steal_head_, the second's steal_count_
  word* steal_tail;
  plain* ring;
};

}  // namespace stdexec_bwos_detail

/// The first version (commit 0cccd586): plain block counters owner_block_ (from 1) and
/// thief_block_ (from 0); thieves move thief_block_ on with a CAS when the next block is
/// stealable.
template <class T, class Mem = stealcheck::native_memory, bool AcquireClaim = false>
class stdexec_bwos_v1 {
  using code = stdexec_bwos_detail::code;
  using result = stdexec_bwos_detail::fetch_result<T>;
  static constexpr auto relaxed = stdexec_bwos_detail::relaxed;
  static constexpr auto acquire = stdexec_bwos_detail::acquire;
  static constexpr auto release = stdexec_bwos_detail::release;

 public:
  using value_type = T;
  static constexpr bool owner_shares = true;

  /// stdexec: lifo_queue(num_blocks, block_size); at least 2 blocks, rounded up to a power of 2.
  stdexec_bwos_v1(std::size_t num_blocks, std::size_t block_size)
      : b_(std::max<std::size_t>(2, std::bit_ceil(num_blocks)), block_size),
        mask_(b_.n - 1),
        owner_block_(1, "owner_block"),
        thief_block_(0, "thief_block") {
    // relaxed: before any thread starts; the threads' creation orders them (here and below)
    for (std::size_t i = 0; i < b_.n; ++i)  // block_type(block_size): steal_tail = block_size
      b_.steal_tail[i].store(b_.size, relaxed);
    reclaim(owner_block_.load(relaxed) & mask_);
  }
  /// The checkers' constructor: 2 blocks of 1 slot up to a capacity of 2, else 4 blocks.
  explicit stdexec_bwos_v1(std::int64_t capacity)
      : stdexec_bwos_v1(capacity <= 2 ? 2 : 4,
                        static_cast<std::size_t>(std::max<std::int64_t>(1, (capacity + 3) / 4))) {}

  bool push(T value) {  // push_back
    do {
      // relaxed: owner_block_ is written by this owner only (its own last store)
      const std::size_t owner_index = owner_block_.load(relaxed) & mask_;
      if (put(owner_index, value) == code::success) return true;
    } while (advance_put_index());
    return false;
  }

  std::optional<T> pop() {  // pop_back
    do {
      const std::size_t owner_index = owner_block_.load(relaxed) & mask_;  // as in push
      const result r = get(owner_index);
      if (r.status == code::success) return r.value;
      if (r.status == code::done) return std::nullopt;
    } while (advance_get_index());
    return std::nullopt;
  }

  stealcheck::steal_result<T> steal() {  // steal_front
    std::size_t thief = 0;
    do {
      // relaxed: partner is the thieves' CAS of thief_block_ in advance_steal_index, which
      // orders nothing: finding 2 (RC11) of docs/case-studies/stdexec-bwos.md
      thief = thief_block_.load(relaxed);
      const std::size_t thief_index = thief & mask_;
      result r = steal_block(thief_index);
      while (r.status != code::done) {
        if (r.status == code::success) return stealcheck::steal_result<T>::item(r.value);
        if (r.status == code::empty) return stealcheck::steal_result<T>::abort();
        r = steal_block(thief_index);
      }
    } while (advance_steal_index(thief));
    return stealcheck::steal_result<T>::abort();
  }

 private:
  // relaxed throughout, as stdexec: owner_block_ is the owner's; thief_block_ is a position
  // compared and moved, never a publication (the blocks' steal_tail carry that)
  bool advance_get_index() {
    const std::size_t owner_counter = owner_block_.load(relaxed);
    std::size_t predecessor = owner_counter - 1;
    const std::size_t predecessor_index = predecessor & mask_;
    const auto [front, back] = takeover(predecessor_index);
    if (front != back) {
      std::size_t thief_counter = thief_block_.load(relaxed);
      if (thief_counter == predecessor) {
        predecessor += b_.n;
        thief_counter += b_.n - 1;
        thief_block_.store(thief_counter, relaxed);
      }
      owner_block_.store(predecessor, relaxed);
      return true;
    }
    return false;
  }

  // relaxed throughout, as advance_get_index; grant's release store publishes the block
  bool advance_put_index() {
    const std::size_t owner_counter = owner_block_.load(relaxed);
    const std::size_t next_counter = owner_counter + 1;
    const std::size_t thief_counter = thief_block_.load(relaxed);
    if (next_counter - thief_counter >= b_.n) return false;
    const std::size_t next_index = next_counter & mask_;
    if (!is_writable(next_index)) return false;
    grant(owner_counter & mask_);
    owner_block_.store(next_counter, relaxed);
    reclaim(next_index);
    return true;
  }

  // relaxed CAS and load of thief_block_: is_stealable's acquire load orders the next block
  bool advance_steal_index(std::size_t expected_thief_counter) {
    std::size_t thief_counter = expected_thief_counter;
    const std::size_t next_counter = thief_counter + 1;
    if (is_stealable(next_counter & mask_)) {
      thief_block_.compare_exchange_strong(thief_counter, next_counter, relaxed);
      return true;
    }
    return thief_block_.load(relaxed) != thief_counter;
  }

  // block_type's member functions, on block i.
  code put(std::size_t i, T value) {
    const std::uint64_t back = b_.tail[i].load(relaxed);  // relaxed: the owner's own last store
    if (back < b_.size) {
      b_.slot(i, back).write() = value;
      // release: pairs with steal's acquire load of tail; publishes the slot written above
      b_.tail[i].store(back + 1, release);
      return code::success;
    }
    return code::full;
  }
  result get(std::size_t i) {
    // relaxed: head and tail of the owner's block are the owner's own last stores
    const std::uint64_t front = b_.head[i].load(relaxed);
    if (front == b_.size) return {code::done, T{}};
    const std::uint64_t back = b_.tail[i].load(relaxed);
    if (front == back) return {code::empty, T{}};
    const T value = b_.slot(i, back - 1).read();
    // release, as stdexec: the slot was the owner's; pairs with steal's load of tail
    b_.tail[i].store(back - 1, release);
    return {code::success, value};
  }
  result steal_block(std::size_t i) {
    // relaxed: only the expected value of the CAS below; the acquire load of tail orders
    std::uint64_t spos = b_.steal_tail[i].load(relaxed);
    if (spos == b_.size) return {code::done, T{}};
    // acquire: pairs with put's release store of tail (the slots below it are written)
    const std::uint64_t back = b_.tail[i].load(acquire);
    if (spos == back) return {code::empty, T{}};
    // stdexec: relaxed; as in the second version (below).
    if (!b_.steal_tail[i].compare_exchange_strong(spos, spos + 1, AcquireClaim ? acquire : relaxed,
                                                  relaxed)) {
      return {code::conflict, T{}};
    }
    const T value = b_.slot(i, spos).read();
    // release: pairs with reclaim's acquire load; the slot is read before the block is reused
    b_.steal_head[i].fetch_add(1, release);
    return {code::success, value};
  }
  struct takeover_result {
    std::uint64_t front;
    std::uint64_t back;
  };
  // relaxed: the exchange's atomicity alone decides the race with a thief's claim; head and
  // tail are the owner's own stores
  takeover_result takeover(std::size_t i) {
    const std::uint64_t spos = b_.steal_tail[i].exchange(b_.size, relaxed);
    if (spos == b_.size) return {b_.head[i].load(relaxed), b_.tail[i].load(relaxed)};
    b_.head[i].store(spos, relaxed);
    return {spos, b_.tail[i].load(relaxed)};
  }
  // relaxed: reclaim's acquire load of steal_head orders the reuse
  bool is_writable(std::size_t i) const { return b_.steal_tail[i].load(relaxed) == b_.size; }
  void reclaim(std::size_t i) {
    const std::uint64_t expected_steal_head = b_.tail[i].load(relaxed);  // the owner's own
    // acquire: pairs with steal's release fetch_add; every thief's slot read is done
    while (b_.steal_head[i].load(acquire) != expected_steal_head)
      Mem::retry_read_only();
    // relaxed: the block is closed to thieves; its next grant's release store publishes these
    b_.head[i].store(0, relaxed);
    b_.tail[i].store(0, relaxed);
    b_.steal_tail[i].store(b_.size, relaxed);
    b_.steal_head[i].store(0, relaxed);
  }
  void grant(std::size_t i) {
    const std::uint64_t old_head = b_.head[i].exchange(b_.size, relaxed);  // the owner's field
    // release: publishes the block's slots; its partner is meant to be the thief's reads of
    // steal_tail, which are relaxed (finding 1 of docs/case-studies/stdexec-bwos.md)
    b_.steal_tail[i].store(old_head, release);
  }
  // acquire: pairs with grant's release store of steal_tail
  bool is_stealable(std::size_t i) const { return b_.steal_tail[i].load(acquire) != b_.size; }

  stdexec_bwos_detail::block_arrays<T, Mem> b_;
  std::size_t mask_;
  typename Mem::template atomic<std::size_t> owner_block_;
  typename Mem::template atomic<std::size_t> thief_block_;
};

/// The second version (after "Implement round detection"): block counters (round << 32 |
/// index) last_block_ and start_block_, written by the owner only; head and steal_tail carry
/// the block's round; reclaim waits for steal_count to reach head's index.
template <class T, class Mem = stealcheck::native_memory, bool AcquireClaim = false>
class stdexec_bwos {
  using code = stdexec_bwos_detail::code;
  using result = stdexec_bwos_detail::fetch_result<T>;
  static constexpr auto relaxed = stdexec_bwos_detail::relaxed;
  static constexpr auto acquire = stdexec_bwos_detail::acquire;
  static constexpr auto release = stdexec_bwos_detail::release;
  static constexpr std::uint64_t low = 0xFFFF'FFFFu;

 public:
  using value_type = T;
  static constexpr bool owner_shares = true;

  /// stdexec: lifo_queue(num_blocks, block_size), num_blocks rounded up to a power of 2
  /// (requires at least 2).
  stdexec_bwos(std::size_t num_blocks, std::size_t block_size)
      : b_(std::bit_ceil(num_blocks), block_size),
        mask_(b_.n - 1),
        last_block_(0, "last_block"),
        start_block_(0, "start_block") {
    // relaxed: before any thread starts; the threads' creation orders them
    for (std::size_t i = 0; i < b_.n; ++i) {  // block_type(block_size)
      b_.head[i].store(0xFFFF'FFFF'0000'0000 | b_.size, relaxed);
      b_.tail[i].store(b_.size, relaxed);
      b_.steal_head[i].store(b_.size, relaxed);
      b_.steal_tail[i].store(0xFFFF'FFFF'0000'0000 | b_.size, relaxed);
    }
    reclaim(0, 0);
  }
  /// The checkers' constructor: 2 blocks of 1 slot up to a capacity of 2, else 4 blocks.
  explicit stdexec_bwos(std::int64_t capacity)
      : stdexec_bwos(capacity <= 2 ? 2 : 4,
                     static_cast<std::size_t>(std::max<std::int64_t>(1, (capacity + 3) / 4))) {}

  bool push(T value) {                              // push_back
    std::size_t owner = last_block_.load(relaxed);  // relaxed: written by this owner only
    do {
      if (put(owner & mask_, value) == code::success) return true;
    } while (advance_put_index(owner));
    return false;
  }

  std::optional<T> pop() {                          // pop_back
    std::size_t owner = last_block_.load(relaxed);  // as in push
    std::size_t owner_index = 0;
    do {
      owner_index = owner & mask_;
      const result r = get(owner_index);
      if (r.status == code::success) return r.value;
      if (r.status == code::done) return std::nullopt;
    } while (advance_get_index(owner, owner_index));
    return std::nullopt;
  }

  stealcheck::steal_result<T> steal() {  // steal_front
    // relaxed: a starting point; each block's steal_tail and its round decide what is taken
    std::size_t thief = start_block_.load(relaxed);
    do {
      const auto thief_round = static_cast<std::uint32_t>(thief >> 32);
      const std::size_t thief_index = thief & mask_;
      result r = steal_block(thief_index, thief_round);
      while (r.status != code::done) {
        if (r.status == code::success) return stealcheck::steal_result<T>::item(r.value);
        if (r.status == code::empty) return stealcheck::steal_result<T>::abort();
        r = steal_block(thief_index, thief_round);
      }
    } while (advance_steal_index(thief));
    return stealcheck::steal_result<T>::abort();
  }

 private:
  std::size_t increase_block_counter(std::size_t counter) const {
    const auto round = static_cast<std::uint32_t>(counter >> 32);
    const std::size_t next_index = ((counter & mask_) + 1) & mask_;
    const std::uint32_t next_round = round + static_cast<std::uint32_t>(next_index == 0);
    return (static_cast<std::size_t>(next_round) << 32) | next_index;
  }
  std::size_t decrease_block_counter(std::size_t counter) const {
    const auto round = static_cast<std::uint32_t>(counter >> 32);
    const std::size_t index = counter & mask_;
    const std::size_t prev_index = (index - 1) & mask_;
    const std::uint32_t prev_round = round - static_cast<std::uint32_t>(index == 0);
    return (static_cast<std::size_t>(prev_round) << 32) | prev_index;
  }

  // relaxed throughout, as stdexec: start_block_ and last_block_ are written by the owner only
  // and read by thieves as bounds of their walk, never as a publication
  bool advance_get_index(std::size_t& owner, std::size_t owner_index) {
    const std::size_t start = start_block_.load(relaxed);
    if (start == owner) return false;
    const std::size_t predecessor = decrease_block_counter(owner);
    reduce_round(owner_index);
    takeover(predecessor & mask_);
    last_block_.store(predecessor, relaxed);
    owner = predecessor;
    return true;
  }

  // relaxed throughout, as advance_get_index; grant's release store publishes the block
  bool advance_put_index(std::size_t& owner) {
    const std::size_t next_index = (owner + 1) & mask_;
    const std::size_t owner_index = owner & mask_;
    if (next_index == owner_index) return false;
    const std::uint32_t next_round =
        static_cast<std::uint32_t>(owner >> 32) + static_cast<std::uint32_t>(next_index == 0);
    if (!is_writable(next_index, next_round)) return false;
    const std::size_t first = start_block_.load(relaxed);
    if (next_index == (first & mask_)) {
      start_block_.store(increase_block_counter(first), relaxed);
    }
    grant(owner_index);
    owner = (static_cast<std::size_t>(next_round) << 32) | next_index;
    reclaim(next_index, next_round);
    last_block_.store(owner, relaxed);
    return true;
  }

  // relaxed: last_block_ bounds the walk, as above
  bool advance_steal_index(std::size_t& thief) {
    thief = increase_block_counter(thief);
    return thief < last_block_.load(relaxed);
  }

  // block_type's member functions, on block i.
  code put(std::size_t i, T value) {
    const std::uint64_t back = b_.tail[i].load(relaxed);  // relaxed: the owner's own last store
    const std::uint64_t back_idx = back & low;
    if (back_idx < b_.size) {
      b_.slot(i, back_idx).write() = value;
      // release: pairs with steal's acquire load of tail; publishes the slot written above
      b_.tail[i].store(back + 1, release);
      return code::success;
    }
    return code::full;
  }
  result get(std::size_t i) {
    // relaxed: tail and head of the owner's block are the owner's own last stores
    const std::uint64_t back = b_.tail[i].load(relaxed);
    const std::uint64_t back_idx = back & low;
    if (back_idx == 0) return {code::empty, T{}};
    const std::uint64_t front_idx = b_.head[i].load(relaxed) & low;
    if (front_idx == back_idx) return {code::empty, T{}};
    const T value = b_.slot(i, back_idx - 1).read();
    // release, as stdexec: the slot was the owner's; pairs with steal's load of tail
    b_.tail[i].store(back - 1, release);
    return {code::success, value};
  }
  result steal_block(std::size_t i, std::uint32_t thief_round) {
    // relaxed: the expected value of the CAS below and the round check; finding 1 says what
    // this leaves unordered
    std::uint64_t spos = b_.steal_tail[i].load(relaxed);
    const std::uint64_t sidx = spos & low;
    const std::uint64_t round = spos >> 32;
    if (sidx == b_.size) return {thief_round == round ? code::done : code::empty, T{}};
    // acquire: pairs with put's release store of tail (the slots below it are written)
    const std::uint64_t back = b_.tail[i].load(acquire);
    if (sidx == back) return {code::empty, T{}};
    // stdexec: relaxed. Partner: grant's release store of steal_tail, which publishes the
    // block's slots. Relaxed, the slot read below is ordered only by the acquire load of tail,
    // which can read a store older than the grant, and a claim that succeeds on a steal_tail
    // value granted again (a block taken over and granted anew) is not ordered at all.
    if (!b_.steal_tail[i].compare_exchange_strong(spos, spos + 1, AcquireClaim ? acquire : relaxed,
                                                  relaxed)) {
      return {code::conflict, T{}};
    }
    const T value = b_.slot(i, sidx).read();
    // release (stdexec: steal_count_): pairs with reclaim's acquire load, as above
    b_.steal_head[i].fetch_add(1, release);
    return {code::success, value};
  }
  // relaxed: the block is the owner's and closed; thieves compare only its round
  void reduce_round(std::size_t i) {
    const std::uint64_t steal_tail = b_.steal_tail[i].load(relaxed);
    const auto round = static_cast<std::uint32_t>(steal_tail >> 32);
    b_.steal_tail[i].store((static_cast<std::uint64_t>(round - 1) << 32) | (steal_tail & low),
                           relaxed);
  }
  // relaxed: the exchange's atomicity alone decides the race with a thief's claim; head is
  // the owner's own field
  void takeover(std::size_t i) {
    const std::uint64_t head = b_.head[i].load(relaxed);
    const std::uint64_t spos = b_.steal_tail[i].exchange(head, relaxed);
    b_.head[i].store(spos, relaxed);
  }
  // relaxed: reclaim's acquire load of steal_count orders the reuse
  bool is_writable(std::size_t i, std::uint32_t round) const {
    const std::uint64_t writeable_spos = (static_cast<std::uint64_t>(round - 1) << 32) | b_.size;
    return b_.steal_tail[i].load(relaxed) == writeable_spos;
  }
  void reclaim(std::size_t i, std::uint32_t round) {
    const std::uint64_t expected_steal_count = b_.head[i].load(relaxed) & low;  // the owner's
    // acquire: pairs with steal's release fetch_add, as above
    while (b_.steal_head[i].load(acquire) != expected_steal_count)
      Mem::retry_read_only();
    const std::uint64_t expanded_round = static_cast<std::uint64_t>(round) << 32;
    // relaxed: the block is closed to thieves; its next grant's release store publishes these
    b_.head[i].store(expanded_round, relaxed);
    b_.tail[i].store(0, relaxed);
    b_.steal_tail[i].store(expanded_round | b_.size, relaxed);
    b_.steal_head[i].store(0, relaxed);
  }
  void grant(std::size_t i) {
    // relaxed: the owner's block is closed; only this owner writes its steal_tail and head
    const std::uint64_t block_end = b_.steal_tail[i].load(relaxed);
    const std::uint64_t old_head = b_.head[i].exchange(block_end, relaxed);
    // release: publishes the block's slots; its partner is meant to be the thief's reads of
    // steal_tail, which are relaxed (finding 1 of docs/case-studies/stdexec-bwos.md)
    b_.steal_tail[i].store(old_head, release);
  }

  stdexec_bwos_detail::block_arrays<T, Mem> b_;
  std::size_t mask_;
  typename Mem::template atomic<std::size_t> last_block_;
  typename Mem::template atomic<std::size_t> start_block_;
};

}  // namespace case_studies
// SPDX-License-Identifier: Apache-2.0
