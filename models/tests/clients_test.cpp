// The correct variants pass every client exhaustively under RC11; the known-bad chase_lev, the
// and abp variants are caught with a trace and a replay token that reproduces the failure.
//
// Run time (release, 1 core): well under a second for all variants and clients
// (STEALCHECK_TEST_SCALE does not change it: the clients are exhaustive and small).
#include "stealcheck/detail/models/front/clients.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/chase_lev.hpp"
#include "stealcheck/detail/deques/locked.hpp"
#include "stealcheck/detail/deques/registry.hpp"
#include "stealcheck/detail/deques/tokio.hpp"
#include "stealcheck/detail/deques/tokio_lifo.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/graph/site_ids.hpp"
#include "stealcheck/detail/models/tests/sweep.hpp"

namespace stealcheck::model {
namespace {

// steal_half's pop once stored the decremented bottom with a relaxed store. Under C++20
// release sequences (the oracle's semantics) a thief that reads that bottom with its acquire
// load does not synchronize with the earlier release store of bottom in push, so it can read a
// slot before the pushed value. This checker found it in push2_pop_steal2; the source now
// uses release (deques/steal_half.hpp), and StealHalfPopStoreBottomNeedsRelease keeps the
// relaxed order as a mutation that must still be caught.
options options_for(const variant_info&) {
  return options{};
}

TEST(Clients, CorrectVariantsPassEveryClient) {
  for_each_swept_variant([&](auto tag, const variant_info& info) {
    if (info.known_bad) return;
    for (const auto& cl : clients::clients_for<decltype(tag)::template deque>(info)) {
      if (cl.large) continue;
      const result r = explore(options_for(info), cl.run);
      EXPECT_TRUE(r.ok()) << info.name << "/" << cl.name << ": " << r.bug->message << "\n"
                          << r.bug->trace;
      EXPECT_GT(r.complete, 0u) << info.name << "/" << cl.name;
      std::printf("%s/%s: %llu complete, %llu blocked, %.3fs\n", std::string(info.name).c_str(),
                  std::string(cl.name).c_str(), static_cast<unsigned long long>(r.complete),
                  static_cast<unsigned long long>(r.blocked), r.seconds);
    }
  });
}

// The names of the sites that the executions of `clients` gave an order to but that `listed`
// does not hold: a site missing from its variant's list() escapes mutation and --site.
template <class Clients>
std::set<std::string> unlisted_sites(const Clients& clients, std::span<const site* const> listed) {
  std::set<std::string_view> names;
  for (const site* s : listed)
    names.insert(s->name);
  std::set<std::string> out;
  options o;
  o.on_complete = [&](const graph& g, const consistency_checker&) {
    for (const auto& thread : g.threads)
      for (const event& e : thread)
        if (const site* s = site_at(e.src.site); s != nullptr && !names.contains(s->name))
          out.insert(std::string(s->name));
  };
  for (const auto& cl : clients) {
    if (cl.large) continue;
    (void)explore(o, cl.run);
  }
  return out;
}

TEST(Clients, EverySiteAnExecutionUsesIsInItsVariantsList) {
  for_each_swept_variant([&](auto tag, const variant_info& info) {
    const auto cls = clients::clients_for<decltype(tag)::template deque>(info);
    const std::set<std::string> missing = unlisted_sites(cls, info.sites);
    std::string names;
    for (const std::string& n : missing)
      names += " " + n;
    EXPECT_TRUE(missing.empty()) << info.name << ": used but not in its sites' list():" << names;
  });
}

// The check itself: chase_lev's sites with pop's fence left out of the list are caught.
struct chase_lev_sites_unlisted_fence : chase_lev_sites {
  template <class S>
  static constexpr auto list() {
    const auto all = chase_lev_sites::list<S>();
    std::array<const site*, std::tuple_size_v<decltype(all)> - 1> out{};
    // by name: under AddressSanitizer two sites' addresses do not compare in a constant
    std::copy_if(all.begin(), all.end(), out.begin(),
                 [](const site* s) { return s->name != S::pop_fence.name; });
    return out;
  }
};
template <class T, class Mem>
using chase_lev_unlisted_fence = chase_lev<T, Mem, chase_lev_sites_unlisted_fence>;

TEST(Clients, ASiteMissingFromItsListIsNamed) {
  const variant_info info{.name = "chase_lev_unlisted_fence",
                          .sites = sites_of<chase_lev_sites_unlisted_fence>()};
  ASSERT_EQ(info.sites.size(), chase_lev_sites::list<chase_lev_sites>().size() - 1);
  const std::set<std::string> missing =
      unlisted_sites(clients::clients_for<chase_lev_unlisted_fence>(info), info.sites);
  EXPECT_EQ(missing, std::set<std::string>{"chase_lev::pop.fence"});
}

TEST(Clients, StealHalfPopStoreBottomNeedsRelease) {
  options o;  // the mutation: weaken the fixed site back to relaxed
  o.sites.emplace_back("steal_half::pop.store_bottom", std::memory_order_relaxed);
  const result r = explore(o, clients::push2_pop_steal2<steal_half_tag::deque>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("value 0 was never pushed"), std::string::npos) << r.bug->message;
  std::printf("steal_half with pop.store_bottom=relaxed: %s\n%s", r.bug->message.c_str(),
              r.bug->trace.c_str());
}

template <template <class, class> class D>
result expect_caught(const char* client_name, void (*client_fn)(client&)) {
  result r = explore(options{}, client_fn);
  EXPECT_FALSE(r.ok()) << client_name << " did not catch the known-bad variant";
  if (r.ok()) return r;
  EXPECT_FALSE(r.bug->trace.empty());
  EXPECT_NE(r.bug->dot.find("digraph"), std::string::npos);
  EXPECT_FALSE(r.bug->replay_token.empty());
  options again;
  again.replay = r.bug->replay_token;
  const result rr = explore(again, client_fn);
  EXPECT_FALSE(rr.ok()) << "replay did not reproduce the failure";
  if (!rr.ok()) {
    EXPECT_EQ(rr.bug->kind, r.bug->kind);
    EXPECT_EQ(rr.bug->message, r.bug->message);
    // A check that fails while other threads still run (a result judged as it returns) may
    // fail in the replay before events the exploration had added elsewhere: the replay's
    // token is then a prefix of that execution, and replaying it gives it again.
    options thrice;
    thrice.replay = rr.bug->replay_token;
    const result r3 = explore(thrice, client_fn);
    EXPECT_FALSE(r3.ok());
    if (!r3.ok()) {
      EXPECT_EQ(r3.bug->replay_token, rr.bug->replay_token);
      EXPECT_EQ(r3.bug->message, r.bug->message);
    }
  }
  std::printf("%s: %s\n  token %s\n", client_name, r.bug->message.c_str(),
              r.bug->replay_token.c_str());
  return r;
}

TEST(Clients, NoPopFenceIsCaughtAsDoubleTake) {
  const result r = expect_caught<chase_lev_no_pop_fence>(
      "push2_pop_steal2", clients::push2_pop_steal2<chase_lev_no_pop_fence>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("taken twice"), std::string::npos) << r.bug->message;
}

TEST(Clients, TheWithoutItsStoreLoadFenceIsCaughtAsDoubleTake) {
  const result r = expect_caught<the_no_pop_fence>("push2_pop_steal2",
                                                   clients::push2_pop_steal2<the_no_pop_fence>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("taken twice"), std::string::npos) << r.bug->message;
}

// ABP's tag wraps after 2^TagBits resets. push_pop_push_pop_steal resets twice while the thief
// holds the age it read first: with one bit the thief's CAS succeeds on the value it read from
// slot 0 (1, or 2 if it read after the refill), which the owner already popped; with two bits
// (or the default 32) the client cannot wrap the tag.
template <class T, class Mem>
using abp_tag2 = abp_deque<T, Mem, abp_sites, 2>;

TEST(Clients, AbpOneBitTagIsCaughtByTheClientThatResetsTwice) {
  const result r = expect_caught<abp_tag1>("push_pop_push_pop_steal",
                                           clients::push_pop_push_pop_steal<abp_tag1>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("taken twice"), std::string::npos) << r.bug->message;
  const result two_bits = explore(options{}, clients::push_pop_push_pop_steal<abp_tag2>);
  EXPECT_TRUE(two_bits.ok()) << two_bits.bug->message;
  const result full = explore(options{}, clients::push_pop_push_pop_steal<abp>);
  EXPECT_TRUE(full.ok()) << full.bug->message;
  EXPECT_EQ(two_bits.complete, full.complete);
}

TEST(Clients, NoPushFenceIsCaughtAsStaleSlot) {
  const result r = expect_caught<chase_lev_no_push_fence>(
      "push_pop_steal2", clients::push_pop_steal2<chase_lev_no_push_fence>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("never pushed"), std::string::npos) << r.bug->message;
}

// Stealing from the bottom conserves every value, so only the hb-linearizability check
// (models/front/history.hpp) can catch it: push(1) push(2) || steal -> 2 has no sequential
// explanation when the owner then pops 1.
TEST(Clients, StealFromTheBottomIsCaughtByHbLinearizability) {
  const result r = expect_caught<locked_steal_bottom>(
      "push2_pop_steal2", clients::push2_pop_steal2<locked_steal_bottom>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::assertion);
  EXPECT_NE(r.bug->message.find("no linearization respecting happens-before"), std::string::npos)
      << r.bug->message;
}

// A thief that always reports "empty" conserves every value (the owner drains them), and
// each steal on its own has a sequential explanation: linearized before the pushes. Only
// happens-before *across threads* rules that out: spawned after push(1), the steal must see
// 1. Both results together, with no hb between the threads, are explained.
template <class T, class Mem>
struct never_steals : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() { return steal_result<T>::empty(); }
};

TEST(Clients, EmptyStealAfterAPushIsCaughtByCrossThreadHb) {
  const result r = explore(options{}, [](client& c) {
    clients::owned<never_steals<clients::value, memory>> o(4, spec::spec_kind::lifo_owner);
    o.push(c, 1);
    const auto th = c.spawn([&] { o.steal(c); });  // spawn: push(1) hb the steal
    c.join(th);
    o.finish(c);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.bug->message.find("no linearization respecting happens-before"), std::string::npos)
      << r.bug->message;
  const result unordered = explore(options{}, [](client& c) {
    clients::owned<never_steals<clients::value, memory>> o(4, spec::spec_kind::lifo_owner);
    const auto th = c.spawn([&] { o.steal(c); });  // may run first: "empty" is explained
    o.push(c, 1);
    c.join(th);
    o.finish(c);
  });
  EXPECT_TRUE(unordered.ok()) << unordered.bug->message;
}

TEST(Clients, OneStealCannotSeeThePopFenceBug) {
  // The oracle's lesson: against push, push, pop a single steal always reads top = 0 and the
  // owner pops index 1 without a CAS.
  const result r = explore(options{}, [](client& c) {
    clients::owned<chase_lev_no_pop_fence<clients::value, memory>> o(4,
                                                                     spec::spec_kind::lifo_owner);
    const auto th = c.spawn([&] { o.steal(c); });
    o.push(c, 1);
    o.push(c, 2);
    o.pop(c);
    c.join(th);
    o.finish(c);
  });
  EXPECT_TRUE(r.ok()) << r.bug->message;
}

// The clients for the paths a runtime takes first and tests rarely do. Each catches a deque that
// is wrong only on its path, which every other client misses.

// Models a deque with unsigned indices: pop on a deque that never held an item computes
// bottom - 1 as a huge index and returns whatever that slot holds (here 0).
template <class T, class Mem>
struct pops_garbage_when_never_filled : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  bool ever_pushed = false;  // owner-only
  void push(T v) {
    ever_pushed = true;
    locked_deque<T, Mem>::push(std::move(v));
  }
  std::optional<T> pop() {
    if (!ever_pushed) return T{0};
    return locked_deque<T, Mem>::pop();
  }
};

// Boxes every value; pop and steal free the box; the destructor forgets the boxes still held.
template <class T, class Mem>
class leaks_when_destroyed_nonempty {
 public:
  using value_type = T;
  explicit leaks_when_destroyed_nonempty(std::int64_t capacity) : boxes_(capacity) {}
  void push(T v) { boxes_.push(Mem::template create<T>(std::move(v))); }
  std::optional<T> pop() {
    auto b = boxes_.pop();
    return b ? std::optional<T>(unbox(*b)) : std::nullopt;
  }
  steal_result<T> steal() {
    auto r = boxes_.steal();
    if (r.is_empty()) return steal_result<T>::empty();
    if (r.is_abort()) return steal_result<T>::abort();
    return steal_result<T>::item(unbox(*std::move(r).take()));
  }

