// models/front/bind.hpp: the model checker's binding of a registered variant
// (harness/registry.hpp).
//
// bind<D>(v) stores, in variant v, the model clients instantiated for D<value, model::memory>
// (models/front/clients.hpp). The `model` checker (checker() below, one verify column, one
// GoogleTest test per client and memory model) and `stealcheck model` find them there. Thread role:
// bind during registration; checker units run on the calling thread.
#pragma once

#include <functional>
#include <vector>

#include "stealcheck/detail/harness/checker.hpp"
#include "stealcheck/detail/harness/registry.hpp"
#include "stealcheck/detail/models/front/clients.hpp"

namespace stealcheck::model {

struct binding {
  std::function<std::vector<clients::client_entry>()> clients;
};

template <template <class, class> class D>
void bind(harness::variant& v) {
  const variant_info info = v.info();
  v.bind(binding{[info] { return clients::clients_for<D>(info); }});
}

/// The `model` checker: every client of the variant except the large ones, exhaustively, under
/// each memory model in `models` (verify uses RC11; the GoogleTest suite RC11 and SC).
harness::checker checker(std::vector<memory_model> models = {memory_model::rc11});

/// The replay command of a bug found in `client` of `variant` (sites: NAME=ORDER overrides).
harness::command_line replay_command(std::string_view variant, std::string_view client,
                                     memory_model m, const std::vector<std::string>& sites,
                                     const std::string& token);

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
