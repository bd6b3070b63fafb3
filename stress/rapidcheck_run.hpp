// stress/rapidcheck_run.hpp: one RapidCheck run of a property, driven from code rather than from
// a test framework: a seed, a case count, a reproduce string in, a closed verdict out.
//
// RapidCheck's public API (rapidcheck.h: rc::check, rc::gen, RC_FAIL) runs a property only as
// a test of its own, printing to stdout and taking its seed from RC_PARAMS. Everything
// lincheck needs beyond that (a seed and case count per call, a silent listener, the reproduce
// string of a failure, replaying one) lives in RapidCheck's rc::detail namespace, and
// rapidcheck_run.cpp is the only file of stealcheck that uses it. It is written against the
// RapidCheck that Debian 12 packages (librapidcheck-dev 0~1033-08b5058-3: upstream commit
// 08b5058); another RapidCheck may need that one file changed, nothing else.
//
// Thread role: the calling thread only (RapidCheck's generation state is process-global).
// Errors: a reproduce string that does not parse is run_end::bad_reproduce with its reason,
// never an exception. Complexity: max_success runs of the property, plus the shrink steps of a
// failure.
// Source: RapidCheck, https://github.com/emil-e/rapidcheck (include/rapidcheck/detail/Run.h,
// Configuration.h, TestListener.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace stealcheck::stress::rapidcheck {

/// How a run ended.
enum class run_end {
  passed,         ///< every case passed
  failed,         ///< a case failed (RC_FAIL, or an exception out of the property), shrunk
  gave_up,        ///< RapidCheck gave up (too many discarded cases) or reported an error
  bad_reproduce,  ///< run_params::reproduce does not parse: run_result::error says why
};

struct run_params {
  std::string id;  ///< the property's name: a reproduce string is keyed by it
  std::uint64_t seed = 0;
  int max_success = 100;  ///< cases to run
  int max_size = 100;     ///< RapidCheck's size bound for generators
  /// A "reproduce=..." string of an earlier failure: run that one case only. A string from a
  /// run under any id replays under this one.
  std::string reproduce;
};

struct run_result {
  run_end end = run_end::passed;
  int passed_cases = 0;   ///< cases that passed (all of them, or those before the failure)
  std::string reproduce;  ///< failed: the "reproduce=..." string of the shrunk case
  std::string error;      ///< bad_reproduce: the reason, one line
};

/// Runs `property` (a callable that generates with `*rc::gen::...` and fails with RC_FAIL,
/// RapidCheck's public API) up to p.max_success times with p.seed, printing nothing.
run_result check(const run_params& p, const std::function<void()>& property);

}  // namespace stealcheck::stress::rapidcheck
// SPDX-License-Identifier: Apache-2.0
