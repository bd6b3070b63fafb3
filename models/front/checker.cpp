// models/front/checker.cpp: the `model` checker (see bind.hpp).
#include <fmt/format.h>

#include "stealcheck/detail/models/front/bind.hpp"

namespace stealcheck::model {

harness::command_line replay_command(std::string_view variant, std::string_view client,
                                     memory_model m, const std::vector<std::string>& sites,
                                     const std::string& token) {
  harness::command_line cmd{"model", std::string(variant), {}};
  cmd.opt("--client", std::string(client));
  if (m == memory_model::sc) cmd.opt("--model", "sc");
  for (const std::string& s : sites)
    cmd.opt("--site", s);
  return cmd.opt("--replay", token);
}

harness::checker checker(std::vector<memory_model> models) {
  harness::checker c;
  c.name = "model";
  c.units = [models = std::move(models)](const harness::variant& v) {
    std::vector<harness::check_unit> units;
    const binding* b = v.binding<binding>();
    if (b == nullptr) return units;
    const std::string variant(v.name());
    if (!runs_model(v.info().backends)) {
      units.push_back({"all", [](const harness::verify_options&) {
                         harness::check_cell skip;
                         skip.detail = "native-only variant";
                         return skip;
                       }});
      return units;
    }
    for (const clients::client_entry& cl : b->clients()) {
      if (cl.large) continue;
      for (memory_model m : models) {
        std::string name(cl.name);
        if (models.size() > 1) name += "_" + std::string(model_name(m));
        const bool spins = v.info().spins;
        units.push_back({name, [variant, cl, m, spins](const harness::verify_options& o) {
                           options opt;
                           opt.model = m;
                           opt.replay = o.replay;
                           const result r = explore(opt, cl.run);
                           harness::check_cell cell;
                           cell.seconds = r.seconds;
                           cell.counts = {{"execs", r.executions()}, {"blocked", r.blocked}};
                           // a loop cut at the event bound fails unless the deque spins
                           const std::optional<bug_report>& bug = r.bug   ? r.bug
                                                                  : spins ? std::nullopt
                                                                          : r.first_bound;
                           if (!bug) {
                             cell.verdict = harness::cell_verdict::pass;
                             return cell;
                           }
                           cell.verdict = harness::cell_verdict::fail;
                           const std::string cut =
                               r.bug ? ""
                               : bug->loop_writes
                                   ? fmt::format(
                                         "{} executions cut at the event bound (a loop that "
                                         "may not end and writes as it goes: a bug, not a "
                                         "spin): ",
                                         r.bound_hits)
                                   : fmt::format(
                                         "{} executions cut at the event bound (a loop that "
                                         "may not end; a deque that spins by design "
                                         "declares .spins = true): ",
                                         r.bound_hits);
                           cell.kind = bug->failure;
                           cell.failure =
                               fmt::format("{}\n{}", kind_and_message(*bug, cut), bug->trace);
                           cell.replay = replay_command(variant, cl.name, m, {}, bug->replay_token);
                           return cell;
                         }});
      }
    }
    return units;
  };
  c.cell_width = 56;  // "pass (28 clients, 1633290 execs, 243491 blocked, 16.8s)"
  c.summarize = [](std::size_t n, const std::map<std::string, std::uint64_t>& k) {
    auto at = [&k](const char* key) { return k.count(key) != 0u ? k.at(key) : 0; };
    return fmt::format("{} clients, {} execs, {} blocked", n, at("execs"), at("blocked"));
  };
  return c;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