 private:
  static T unbox(T* box) {
    T v = std::move(*box);
    Mem::destroy(box);
    return v;
  }
  locked_deque<T*, Mem> boxes_;  // ~: the boxes still held are never destroyed
};

// Chase-Lev (seq_cst throughout, a fixed ring of 8) whose pop, after losing the last value's CAS
// to a thief, returns without restoring bottom. bottom then sits one below top, so the next push
// lands at an index the thieves count as taken: its value is lost. Only a client whose owner
// pushes again after a contested pop can see it.
template <class T, class Mem>
class keeps_bottom_after_a_lost_race {
  using slot = typename Mem::template atomic<T>;
  static constexpr std::int64_t mask = 7;

 public:
  using value_type = T;
  explicit keeps_bottom_after_a_lost_race(std::int64_t /*capacity*/)
      : slots_(Mem::template create_array<slot>(mask + 1, "ring")) {}
  keeps_bottom_after_a_lost_race(const keeps_bottom_after_a_lost_race&) = delete;
  keeps_bottom_after_a_lost_race& operator=(const keeps_bottom_after_a_lost_race&) = delete;
  ~keeps_bottom_after_a_lost_race() { Mem::destroy_array(slots_, mask + 1); }

  void push(T v) {
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
    slots_[b & mask].store(v, std::memory_order_seq_cst);
    bottom_.store(b + 1, std::memory_order_seq_cst);
  }
  std::optional<T> pop() {
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst) - 1;
    bottom_.store(b, std::memory_order_seq_cst);
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    if (t > b) {
      bottom_.store(b + 1, std::memory_order_seq_cst);
      return std::nullopt;
    }
    const T x = slots_[b & mask].load(std::memory_order_seq_cst);
    if (t < b) return x;
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst))
      return std::nullopt;  // the bug: bottom is left at b, one below top
    bottom_.store(b + 1, std::memory_order_seq_cst);
    return x;
  }
  steal_result<T> steal() {
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
    if (t >= b) return steal_result<T>::empty();
    const T x = slots_[t & mask].load(std::memory_order_seq_cst);
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst))
      return steal_result<T>::abort();
    return steal_result<T>::item(x);
  }

 private:
  typename Mem::template atomic<std::int64_t> top_{0, "top"};
  typename Mem::template atomic<std::int64_t> bottom_{0, "bottom"};
  slot* slots_;
};

