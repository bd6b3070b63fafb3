// models/front/site_override.hpp: `--site NAME=ORDER`, a memory-order override of one site of
// a variant, parsed and checked against the variant's sites.
//
// Thread role: any (pure). Complexity: O(number of sites). Errors: parse_site_override returns
// one line naming what is wrong (no NAME=ORDER shape, an unknown order, a site the variant does
// not have, an order its kind of operation cannot take); never throws on any input text.
#pragma once

#include <atomic>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "stealcheck/detail/deques/memory.hpp"

namespace stealcheck::model {

/// "relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"; nullopt for anything else.
std::optional<std::memory_order> parse_order(std::string_view s);

/// The orders C++ accepts for each kind of operation (a relaxed fence is no fence).
bool order_fits(site_kind k, std::memory_order o);

/// One accepted override: the site's name and its new order.
using site_override = std::pair<std::string, std::memory_order>;

/// `text` ("NAME=ORDER") checked against `sites` of the variant `variant`: the override, or
/// one error line.
std::variant<site_override, std::string> parse_site_override(std::string_view text,
                                                             std::span<const site* const> sites,
                                                             std::string_view variant);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
