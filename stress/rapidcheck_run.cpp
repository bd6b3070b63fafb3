// stress/rapidcheck_run.cpp: the one file that uses RapidCheck's rc::detail (see the header).
#include "stealcheck/detail/stress/rapidcheck_run.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <exception>
#include <string>
#include <unordered_map>

namespace stealcheck::stress::rapidcheck {

run_result check(const run_params& p, const std::function<void()>& property) {
  run_result out;
  rc::detail::TestMetadata meta{p.id, p.id};
  rc::detail::TestParams params;
  params.seed = p.seed;
  params.maxSuccess = p.max_success;
  params.maxSize = p.max_size;
  std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map;
  if (!p.reproduce.empty()) {
    try {
      reproduce_map = rc::detail::configFromString(p.reproduce).reproduce;
    } catch (const std::exception& e) {
      out.end = run_end::bad_reproduce;
      out.error = fmt::format("malformed reproduce string: {}", e.what());
      return out;
    }
    if (reproduce_map.empty()) {
      out.end = run_end::bad_reproduce;
      out.error =
          fmt::format("malformed reproduce string '{}' (expected reproduce=...)", p.reproduce);
      return out;
    }
    const auto any = *reproduce_map.begin();  // a string from any run replays under p.id
    reproduce_map.emplace(p.id, any.second);
  }
  struct quiet : rc::detail::TestListener {
    void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
    void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
    void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
  } listener;
  const auto result = rc::detail::checkTestable(property, meta, params, listener, reproduce_map);
  if (result.is<rc::detail::SuccessResult>()) {
    out.passed_cases = result.get<rc::detail::SuccessResult>().numSuccess;
    return out;
  }
  if (!result.is<rc::detail::FailureResult>()) {
    out.end = run_end::gave_up;
    return out;
  }
  const auto& failure = result.get<rc::detail::FailureResult>();
  out.end = run_end::failed;
  out.passed_cases = failure.numSuccess;
  rc::detail::Configuration cfg;
  cfg.reproduce[p.id] = failure.reproduce;
  out.reproduce = rc::detail::configToMinimalString(cfg);
  out.reproduce = out.reproduce.substr(0, out.reproduce.find(' '));  // only reproduce=...
  return out;
}

}  // namespace stealcheck::stress::rapidcheck
// SPDX-License-Identifier: Apache-2.0