// The clients that report D under `spec`; with first_only, the first of them only.
template <template <class, class> class D>
std::vector<std::string> clients_that_catch(spec::spec_kind spec = spec::spec_kind::lifo_owner,
                                            bool first_only = false) {
  std::vector<std::string> caught;
  variant_info info;
  info.spec = spec;
  for (const auto& cl : clients::clients_for<D>(info)) {
    if (cl.large) continue;
    const result r = explore(options{}, cl.run);
    if (!r.ok()) {
      caught.emplace_back(cl.name);
      std::printf("%s: %s\n", std::string(cl.name).c_str(), r.bug->message.c_str());
      if (first_only) break;
    }
  }
  return caught;
}

// Some client reports D under `spec` (stops at the first that does).
template <template <class, class> class D>
bool caught_by_a_client(spec::spec_kind spec = spec::spec_kind::lifo_owner) {
  return !clients_that_catch<D>(spec, true).empty();
}

TEST(Clients, PopOnANeverFilledDequeIsCaughtOnlyByTheClientThatPopsFirst) {
  EXPECT_EQ(clients_that_catch<pops_garbage_when_never_filled>(),
            std::vector<std::string>{"pop_push_pop_steal2"});
}

// Three deques that go on forever, each reported by what it did first.
// Pop on a deque that never held an item returns 0, a value never pushed, and from then on
// never reports empty (an index that wrapped): reported at that first pop, not as a loop.
template <class T, class Mem>
struct garbage_then_loops : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  bool corrupt = false;  // owner-only
  std::optional<T> pop() {
    if (corrupt) return T{0};
    auto v = locked_deque<T, Mem>::pop();
    if (!v) corrupt = true;
    return v ? v : std::optional<T>(T{0});
  }
};

