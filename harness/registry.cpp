// harness/registry.cpp: see registry.hpp.
#include "stealcheck/detail/harness/registry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "stealcheck/detail/harness/errors.hpp"
#include "stealcheck/detail/harness/replay.hpp"

namespace stealcheck::harness {
namespace {

std::vector<std::unique_ptr<variant>>& storage() {
  static std::vector<std::unique_ptr<variant>> all;  // built on first use: static-init safe
  return all;
}

}  // namespace

bool add_variant(variant v) {
  if (find_variant(v.name()) != nullptr || v.name().empty()) {
    // usually during static initialization, before main: one line and exit code 2
    std::fprintf(stderr, "stealcheck: error: %s\n",
                 v.name().empty() ? "a variant is registered without a name"
                                  : ("variant '" + std::string(v.name()) +
                                     "' is registered twice (names must be unique)")
                                        .c_str());
    // at static initialization, before main: one thread, nothing else running to tear down
    std::exit(2);  // NOLINT(concurrency-mt-unsafe)
  }
  storage().push_back(std::make_unique<variant>(std::move(v)));
  return true;
}

std::vector<const variant*> variants() {
  std::vector<const variant*> out;
  for (const auto& v : storage())
    out.push_back(v.get());
  std::sort(out.begin(), out.end(), [](const variant* a, const variant* b) {
    if (a->info().known_bad != b->info().known_bad) return !a->info().known_bad;
    return a->name() < b->name();
  });
  return out;
}

const variant* find_variant(std::string_view name) {
  for (const auto& v : storage()) {
    if (v->name() == name) return v.get();
  }
  return nullptr;
}

const variant& require_variant(std::string_view name) {
  const variant* v = find_variant(name);
  if (v == nullptr)
    throw usage_error("unknown variant '" + std::string(name) + "' (" + program_name() +
                      " list shows them)");
  return *v;
}

std::vector<site_fix> fixed_at(const variant& v) {
  std::vector<site_fix> out;
  for (const site* s : v.info().sites) {
    if (!s->why.starts_with("KNOWN-BAD")) continue;
    site_fix f{.broken = s};
    for (const variant* c : variants()) {
      if (c->info().known_bad) break;  // variants(): the correct ones come first
      const auto& cs = c->info().sites;
      const auto same =
          std::find_if(cs.begin(), cs.end(), [&](const site* x) { return x->name == s->name; });
      if (same == cs.end()) continue;
      f.correct = c;
      f.order = (*same)->order;
      break;
    }
    out.push_back(f);
  }
  return out;
}

const variant* fixed_in(const variant& v) {
  const std::string_view name = v.info().fixed_in.variant;
  if (!v.info().known_bad || name.empty()) return nullptr;
  const variant* c = find_variant(name);
  return c != nullptr && !c->info().known_bad ? c : nullptr;
}

std::vector<const variant*> select_variants(std::string_view name) {
  if (name != "all") return {&require_variant(name)};
  std::vector<const variant*> out;
  for (const variant* v : variants()) {
    if (!v->info().known_bad) out.push_back(v);
  }
  return out;
}

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
