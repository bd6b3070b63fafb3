// stress/lincheck_checker.cpp: the `lincheck` checker (see bind.hpp): generated scenarios
// (stress/lincheck_run.hpp), first run natively many times with every history checked, then
// (smaller scenarios) each explored exhaustively by the model checker with happens-before in
// place of real time.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "stealcheck/detail/stress/bind.hpp"
#include "stealcheck/detail/stress/isolate.hpp"

namespace stealcheck::stress::lincheck {
namespace {

// Seconds; 100 x 100 runs take about 1 s here. Below a ctest --timeout of 300 with room for the
// report: a conformance test that hangs ends with its own report, not killed by ctest first.
constexpr double native_deadline = 120;

run_options options_for(std::string_view mode, const variant_info& info,
                        const harness::verify_options& o) {
  run_options r;
  r.seed = o.seed;
  r.batch = info.batch_steal;
  r.spec = info.spec;
  r.reproduce = o.replay;
  if (mode == "native") {
    r.scenarios = std::max(1, (o.quick ? 30 : 100) * o.scale / 100);
    r.runs = std::max(1, (o.quick ? 30 : 100) * o.scale / 100);
  } else {
    r.small = true;
    r.scenarios = std::max(1, (o.quick ? 20 : 60) * o.scale / 100);
  }
  return r;
}

harness::check_cell run_mode(const std::string& variant, const binding& b, const variant_info& info,
                             std::string_view mode, const harness::verify_options& o) {
  harness::check_cell cell;
  const auto start = std::chrono::steady_clock::now();
  const run_options opts = options_for(mode, info, o);
  std::uint64_t count = 0;
  const failure_finder finder = mode == "native"
                                    ? b.native(opts.spec, opts.runs, true, &count)
                                    : b.model(opts.spec, info.capacity, model::options{}, &count);
  // native runs in a child: a deque that crashes, throws on a thread or hangs is a failure
  // named as such, not the end of stealcheck (model runs have their own crash handling)
  const outcome out = mode == "native"
                          ? check_generated_isolated(variant, opts, finder, &count, native_deadline,
                                                     stress::default_stall_seconds)
                          : check_generated(variant, opts, finder);
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (out.kind == verdict::error) throw harness::usage_error(out.failure);
  if (!out.ok()) {
    cell.verdict = harness::cell_verdict::fail;
    cell.kind = out.failed_as;
    cell.failure = out.timeline.empty()
                       ? fmt::format("{} ({} mode)", out.failure, mode)
                       : fmt::format("{} ({} mode)\n{}", out.failure, mode, out.timeline);
    cell.replay = replay_command(variant, mode, opts, out.reproduce);
    return cell;
  }
  cell.verdict = harness::cell_verdict::pass;
  if (mode == "native") {
    cell.counts = {{"native_scenarios", static_cast<std::uint64_t>(out.scenarios)},
                   {"native_runs", static_cast<std::uint64_t>(opts.runs)}};
  } else {
    cell.counts = {{"model_scenarios", static_cast<std::uint64_t>(out.scenarios)},
                   {"model_execs", count}};
  }
  return cell;
}

}  // namespace

harness::command_line replay_command(std::string_view variant, std::string_view mode,
                                     const run_options& o, const std::string& reproduce) {
  harness::command_line cmd{"lincheck", std::string(variant), {}};
  cmd.opt("--mode", std::string(mode)).opt("--seed", o.seed);
  if (mode == "native") cmd.opt("--runs", static_cast<std::uint64_t>(o.runs));
  if (reproduce.empty())
    return cmd;  // the run ended before RapidCheck's verdict: the seed replays it
  return cmd.opt("--reproduce", reproduce);
}

harness::checker checker() {
  harness::checker c;
  c.name = "lincheck";
  c.units = [](const harness::variant& v) {
    std::vector<harness::check_unit> units;
    const binding* b = v.binding<binding>();
    if (b == nullptr) return units;
    const std::string variant(v.name());
    const variant_info info = v.info();
    for (std::string_view mode : {"native", "model"}) {
      const bool runs = mode == "native" ? runs_native(info.backends) : runs_model(info.backends);
      units.push_back(
          {std::string(mode), [variant, b, info, mode, runs](const harness::verify_options& o) {
             if (runs) return run_mode(variant, *b, info, mode, o);
             harness::check_cell skip;
             skip.detail = mode == "native" ? "model-only variant" : "native-only variant";
             return skip;
           }});
    }
    return units;
  };
  c.cell_width = 54;  // "pass (100x100 native, 60 model (214470 execs), 48.5s)"
  c.summarize = [](std::size_t, const std::map<std::string, std::uint64_t>& k) {
    auto at = [&k](const char* key) { return k.count(key) != 0u ? k.at(key) : 0; };
    return fmt::format("{}x{} native, {} model ({} execs)", at("native_scenarios"),
                       at("native_runs"), at("model_scenarios"), at("model_execs"));
  };
  return c;
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