// Pop on an empty deque retries forever, bumping a counter each time round (a loop that writes).
template <class T, class Mem>
struct pop_retries_forever : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  typename Mem::template atomic<std::int64_t> retries{0, "retries"};
  std::optional<T> pop() {
    for (;;) {
      if (auto v = locked_deque<T, Mem>::pop()) return v;
      retries.fetch_add(1, std::memory_order_relaxed);
    }
  }
};

// Steal waits for a flag nobody sets (a loop that only reads).
template <class T, class Mem>
struct steal_waits_forever : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  typename Mem::template atomic<int> never{0, "never"};
  steal_result<T> steal() {
    while (never.load(std::memory_order_acquire) == 0) {
    }
    return locked_deque<T, Mem>::steal();
  }
};

TEST(Clients, GarbageThenLoopIsReportedByItsFirstWrongResult) {
  const result r = explore(options{}, clients::pop_push_pop_steal2<garbage_then_loops>);
  ASSERT_TRUE(r.bug.has_value());
  EXPECT_EQ(r.bug->kind, error_kind::assertion) << r.bug->message;
  EXPECT_NE(r.bug->message.find("value 0 was never pushed (invented): T0:pop -> 0 returned it"),
            std::string::npos)
      << r.bug->message;
}

TEST(Clients, ALoopThatWritesNamesTheOperationAndIsNoSpin) {
  const result r = explore(options{}, clients::push_pop_steal2<pop_retries_forever>);
  ASSERT_TRUE(r.first_bound.has_value());
  EXPECT_FALSE(r.bug.has_value() && r.bug->kind == error_kind::assertion) << r.bug->message;
  EXPECT_TRUE(r.first_bound->loop_writes);
  // the thief took the value: the owner's pop, or the drain's, retries on an empty deque
  EXPECT_EQ(r.first_bound->message.find("thread 0's pop"), 0u) << r.first_bound->message;
  EXPECT_NE(r.first_bound->message.find("never returned"), std::string::npos);
  EXPECT_NE(r.first_bound->message.find("writes as it goes"), std::string::npos);
}

