/// @file
/// stealcheck/testing.hpp: a whole conformance suite for a deque, as GoogleTest tests.
///
/// @code
/// #include <stealcheck/testing.hpp>
/// STEALCHECK_CONFORMANCE_SUITE(MyDeque, my_deque, {.name = "my_deque", .bounded = false});
/// @endcode
///
/// One line per deque. It registers one test per unit of every checker (each listed by
/// gtest_discover_tests and runnable alone with --gtest_filter):
/// @code
/// MyDeque.model_<client>_rc11, MyDeque.model_<client>_sc   every model client, exhaustively,
///                                                          under RC11 and under SC
/// MyDeque.lincheck_native, MyDeque.lincheck_model           generated scenarios, run natively
///                                                          and model-checked
/// MyDeque.stress_<scenario>                                 the native stress ladder
/// MyDeque.fuzz_rc11                                         generated scenarios larger than
///                                                          the clients, executions sampled
///                                                          under RC11 (stealcheck fuzz)
/// @endcode
/// The second argument is the deque template D\<T, Mem\>; the third a stealcheck::variant_info
/// (deques/variant.hpp) saying what the deque is: bounded, batch steal, which values it holds
/// (`.values = stealcheck::value_support::scalar` for a deque of 8-byte trivially copyable
/// values: scenarios that need boxed values are then skipped, not compiled), its initial
/// capacity for the model clients, its memory-order sites, which backends it runs on.
///
/// A failing test prints the bug naming the offending value (the failing execution or history)
/// and its replay lines, each naming a program that knows the deque: the test itself
/// (`STEALCHECK_SEED=<seed> <binary> --gtest_filter=<test>`); for a model or lincheck failure,
/// that one execution or scenario alone (`STEALCHECK_REPLAY=<token> <binary>
/// --gtest_filter=\<test\>`: the model test replays the token, the lincheck test the reproduce
/// string, and a token that no longer fails passes); and the arguments for a CLI that registers
/// the same deque (stealcheck/cli.hpp). Randomized tests print their seed. Environment:
/// STEALCHECK_SEED (default 1), STEALCHECK_SCALE (percent of the full iteration counts, default
/// 100), STEALCHECK_REPLAY (set it for one test only, with --gtest_filter),
/// STEALCHECK_FUZZ_EXECUTIONS (fuzz_rc11's executions; default 2,000 times the scale / 100).
///
/// Your own model tests (\<stealcheck/model.hpp\>) as GoogleTest tests:
///
/// @code
/// STEALCHECK_MODEL_TEST(EventCount, NoLostWakeup, {.sc = true}) {
///   ... the body of model::check: shared state, model::thread, STEALCHECK_ASSERT ...
/// }
/// @endcode
///
/// registers EventCount.NoLostWakeup_rc11 (and, with .sc = true, EventCount.NoLostWakeup_sc),
/// each exploring every execution of the body under that memory model with the options of
/// `.explore` (model::options: the event bound, jobs, sampling). A test fails on the first bug,
/// printing its kind, message and trace and the line that replays that one execution
/// (`STEALCHECK_REPLAY=<token> <binary> --gtest_filter=<test>`); it also fails when no execution
/// completed (every one blocked by a spin_until or a held mutex: the test proved nothing). A
/// passing test prints its counts. Each test's body is a function, run once per execution.
///
/// Thread role: registration at static initialization; tests run on GoogleTest's thread.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <stealcheck/model.hpp>
#include <stealcheck/register.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace stealcheck::testing {

/// Registers one GoogleTest test per unit of every conformance checker on v, in test suite
/// `suite` (what STEALCHECK_CONFORMANCE_SUITE expands to). Returns true.
bool register_suite(const char* suite, const variant_handle& v, const char* file, int line);

/// The outcome of one unit of the conformance suite (run_unit).
struct unit_outcome {
  bool found = false;    ///< false: v has no such checker or unit (nothing ran)
  bool passed = false;   ///< ran and found no bug (a unit that does not apply passes, skipped)
  bool skipped = false;  ///< the unit does not apply to v (`detail` says why)
  /// What failed, when it failed: the closed kind (deques/failure.hpp); nullopt for a failure
  /// that is no fault of the deque (a client that is not deterministic).
  std::optional<failure_kind> kind;
  std::string report;  ///< the failure's report, naming the offending value (may span lines)
  std::string detail;  ///< one line: counts ("1234 execs, 0 blocked"), or why skipped
};

/// The units `checker` ("model", "lincheck", "stress", "fuzz") runs on v, by the names the
/// suite's tests carry after `<checker>_` (for example "push_pop_steal.rc11"); empty for an
/// unknown checker.
std::vector<std::string> unit_names(const variant_handle& v, std::string_view checker);

/// Runs one unit of the suite on v with the suite's default options (seed 1, full scale), as
/// its test would, without GoogleTest: for a test of one's own that asserts what a unit finds
/// (a deque's known bug found, with this kind and this value in its report). Cost: that unit's
/// (a model client explores every execution).
unit_outcome run_unit(const variant_handle& v, std::string_view checker, std::string_view unit);

/// What a STEALCHECK_MODEL_TEST explores: under which memory models (one test each), and the
/// exploration's options (`explore.model` is set per test).
struct model_test_options {
  bool rc11 = true;  ///< register `<Name>_rc11`
  bool sc = false;   ///< register `<Name>_sc`
  model::options explore{};
};

/// Registers the tests of one STEALCHECK_MODEL_TEST. Returns true.
bool register_model_test(const char* suite, const char* name, const model_test_options& o,
                         void (*body)(), const char* file, int line);

}  // namespace stealcheck::testing

/// STEALCHECK_MODEL_TEST(Suite, Name, model_test_options initializer) { body }
#define STEALCHECK_MODEL_TEST(suite, name, ...)                                         \
  static void STEALCHECK_CAT(stealcheck_model_body_, __LINE__)();                       \
  [[maybe_unused]] static const bool STEALCHECK_CAT(stealcheck_model_test_, __LINE__) = \
      ::stealcheck::testing::register_model_test(                                       \
          #suite, #name, ::stealcheck::testing::model_test_options __VA_ARGS__,         \
          &STEALCHECK_CAT(stealcheck_model_body_, __LINE__), __FILE__, __LINE__);       \
  static void STEALCHECK_CAT(stealcheck_model_body_, __LINE__)()

/// STEALCHECK_CONFORMANCE_SUITE(Suite, D, variant_info initializer)
#define STEALCHECK_CONFORMANCE_SUITE(suite, D, ...)                                               \
  namespace {                                                                                     \
  constexpr ::stealcheck::variant_info STEALCHECK_CAT(stealcheck_suite_info_,                     \
                                                      __LINE__) = __VA_ARGS__;                    \
  [[maybe_unused]] const bool STEALCHECK_CAT(stealcheck_suite_, __LINE__) =                       \
      ::stealcheck::testing::register_suite(                                                      \
          #suite,                                                                                 \
          ::stealcheck::make_variant<D, STEALCHECK_CAT(stealcheck_suite_info_, __LINE__).values>( \
              STEALCHECK_CAT(stealcheck_suite_info_, __LINE__)),                                  \
          __FILE__, __LINE__);                                                                    \
  }
// SPDX-License-Identifier: Apache-2.0
