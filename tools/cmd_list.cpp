// stealcheck list [--sites VARIANT]
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <string>

#include "deques/registry.hpp"
#include "tools/commands.hpp"

namespace stealcheck::tools {

void require_variant(std::string_view name) {
  if (!with_variant(name, [](auto, const variant_info&) {})) {
    throw usage_error(fmt::format("unknown variant '{}' (stealcheck list shows them)", name));
  }
}

std::uint64_t default_seed() {
  // A fresh seed per run, printed with the run so it can be replayed.
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(
             std::chrono::duration_cast<std::chrono::microseconds>(now).count()) %
         1000000007ULL;
}

namespace {

void print_variants() {
  fmt::print("{:<26} {:<8} {}\n", "variant", "sites", "summary");
  for_each_variant([](auto, const variant_info& v) {
    fmt::print("{:<26} {:<8} {}{}\n", v.name, v.sites.size(), v.summary,
               v.known_bad ? fmt::format(" -- {}", v.known_bad_reason) : "");
  });
}

void print_sites(const variant_info& v) {
  fmt::print("memory-order sites of {} ({}):\n", v.name, v.sites.size());
  if (v.sites.empty()) fmt::print("  (none: all ordering comes from the mutex)\n");
  for (const site* s : v.sites) {
    fmt::print("  {:<40} {:<8} {}\n", s->name, order_name(s->order), s->why);
  }
}

}  // namespace

void add_list_command(CLI::App& app, int& /*exit_code*/) {
  auto* cmd =
      app.add_subcommand("list", "List the deque variants, or one variant's memory-order sites");
  auto sites_of = std::make_shared<std::string>();
  cmd->add_option("--sites", *sites_of,
                  "Print the memory-order sites of this variant with their default orders");
  cmd->callback([sites_of] {
    if (sites_of->empty()) {
      print_variants();
      return;
    }
    require_variant(*sites_of);
    with_variant(*sites_of, [](auto, const variant_info& v) { print_sites(v); });
  });
}

}  // namespace stealcheck::tools