TEST(Clients, ALoopThatOnlyReadsNamesTheOperationAndIsASpin) {
  const result r = explore(options{}, clients::push_pop_steal2<steal_waits_forever>);
  ASSERT_TRUE(r.first_bound.has_value());
  EXPECT_FALSE(r.first_bound->loop_writes);
  EXPECT_NE(r.first_bound->message.find("thread 1's steal never returned"), std::string::npos)
      << r.first_bound->message;
  EXPECT_NE(r.first_bound->message.find("only reads"), std::string::npos);
}

// Pop never reports empty on a deque filled only by steal_into (a thief's own deque): it
// returns the last value again. The thief's pops after its steal_into stop past the values
// ever pushed and report it there, as the owner's final drain does, instead of looping until
// the event bound.
template <class T, class Mem>
struct stolen_into_pop_repeats : tokio_queue<T, Mem> {
  using tokio_queue<T, Mem>::tokio_queue;
  bool pushed_here = false;  // owner-only, as are push and pop
  std::optional<T> last;
  void push(T v) {
    pushed_here = true;
    tokio_queue<T, Mem>::push(std::move(v));
  }
  std::optional<T> pop() {
    std::optional<T> v = tokio_queue<T, Mem>::pop();
    if (v) last = v;
    return v || pushed_here ? v : last;
  }
};

TEST(Clients, APopAfterStealIntoThatNeverReportsEmptyIsReportedNotLooped) {
  variant_info info;
  info.spec = spec::spec_kind::fifo_owner;  // tokio's owner pops the oldest
  info.batch_steal = true;
  const auto all = clients::clients_for<stolen_into_pop_repeats>(info);
  const auto cl = std::find_if(all.begin(), all.end(),
                               [](const auto& e) { return e.name == "push5_pop4_steal_into"; });
  ASSERT_NE(cl, all.end());
  const result r = explore(options{}, cl->run);
  ASSERT_TRUE(r.bug.has_value());
  EXPECT_FALSE(r.first_bound.has_value()) << r.first_bound->message;
  EXPECT_EQ(r.bug->kind, error_kind::assertion) << r.bug->message;
  EXPECT_EQ(r.bug->failure, failure_kind::value_invented) << r.bug->message;
  EXPECT_NE(r.bug->message.find("after its steal_into returned"), std::string::npos)
      << r.bug->message;
  EXPECT_NE(r.bug->message.find("pop never reports empty"), std::string::npos) << r.bug->message;
}

