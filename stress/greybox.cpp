// stress/greybox.cpp: greybox coverage and corpus (see greybox.hpp).
#include "stealcheck/detail/stress/greybox.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/random.hpp"
#include "stealcheck/detail/models/graph/graph.hpp"
#include "stealcheck/detail/models/graph/memory_model.hpp"

namespace stealcheck::stress::fuzz {

namespace {
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  std::uint64_t s = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  return splitmix64_next(s);
}

std::uint64_t access_key(const source_loc& src) {
  return mix(reinterpret_cast<std::uintptr_t>(src.file), src.line);
}

// FNV-1a: the file name of an entry, the same on every machine.
std::string file_name(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}.scenario", h);
}
}  // namespace

std::size_t coverage::add(const model::graph& g) {
  std::size_t fresh = 0;
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (const model::event& e : g.threads[t]) {
      if (!model::is_read(e) || !g.contains(e.rf)) continue;
      const model::event& w = g.at(e.rf);
      std::uint64_t k = mix(access_key(e.src), access_key(w.src));
      k = mix(k, (static_cast<std::size_t>(e.rf.thread) == t ? 1U : 0U) | (e.cas_ok ? 2U : 0U));
      if (seen_.insert(k).second) ++fresh;
    }
  return fresh;
}

void corpus::open(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw harness::usage_error(fmt::format("--corpus: cannot make directory '{}'", dir));
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(dir, ec))
    if (f.is_regular_file()) files.push_back(f.path());
  std::sort(files.begin(), files.end());  // the same order on every machine
  for (const fs::path& p : files) {
    std::ifstream in(p);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string error;
    const auto s = lincheck::parse_scenario(text, error);
    if (!s)
      throw harness::usage_error(
          fmt::format("--corpus: '{}' is not a scenario: {}", p.string(), error));
    if (s->thieves.size() + 1 > model::max_threads)
      throw harness::usage_error(fmt::format("--corpus: '{}' has {} thieves (at most {})",
                                             p.string(), s->thieves.size(),
                                             model::max_threads - 1));
    add(*s);
  }
  dir_ = dir;
}

void corpus::add(const lincheck::scenario& s) {
  const std::string text = lincheck::describe(s);
  if (!known_.insert(text).second) return;
  entries_.push_back(s);
  if (dir_.empty()) return;
  std::ofstream out(std::filesystem::path(dir_) / file_name(text));
  out << text << "\n";
}

lincheck::scenario corpus::next(std::uint64_t& stream, const lincheck::scenario& fresh) const {
  if (entries_.empty() || splitmix64_next(stream) % 8 == 0) return fresh;
  const std::size_t n = entries_.size();
  const std::size_t newest = std::min<std::size_t>(n, 8);
  const std::size_t pick = splitmix64_next(stream) % 2 == 0
                               ? n - 1 - splitmix64_next(stream) % newest
                               : splitmix64_next(stream) % n;
  lincheck::scenario s = entries_[pick];
  const std::uint64_t edits = 1 + splitmix64_next(stream) % 3;
  for (std::uint64_t k = 0; k < edits; ++k)
    mutate(s, stream);
  lincheck::repair_thief_steps(s);
  return s;
}

void corpus::mutate(lincheck::scenario& s, std::uint64_t& stream) const {
  auto draw = [&](std::size_t n) { return static_cast<std::size_t>(splitmix64_next(stream) % n); };
  auto at = [&](auto& v, std::size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k); };
  if (s.thieves.empty()) s.thieves.push_back({lincheck::thief_step::steal});
  auto& owner = draw(4) == 0 ? s.prefix : s.owner;
  switch (draw(8)) {
    case 0:  // flip an owner step
      if (!owner.empty()) {
        auto& step = owner[draw(owner.size())];
        step = step == lincheck::owner_step::push ? lincheck::owner_step::pop
                                                  : lincheck::owner_step::push;
      }
      return;
    case 1:  // insert an owner step
      if (s.prefix.size() + s.owner.size() < max_steps_)
        owner.insert(at(owner, draw(owner.size() + 1)),
                     draw(3) != 0 ? lincheck::owner_step::push : lincheck::owner_step::pop);
      return;
    case 2:  // delete an owner step
      if (!owner.empty()) owner.erase(at(owner, draw(owner.size())));
      return;
    case 3: {  // add a steal
      auto& t = s.thieves[draw(s.thieves.size())];
      if (t.size() < max_steps_) t.insert(at(t, draw(t.size() + 1)), lincheck::thief_step::steal);
      return;
    }
    case 4: {  // remove a steal (a thief keeps one)
      auto& t = s.thieves[draw(s.thieves.size())];
      if (t.size() > 1) t.erase(at(t, draw(t.size())));
      return;
    }
    case 5:  // add a thief (a copy of one) or remove one
      if (draw(2) == 0 && s.thieves.size() < max_thieves_)
        s.thieves.push_back(s.thieves[draw(s.thieves.size())]);
      else if (s.thieves.size() > 1)
        lincheck::remove_thief(s, draw(s.thieves.size()));
      return;
    case 6: {  // a steal becomes a batch steal, then (cross_) a steal from another thief
      const std::size_t i = draw(s.thieves.size());
      auto& t = s.thieves[i];
      if (batch_ && !t.empty()) {
        auto& step = t[draw(t.size())];
        if (step == lincheck::thief_step::steal)
          step = lincheck::thief_step::steal_batch;
        else if (step == lincheck::thief_step::steal_batch && cross_ && s.thieves.size() > 1)
          step = lincheck::thief_step::steal_from(
              (i + 1 + draw(s.thieves.size() - 1)) % s.thieves.size() + 1);
        else
          step = lincheck::thief_step::steal;
      }
      return;
    }
    default:  // a thief's steps from another entry
      if (!entries_.empty()) {
        const auto& other = entries_[draw(entries_.size())];
        s.thieves[draw(s.thieves.size())] = other.thieves[draw(other.thieves.size())];
      }
      return;
  }
}

}  // namespace stealcheck::stress::fuzz
// SPDX-License-Identifier: Apache-2.0
