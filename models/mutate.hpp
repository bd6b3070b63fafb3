// models/mutate.hpp: mutation analysis of a variant's memory orders.
//
//   stealcheck mutate <variant> [--clients A,B] [--jobs N] [--json FILE]
//
// For every memory-order site of a registered variant (deques/memory.hpp) and every order
// strictly weaker than its default that the site's kind allows (weaker_orders below), the
// variant's model clients run under RC11 with that one site overridden (a *mutant*). Each
// mutant is
//   killed              a client finds a bug: which clients, the bug kind, the message (it names
//                       the value) and the command that replays the failing execution;
//   equivalent          every client has the baseline's complete and blocked counts: RC11 does
//                       not need the default order in these clients;
//   weaker, not killed  the counts change, no bug: the order is not needed, or a client that
//                       would expose it is missing.
// A site is *justified* when each of its weakenings is killed, *documented* when its `why`
// text says "not needed"; the run is ok when every site is one or the other.
//
// Thread role: the calling thread; with jobs > 1 the mutants run on that many threads (each
// exploration sequential). Complexity: (number of mutants + 1) x the clients' explorations.
// Source: mutation analysis of fences as in Norris and Demsky, CDSChecker (OOPSLA 2013) and
// the AutoMO inference of CDSSpec (Ou and Demsky, OOPSLA 2017), over TruSt exploration.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "deques/memory.hpp"
#include "harness/checker.hpp"
#include "harness/registry.hpp"
#include "models/memory_model.hpp"

namespace stealcheck::model {

/// The orders strictly weaker than `o` that a site of kind `k` may take, strongest first
/// (seq_cst -> acq_rel -> acquire | release -> relaxed; a relaxed fence is no fence).
std::vector<std::memory_order> weaker_orders(site_kind k, std::memory_order o);

enum class mutant_verdict : std::uint8_t { killed, equivalent, weaker_not_killed };
std::string_view verdict_name(mutant_verdict v) noexcept;

struct client_counts {
  std::string client;
  std::uint64_t complete = 0;
  std::uint64_t blocked = 0;
};

struct mutant {
  const site* s = nullptr;
  std::memory_order order = std::memory_order_relaxed;  ///< the weakened order
  mutant_verdict verdict = mutant_verdict::equivalent;
  std::vector<client_counts> counts;            ///< per client, in client order
  std::vector<std::string> killers;             ///< the clients that found a bug (killed)
  std::string bug;                              ///< the first killer's bug: kind and message
  std::optional<harness::command_line> replay;  ///< replays the first killer's bug
};

struct site_summary {
  const site* s = nullptr;
  bool justified = false;   ///< every weakening killed (vacuously: no weaker order)
  bool documented = false;  ///< its `why` says "not needed"
  std::optional<std::memory_order> weakest_surviving;  ///< the weakest order not killed
};

struct mutate_options {
  std::vector<std::string> clients;  ///< empty: every non-large client of the variant
  unsigned jobs = 1;
  memory_model model = memory_model::rc11;
};

struct mutate_report {
  std::vector<client_counts> baseline;
  std::vector<mutant> mutants;  ///< site order, then strongest weakening first
  std::vector<site_summary> sites;
  bool ok() const;
};

/// Runs every mutant of v. Throws harness::usage_error for an unknown client, and when v has
/// no model binding.
mutate_report mutate(const harness::variant& v, const mutate_options& o);

/// Adds the `mutate` subcommand to `app`; its callback stores the exit code (0 every site
/// justified or documented, 1 otherwise, 2 bad input) in `exit_code`.
void add_mutate_command(CLI::App& app, int& exit_code);

}  // namespace stealcheck::model