// Only the client whose owner pushes and pops again after a contested pop sees the lost value.
TEST(Clients, BottomLeftBelowTopAfterALostRaceIsCaughtByPushingAgain) {
  EXPECT_EQ(clients_that_catch<keeps_bottom_after_a_lost_race>(),
            std::vector<std::string>{"push_pop_push_pop_steal"});
}

TEST(Clients, LeakOnDestructionIsCaughtOnlyByTheClientThatDestroysANonEmptyDeque) {
  EXPECT_EQ(clients_that_catch<leaks_when_destroyed_nonempty>(),
            std::vector<std::string>{"push3_steal_destroy"});
  const result r = explore(options{}, clients::push3_steal_destroy<leaks_when_destroyed_nonempty>);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bug->kind, error_kind::leak) << r.bug->message;
}

// The clients hold a variant to the spec it declares (variant_info::spec), not to the LIFO
// exactly-once one: each deque below passes every client under its own spec and is caught
// under the stricter one (and a lossy deque under the weakest).

// FIFO owner: pop takes the oldest value, as steal does (the locked deque's steal never aborts).
template <class T, class Mem>
struct pops_the_oldest : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  std::optional<T> pop() { return this->steal().take(); }
};

// At least once: a steal returns a copy of the top value and leaves it for the next taker.
template <class T, class Mem>
struct steals_a_copy : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    std::optional<T> v = this->pop();
    if (!v) return steal_result<T>::empty();
    this->push(T(*v));
    return steal_result<T>::item(std::move(*v));
  }
};

// Loses a value: a steal that finds two or more takes two and returns the first.
template <class T, class Mem>
struct steal_drops_one : locked_deque<T, Mem> {
  using locked_deque<T, Mem>::locked_deque;
  steal_result<T> steal() {
    steal_result<T> first = locked_deque<T, Mem>::steal();
    if (first.has_value() && this->size_hint() > 0)
      static_cast<void>(locked_deque<T, Mem>::steal());
    return first;
  }
};

TEST(Clients, FifoOwnerIsHeldToItsDeclaredSpec) {
  EXPECT_EQ(clients_that_catch<pops_the_oldest>(spec::spec_kind::fifo_owner),
            std::vector<std::string>{});
  EXPECT_TRUE(caught_by_a_client<pops_the_oldest>());
}

// Unordered: a steal from the bottom keeps every value once, in the wrong order.
TEST(Clients, UnorderedAcceptsAnyOrderButNotDuplicatesOrLoss) {
  EXPECT_EQ(clients_that_catch<locked_steal_bottom>(spec::spec_kind::unordered),
            std::vector<std::string>{});
  EXPECT_TRUE(caught_by_a_client<locked_steal_bottom>());
  EXPECT_TRUE(caught_by_a_client<steals_a_copy>(spec::spec_kind::unordered));
  EXPECT_TRUE(caught_by_a_client<steal_drops_one>(spec::spec_kind::unordered));
}

TEST(Clients, AtLeastOnceAllowsDuplicatesButNotLoss) {
  EXPECT_EQ(clients_that_catch<steals_a_copy>(spec::spec_kind::at_least_once),
            std::vector<std::string>{});
  EXPECT_TRUE(caught_by_a_client<steals_a_copy>());
  EXPECT_TRUE(caught_by_a_client<steal_drops_one>(spec::spec_kind::at_least_once));
}

