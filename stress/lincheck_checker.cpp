// The "lincheck" column of stealcheck verify: generated scenarios (stress/lincheck_run.hpp),
// first run natively many times with every history checked, then (small scenarios) each
// explored exhaustively by the model checker with happens-before in place of real time.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "deques/registry.hpp"
#include "stress/checker.hpp"
#include "stress/lin_model.hpp"
#include "stress/lin_native.hpp"

namespace stealcheck::stress {
namespace {

void fail(tools::check_cell& cell, const lincheck::outcome& out, std::string_view variant,
          std::string_view mode, std::uint64_t seed) {
  cell.verdict = tools::cell_verdict::fail;
  cell.detail = fmt::format("{} mode", mode);
  cell.failure = fmt::format("{} ({} mode)\n{}", out.failure, mode, out.timeline);
  cell.replay = fmt::format("stealcheck lincheck {} --mode {} --seed {} --reproduce '{}'", variant,
                            mode, seed, out.reproduce);
}

template <class Tag>
tools::check_cell run_both(const variant_info& v, const tools::verify_options& o) {
  tools::check_cell cell;
  const auto start = std::chrono::steady_clock::now();
  lincheck::run_options opts;
  opts.scenarios = o.quick ? 30 : 100;
  opts.runs = o.quick ? 30 : 100;
  opts.seed = o.seed;
  opts.batch = v.batch_steal;
  if (o.progress) std::fprintf(stderr, "\r[verify] %s: lincheck native          ", v.name.data());
  const auto native = lincheck::check_generated(std::string(v.name), opts,
                                                lincheck::native_finder<Tag>(opts.runs, true));
  if (!native.ok) {
    fail(cell, native, v.name, "native", o.seed);
  } else {
    opts.small = true;
    opts.scenarios = o.quick ? 20 : 60;
    std::uint64_t execs = 0;
    if (o.progress) std::fprintf(stderr, "\r[verify] %s: lincheck model           ", v.name.data());
    const auto model = lincheck::check_generated(
        std::string(v.name), opts, lincheck::model_finder<Tag>(model::options{}, &execs));
    if (!model.ok) {
      fail(cell, model, v.name, "model", o.seed);
    } else {
      cell.verdict = tools::cell_verdict::pass;
      cell.detail = fmt::format("{}x{} native, {} model ({} execs)", native.scenarios, opts.runs,
                                model.scenarios, execs);
    }
  }
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return cell;
}

}  // namespace

tools::checker lincheck_checker() {
  return {"lincheck", [](const variant_info& info, const tools::verify_options& o) {
            tools::check_cell cell;
            with_variant(info.name, [&](auto tag, const variant_info& v) {
              cell = run_both<decltype(tag)>(v, o);
            });
            return cell;
          }};
}

}  // namespace stealcheck::stress
