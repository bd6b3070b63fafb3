// stress/lincheck_run.hpp: property-based linearizability checking (RapidCheck).
//
// check_generated() asks RapidCheck for `options.scenarios` random scenarios
// (stress/scenario.hpp: a prefix, an owner sequence and 1-3 thief sequences), hands each to
// `find_failure`, which runs it (natively many times, or exhaustively under the model
// checker) and returns a non-linearizable history if it finds one. On a failure RapidCheck
// shrinks the scenario to a minimal failing one; the outcome carries that scenario, its
// minimized history as a timeline (text and SVG), and RapidCheck's `reproduce=...` string.
// Generation happens on the calling thread only (RapidCheck's generation is process-global).
//
// Native runs are not deterministic: a shrink step that fails to reproduce is taken as a pass,
// so the shrunk scenario can be larger than the true minimum. The seed fixes the generated
// scenarios and the injected delays.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "stealcheck/detail/deques/failure.hpp"
#include "stealcheck/detail/deques/spec.hpp"
#include "stealcheck/detail/stress/history.hpp"
#include "stealcheck/detail/stress/scenario.hpp"

namespace stealcheck::stress::lincheck {

struct run_options {
  int scenarios = 100;     ///< generated scenarios (RapidCheck max_success)
  int runs = 100;          ///< native runs per scenario
  std::uint64_t seed = 1;  ///< RapidCheck seed and base of the injected-delay seeds
  std::string reproduce;   ///< a RapidCheck "reproduce=..." string: replay that case only
  bool batch = false;      ///< generate steal_batch steps (batch-stealing variants)
  bool small = false;      ///< smaller scenarios (model mode explores each exhaustively)
  /// A replay (`reproduce`) runs the finder up to this many times, with fresh seeds, before it
  /// calls the scenario passed: native runs are not deterministic, so one round of `runs` may
  /// miss an interleaving the search met. Model mode is exhaustive: 1.
  int replay_rounds = 1;
  /// The spec histories are checked against: the variant's variant_info::spec.
  spec::spec_kind spec = spec::spec_kind::lifo_owner;
};

/// Rounds of `runs` a native replay tries before a reproduce string's scenario counts as passed.
inline constexpr int native_replay_rounds = 20;

/// What a check concluded. Closed: every consumer switches on it.
enum class verdict {
  linearizable,      ///< every generated scenario passed
  reproduce_passes,  ///< run_options::reproduce's scenario ran and passed: a stale string (the
                     ///< deque was fixed since), reported as a pass
  not_linearizable,  ///< a native run recorded a history no order meeting the spec explains:
                     ///< `timeline`, `svg` and `history_file` hold it, minimized
  model_bug,         ///< model mode: the model checker's report of a failing execution (any
                     ///< bug it finds), in `timeline`
  operation_threw,   ///< an operation threw: `failure` names the exception, thread, operation
  crashed,           ///< the isolated run ended without a verdict: a crash or a hang, named in
                     ///< `failure`
  error,             ///< the run itself failed (bad input): a reproduce string that does not
                     ///< parse or fit, or RapidCheck gave up
};

/// The verdict's name, as the isolated child reports it: "linearizable", "not_linearizable"...
std::string_view to_string(verdict v) noexcept;

struct outcome {
  verdict kind = verdict::linearizable;
  /// A pass: linearizable, or a reproduce string whose scenario passes.
  bool ok() const noexcept {
    return kind == verdict::linearizable || kind == verdict::reproduce_passes;
  }
  int scenarios = 0;            ///< scenarios that passed before the failure (or all)
  std::uint64_t histories = 0;  ///< histories checked
  std::string failure;  ///< one line; an exception, crash or hang names its thread and operation
  std::string scenario_text;  ///< the shrunk failing scenario
  std::string timeline;       ///< its minimized non-linearizable history, per thread
  std::string svg;            ///< the same as an SVG document
  /// The same history in the history-file format (stress/history_file.hpp), for
  /// `lincheck --save-history` and `lincheck --history`; native failures only.
  std::string history_file;
  std::string reproduce;  ///< "reproduce=..." for run_options::reproduce / RC_PARAMS
  /// What failed (deques/failure.hpp), on a failed outcome other than error: not_linearizable,
  /// the model checker's kind of its bug, an exception, or how the isolated run ended.
  std::optional<failure_kind> failed_as;
};

/// What a finder reports about a failing scenario: a recorded non-linearizable history
/// (native mode; minimized and drawn as a timeline), a ready report (model mode: the model
/// checker's failing execution), or the cause of a native run that ended without a history
/// (one line: an exception, its thread and operation).
struct found_failure {
  history h;
  std::string report;
  std::string cause;
  /// What failed: the model checker's kind of its bug (model mode); nullopt: a history no
  /// order explains (not_linearizable) or, with `cause`, an exception.
  std::optional<failure_kind> kind{};
  /// A native run's steal@N steps (operation::from_thief): shown beside the history, never
  /// judged.
  history aside{};
};

/// Returns a failure of `s`, if one was found.
using failure_finder =
    std::function<std::optional<found_failure>(const scenario&, std::uint64_t seed)>;

outcome check_generated(const std::string& id, const run_options& options,
                        const failure_finder& find_failure);

/// check_generated in a child process (stress/isolate.hpp), for native runs of a deque that
/// may crash, throw on one of its threads, or hang: that is then a failed outcome whose
/// `failure` names the exception, the signal or the deadline, the thread, its operation and
/// the scenario (a thrown exception is caught per operation, shrunk like any failure, and
/// reported with the reproduce string). `*count` (the finder's counter) is carried back from
/// the child. A child with a thread inside one deque operation for `stall_seconds` is stopped.
outcome check_generated_isolated(const std::string& id, const run_options& options,
                                 const failure_finder& find_failure, std::uint64_t* count,
                                 double deadline_seconds, double stall_seconds);

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