// idempotent's clients reach its duplicates (the owner and a thief both take value 1) and the
// at_least_once spec accepts them; its known-bad loses a value, which every spec rejects.
TEST(Clients, IdempotentDuplicatesAreReachedAndAccepted) {
  // owner push 1, pop; one thief steals. Counts the executions where both take value 1.
  auto client_under = [](spec::spec_kind spec, std::uint64_t& twice) {
    return [spec, &twice](client& c) {
      clients::owned<idempotent_tag::deque<clients::value, memory>> o(4, spec);
      o.push(c, 1);
      const auto th = c.spawn([&] { o.steal(c); });
      o.pop(c);
      c.join(th);
      int ones = 0;
      for (const deque_op& op : o.h.ops())
        ones += op.kind != spec::op_kind::push && op.taken() == 1 ? 1 : 0;
      twice += ones == 2 ? 1 : 0;
      o.finish(c);
    };
  };
  std::uint64_t twice = 0;
  const result r = explore(options{}, client_under(spec::spec_kind::at_least_once, twice));
  EXPECT_TRUE(r.ok()) << r.bug->message;
  EXPECT_GT(twice, 0u);
  std::uint64_t unused = 0;  // held to exactly once, the same deque fails
  const result strict = explore(options{}, client_under(spec::spec_kind::lifo_owner, unused));
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.bug->message.find("value 1 was taken twice"), std::string::npos)
      << strict.bug->message;
  const result bad =
      explore(options{}, as_client([] {
                clients::run_script<idempotent_no_tag_tag::deque>(
                    clients::scripts::push_pop_push_pop_steal, builtin::idempotent_no_tag);
              }));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.bug->message.find("value 2 was lost"), std::string::npos) << bad.bug->message;
}

}  // namespace

// The built-in variant `Fixed` passes `script` (with `info`), and the same source with one
// change, `AsWritten`, fails it with a non-linearizable empty steal: the change a runtime's
// code needs before its thieves' empty is linearizable.
template <class Fixed, class AsWritten>
void expect_empty_steal_needs_the_change(const clients::script& script, const variant_info& info) {
  auto run = [&](auto tag) {
    return explore(options{}, as_client([&] {
                     clients::run_script<decltype(tag)::template deque>(script, info);
                   }));
  };
  const result ok = run(Fixed{});
  EXPECT_TRUE(ok.ok()) << ok.bug->message;
  const result as_written = run(AsWritten{});
  ASSERT_FALSE(as_written.ok());
  EXPECT_NE(as_written.bug->message.find("steal -> empty"), std::string::npos)
      << as_written.bug->message;
}

// Tokio's push_overflow takes the inject lock only to move the values: between its claim and
// the move, the newer half is in neither queue, and a thief that finds both empty then
// reports empty beside values pushed and not taken. deques/tokio.hpp takes the lock before
// the claim; with Tokio's placement the model checker finds that execution.
struct tokio_sites_lock_after_claim : tokio_sites {
  static constexpr bool overflow_locks_claim = false;
};
template <class T, class Mem>
using tokio_lock_after_claim = tokio_queue<T, Mem, tokio_sites_lock_after_claim>;

TEST(Clients, TokioThiefEmptyNeedsTheOverflowUnderTheInjectLock) {
  expect_empty_steal_needs_the_change<tokio_tag, variant_tag<tokio_lock_after_claim>>(
      clients::scripts::full_ring_push_pop_steal3, builtin::tokio);
}

// Go's thieves report abort, never empty (deques/go.hpp): while a push moves the old runnext
// into the ring (after its CAS of runnext, before its store of tail), a second thief that takes
// the new runnext leaves the old value in neither, and a thief that then finds the ring,
// runnext and the global queue empty, even re-reading them as runqempty does with seq_cst
// loads, reports empty beside a value pushed and not taken.
struct go_sites_thief_reports_empty : go_sites {
  static constexpr bool thieves_report_empty = true;
};
template <class T, class Mem>
using go_thief_reports_empty = go_runq<T, Mem, go_sites_thief_reports_empty>;

TEST(Clients, GoThiefEmptyIsNotLinearizableWithRunnext) {
  if (!full_scale)
    GTEST_SKIP() << "a claim about go's source: release only (models/tests/sweep.hpp)";
  expect_empty_steal_needs_the_change<go_tag, variant_tag<go_thief_reports_empty>>(
      clients::scripts::push2_push2_steal_2thieves, builtin::go);
}

