// history_recorder.cpp: a program that records a history of its own deque for
// `stealcheck lincheck --history FILE` (the format: stealcheck's docs/history-format.md).
// Nothing of stealcheck runs here: the deque is deques/legacy_deque.hpp with plain std::atomic (as
// compiled natively), the threads are std::threads, and the file is written by hand. Any program
// in any language can record the same way.
//
// The stamps come from one shared counter incremented with an acq_rel RMW right before and
// right after each operation: if A's response stamp is below B's invoke stamp, A's operation
// happens before B's, so the real-time order in the file is real (wall clocks of two cores are
// not).
//
// Usage: history_recorder OUT.jsonl [OPS] [--lie]
//   OPS    owner operations (default 20000); two thieves steal until the owner is done.
//   --lie  write the first value taken as one that was never pushed: a history the checker
//          must reject (the broken input beside the correct one).
// Exit 0 when the file is written, 2 on bad arguments or an unwritable file.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "deques/legacy_deque.hpp"

namespace {

struct record {
  std::uint32_t thread;
  const char* op;       // push, pop, steal
  bool has_value;       // push: always; pop/steal: took a value
  std::uint64_t value;  // the value pushed or taken
  const char* none;     // pop/steal without a value: "empty" or "abort"
  std::uint64_t invoke, response;
};

std::atomic<std::uint64_t> clock_counter{0};
std::uint64_t stamp() {
  return clock_counter.fetch_add(1, std::memory_order_acq_rel);  // the order is real
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: history_recorder OUT.jsonl [OPS] [--lie]\n");
    return 2;
  }
  const std::string out_path = argv[1];
  std::uint64_t ops = 20000;
  bool lie = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--lie") {
      lie = true;
    } else if (a.find_first_not_of("0123456789") == std::string::npos && a.size() < 10) {
      ops = std::stoull(a);
    } else {
      std::fprintf(stderr, "history_recorder: error: bad argument '%s'\n", a.c_str());
      return 2;
    }
  }

  example::legacy_deque<std::uint64_t, 1024> d;
  constexpr int thieves = 2;
  std::vector<std::vector<record>> logs(thieves + 1);
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 1; t <= thieves; ++t) {
    threads.emplace_back([&, t] {
      auto& log = logs[static_cast<std::size_t>(t)];
      do {
        const std::uint64_t inv = stamp();
        auto r = d.steal();
        const std::uint64_t res = stamp();
        const bool got = r.has_value();
        log.push_back({static_cast<std::uint32_t>(t), "steal", got, got ? *r : 0,
                       r.is_abort() ? "abort" : "empty", inv, res});
      } while (!done.load(std::memory_order_acquire));  // pairs with the owner's release store
    });
  }
  auto& own = logs[0];
  std::uint64_t next = 0;
  auto pop = [&] {
    const std::uint64_t inv = stamp();
    auto v = d.pop();
    const std::uint64_t res = stamp();
    own.push_back({0, "pop", v.has_value(), v.value_or(0), "empty", inv, res});
    return v.has_value();
  };
  for (std::uint64_t i = 0; i < ops; ++i) {
    if (i % 3 == 2) {
      pop();
      continue;
    }
    const std::uint64_t inv = stamp();
    const bool pushed = d.push(next);
    const std::uint64_t res = stamp();
    if (pushed) own.push_back({0, "push", true, next++, "", inv, res});
    if (!pushed) pop();  // full: make room
  }
  done.store(true, std::memory_order_release);  // the thieves stop after their next steal
  for (auto& th : threads)
    th.join();
  while (pop()) {  // the owner drains what is left
  }

  if (lie) {  // the first value taken becomes one never pushed
    const record* first = nullptr;
    for (auto& log : logs)
      for (auto& r : log)
        if (std::string(r.op) != "push" && r.has_value &&
            (first == nullptr || r.invoke < first->invoke))
          first = &r;
    if (first != nullptr) const_cast<record*>(first)->value = next + 1000;
  }

  std::ofstream f(out_path);
  f << "{\"stealcheck_history\": 1, \"spec\": \"lifo_owner\"}\n";
  std::uint64_t n = 0;
  for (const auto& log : logs) {
    for (const record& r : log) {
      f << "{\"thread\": " << r.thread << ", \"op\": \"" << r.op << "\", ";
      if (std::string(r.op) == "push")
        f << "\"value\": " << r.value;
      else if (r.has_value)
        f << "\"result\": " << r.value;
      else
        f << "\"result\": \"" << r.none << "\"";
      f << ", \"invoke\": " << r.invoke << ", \"response\": " << r.response << "}\n";
      ++n;
    }
  }
  if (!f) {
    std::fprintf(stderr, "history_recorder: error: cannot write %s\n", out_path.c_str());
    return 2;
  }
  std::printf("%llu operations of 1 owner and %d thieves written to %s%s\n",
              static_cast<unsigned long long>(n), thieves, out_path.c_str(),
              lie ? " (one result falsified)" : "");
  return 0;
}
// SPDX-License-Identifier: Apache-2.0
