// models/runtime/run_memory.cpp: locations and model allocations of one run (see run_memory.hpp).
#include "stealcheck/detail/models/runtime/run_memory.hpp"

#include <new>

namespace stealcheck::model::detail {

namespace {
void release(void* p) {
  ::operator delete (p, std::align_val_t{alignof(std::max_align_t)});
}
}  // namespace

run_memory::~run_memory() {
  give_back();
  for (const auto& per_thread : keyed_)
    for (const auto& [bytes, p] : per_thread)
      release(p);
}

void run_memory::reset(std::size_t locations) {
  addr_.assign(locations, 0);
  since_.assign(locations, 0);
  freed_.assign(locations, event_id::none());
  last_.assign(locations, 0);
  element_.reset();
  allocs_.clear();
  made_.assign(made_.size(), 0);
}

void run_memory::grow(std::uint32_t loc) {
  addr_.resize(loc + 1, 0);
  since_.resize(loc + 1, 0);
  freed_.resize(loc + 1);
  last_.resize(loc + 1, 0);
}

std::size_t run_memory::allocate(std::size_t t, std::size_t bytes, std::size_t count,
                                 void (*destroy)(void*, std::size_t)) {
  if (t >= keyed_.size()) {
    keyed_.resize(t + 1);
    made_.resize(t + 1, 0);
  }
  const std::size_t k = made_[t]++;
  auto& mine = keyed_[t];
  if (k == mine.size()) mine.emplace_back(0, nullptr);
  auto& [size, p] = mine[k];
  if (size != bytes) {  // first time, or this allocation had another size in an earlier run
    if (p != nullptr) release(p);
    p = ::operator new (bytes, std::align_val_t{alignof(std::max_align_t)});
    size = bytes;
  }
  allocs_.push_back({p, bytes, count, destroy, true, event_id::none(), event_id::none()});
  return allocs_.size() - 1;
}

bool run_memory::free_locations(std::size_t k, event_id f) {
  const alloc_record& a = allocs_[k];
  const auto lo = reinterpret_cast<std::uintptr_t>(a.storage);
  bool any = false;
  for (std::size_t l = 0; l < addr_.size(); ++l)
    if (since_[l] > k && addr_[l] >= lo && addr_[l] < lo + a.bytes) {
      freed_[l] = f;
      any = true;
    }
  return any;
}

void run_memory::give_back() {
  allocs_.clear();
}

}  // namespace stealcheck::model::detail
// SPDX-License-Identifier: Apache-2.0