// tokio_lifo's thieves report abort, never empty (deques/tokio.hpp), for the reason Go's do:
// while a push moves the slot's old value into the ring (after its swap, before its store of
// tail), a second thief that takes the new value leaves the old one in neither, and a thief
// that then finds the ring, the slot and the inject queue empty, even re-reading the ring and
// the slot under the inject lock, reports empty beside a value pushed and not taken.
struct tokio_lifo_sites_thief_reports_empty : tokio_lifo_sites {
  static constexpr bool thieves_report_empty = true;
};
template <class T, class Mem>
using tokio_lifo_thief_reports_empty = tokio_queue<T, Mem, tokio_lifo_sites_thief_reports_empty>;

TEST(Clients, TokioLifoThiefEmptyIsNotLinearizableWithTheStealableSlot) {
  if (!full_scale)
    GTEST_SKIP() << "a claim about tokio's source: release only (models/tests/sweep.hpp)";
  expect_empty_steal_needs_the_change<tokio_lifo_tag, variant_tag<tokio_lifo_thief_reports_empty>>(
      clients::scripts::push2_push2_steal_2thieves, builtin::tokio_lifo);
}

// crossbeam-deque's thieves load the ring again before their CAS and give up if the owner has
// swapped it (the fix of CVE-2021-32810). A LIFO victim's batch reads every value from the ring
// it loaded once: after a shrink, a pop and a push, the old ring still holds the popped value at
// the pushed index, and without the re-check the thief takes it again (proofs/crossbeam.md).
// The FIFO flavor's batch is one CAS and its owner never rewrites an index: every client
// passes there without the re-check, though some do reach a swap between the thief's two
// loads of the ring (more executions with the re-check: the extra load reads either ring).
struct crossbeam_fifo_sites_without_recheck : crossbeam_fifo_sites {
  static constexpr bool recheck_buffer = false;
};
template <class T, class Mem>
using crossbeam_fifo_without_recheck =
    crossbeam_worker<T, Mem, crossbeam_fifo_sites_without_recheck>;

// The client `name` of a variant's list (clients::clients_for), explored exhaustively.
result explore_named(const std::vector<clients::client_entry>& cls, std::string_view name) {
  for (const clients::client_entry& e : cls)
    if (e.name == name) return explore(options{}, e.run);
  ADD_FAILURE() << "no client " << name;
  return {};
}

TEST(Clients, CrossbeamRecheckIsNeededByTheLifoBatch) {
  constexpr std::string_view client = "push5_pop3_push_steal_into";
  const result bad = explore_named(clients::clients_for<crossbeam_lifo_no_recheck_tag::deque>(
                                       builtin::crossbeam_lifo_no_recheck),
                                   client);
  ASSERT_TRUE(bad.bug.has_value()) << "without the re-check, value 3 must be taken twice";
  EXPECT_NE(bad.bug->message.find("value 3 was taken twice"), std::string::npos)
      << bad.bug->message;
  const result fixed = explore_named(
      clients::clients_for<crossbeam_lifo_tag::deque>(builtin::crossbeam_lifo), client);
  EXPECT_TRUE(fixed.ok()) << "with the re-check: " << fixed.bug->message;
}

TEST(Clients, CrossbeamFifoRecheckChangesNoVerdict) {
  if (!full_scale) {
    GTEST_SKIP() << "a claim about crossbeam's source: release only (models/tests/sweep.hpp)";
  }
  const variant_info& info = builtin::crossbeam_fifo;
  const auto fixed = clients::clients_for<crossbeam_fifo_tag::deque>(info);
  const auto without = clients::clients_for<crossbeam_fifo_without_recheck>(info);
  ASSERT_EQ(fixed.size(), without.size());
  std::size_t more = 0;
  for (std::size_t i = 0; i < fixed.size(); ++i) {
    if (fixed[i].large) continue;
    const result a = explore(options{}, fixed[i].run);
    const result b = explore(options{}, without[i].run);
    EXPECT_TRUE(a.ok()) << fixed[i].name;
    EXPECT_TRUE(b.ok()) << fixed[i].name << " without the re-check: " << b.bug->message;
    if (a.complete > b.complete) ++more;
  }
  EXPECT_GT(more, 0u) << "no client reaches a swap between a thief's two loads";
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
