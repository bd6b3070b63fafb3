// The "lincheck" column of stealcheck verify: generated scenarios, each run natively many
// times, every history checked for linearizability (stress/lincheck_run.hpp).
#include <fmt/format.h>

#include "deques/registry.hpp"
#include "stress/checker.hpp"
#include "stress/isolate.hpp"
#include "stress/lin_native.hpp"

namespace stealcheck::stress {

tools::checker lincheck_checker() {
  return {"lincheck", [](const variant_info& info, const tools::verify_options& o) {
            tools::check_cell cell;
            with_variant(info.name, [&](auto tag, const variant_info& v) {
              lincheck::run_options opts;
              opts.scenarios = o.quick ? 30 : 100;
              opts.runs = o.quick ? 30 : 100;
              opts.seed = o.seed;
              opts.batch = v.batch_steal;
              if (o.progress) {
                std::fprintf(stderr, "\r[verify] %s: lincheck (seed %llu)                    ",
                             std::string(v.name).c_str(), static_cast<unsigned long long>(o.seed));
              }
              std::uint64_t histories = 0;
              const auto start = std::chrono::steady_clock::now();
              const lincheck::outcome out = lincheck::check_generated(
                  std::string(v.name), opts,
                  lincheck::native_finder<decltype(tag)>(opts.runs, true, &histories));
              cell.seconds =
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
              if (out.ok) {
                cell.verdict = tools::cell_verdict::pass;
                cell.detail = fmt::format("{} scenarios x {} runs", out.scenarios, opts.runs);
                return;
              }
              cell.verdict = tools::cell_verdict::fail;
              cell.detail = "not linearizable";
              cell.failure = fmt::format("{}\n{}", out.failure, out.timeline);
              cell.replay =
                  fmt::format("stealcheck lincheck {} --mode native --seed {} --reproduce '{}'",
                              v.name, o.seed, out.reproduce);
            });
            return cell;
          }};
}

}  // namespace stealcheck::stress
