// harness/registry.hpp: the open variant registry.
//
// A variant registers itself from any translation unit, a built-in one and a user's alike,
// with STEALCHECK_REGISTER_VARIANT (include/stealcheck/register.hpp). Registration binds the
// deque template to every checker at compile time, in the registering translation unit: each
// checker stores its own *binding* (the deque's instantiations it needs, type-erased) in the
// variant, keyed by the binding's type. A checker later finds its binding with
// `v.binding<my_binding>()`. The registry itself knows no checker.
//
// Thread role: register during static initialization or from main before any lookup; lookups
// from any thread afterwards (the registry is then read-only). Complexity: O(variants) per
// lookup. Errors: registering a name twice, or an empty name, prints one line
// "stealcheck: error: ..." naming it and ends the process with exit code 2.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include "stealcheck/detail/deques/variant.hpp"

namespace stealcheck::harness {

/// A registered variant: its description plus one binding per checker.
class variant {
 public:
  explicit variant(variant_info info) : info_(info) {}

  const variant_info& info() const noexcept { return info_; }
  std::string_view name() const noexcept { return info_.name; }

  /// Stores checker data of type B (one per type; a second call replaces the first).
  template <class B>
  void bind(B b) {
    auto p = std::make_shared<const B>(std::move(b));
    for (auto& [type, ptr] : bindings_) {
      if (type == std::type_index(typeid(B))) {
        ptr = std::move(p);
        return;
      }
    }
    bindings_.emplace_back(std::type_index(typeid(B)), std::move(p));
  }

  /// The checker data of type B, or nullptr when no checker bound it.
  template <class B>
  const B* binding() const noexcept {
    for (const auto& [type, ptr] : bindings_) {
      if (type == std::type_index(typeid(B))) return static_cast<const B*>(ptr.get());
    }
    return nullptr;
  }

 private:
  variant_info info_;
  std::vector<std::pair<std::type_index, std::shared_ptr<const void>>> bindings_;
};

/// Adds v to the registry. Returns true (so a namespace-scope `const bool` can call it).
bool add_variant(variant v);

/// Every registered variant: the correct ones first, then the known-bad ones, each group
/// sorted by name (so the order does not depend on static-initialization order).
std::vector<const variant*> variants();

/// The variant named `name`, or nullptr.
const variant* find_variant(std::string_view name);

/// The variant named `name`; throws usage_error ("unknown variant ...") when there is none.
const variant& require_variant(std::string_view name);

/// Where a known-bad variant is fixed: one of its memory-order sites declared broken (a `why`
/// that starts with "KNOWN-BAD", deques/memory.hpp), and the order that the first correct
/// variant with a site of the same name gives it (`correct` null when none has one). The
/// known-bad with `site=order` (`stealcheck model --site`) is that correct variant's code.
struct site_fix {
  const site* broken = nullptr;
  const variant* correct = nullptr;
  std::memory_order order = std::memory_order_seq_cst;  ///< the correct order, when `correct`
};

/// The fixes of `v`'s broken sites, in the order of its sites; empty for a variant whose
/// sites are all as declared correct (every correct variant, and a known-bad whose bug is in
/// its code rather than in an order). O(sites of every variant).
std::vector<site_fix> fixed_at(const variant& v);

/// Where a known-bad whose bug is in its code is fixed: the registered correct variant its
/// `fixed_in` names (variant_info::fixed_in, deques/variant.hpp), the same code with the fix;
/// nullptr when `v` is correct, declares none, or names no registered correct variant.
/// O(variants).
const variant* fixed_in(const variant& v);

/// The names of the correct variants when `name` is "all", else {name} (checked).
std::vector<const variant*> select_variants(std::string_view name);

}  // namespace stealcheck::harness
// SPDX-License-Identifier: Apache-2.0
