#include "stealcheck/detail/stress/lincheck_run.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string_view>
#include <utility>

#include "stealcheck/detail/stress/history_file.hpp"
#include "stealcheck/detail/stress/isolate.hpp"
#include "stealcheck/detail/stress/lincheck.hpp"
#include "stealcheck/detail/stress/oplog.hpp"
#include "stealcheck/detail/stress/rapidcheck_run.hpp"
#include "stealcheck/detail/stress/scenario_gen.hpp"

namespace stealcheck::stress::lincheck {

std::size_t steps(const scenario& s) noexcept {
  std::size_t n = s.prefix.size() + s.owner.size();
  for (const auto& t : s.thieves)
    n += t.size();
  return n;
}

std::string describe(const scenario& s) {
  auto owner = [](const std::vector<owner_step>& v) {
    std::string out;
    for (owner_step o : v)
      out += o == owner_step::push ? " push" : " pop";
    return out;
  };
  std::string out = fmt::format("prefix [{} ] owner [{} ]", owner(s.prefix), owner(s.owner));
  for (std::size_t i = 0; i < s.thieves.size(); ++i) {
    out += fmt::format(" thief{} [", i + 1);
    for (thief_step t : s.thieves[i]) {
      if (t.k == thief_step::kind::steal_thief)
        out += fmt::format(" steal@{}", t.from);
      else
        out += t == thief_step::steal ? " steal" : " steal_batch";
    }
    out += " ]";
  }
  return out;
}

std::vector<bool> stolen_from(const scenario& s) {
  std::vector<bool> out(s.thieves.size(), false);
  for (const auto& steps : s.thieves)
    for (thief_step t : steps)
      if (t.k == thief_step::kind::steal_thief && t.from >= 1 && t.from <= out.size())
        out[t.from - 1U] = true;
  return out;
}

namespace {

// Thief i's batches (from 0).
std::ptrdiff_t batches(const scenario& s, std::size_t i) {
  return std::count(s.thieves[i].begin(), s.thieves[i].end(), thief_step::steal_batch);
}

// Why thief i's step t names no deque it may steal from, or nullptr when it may.
const char* bad_target(const scenario& s, std::size_t i, thief_step t) {
  if (t.k != thief_step::kind::steal_thief) return nullptr;
  if (t.from < 1 || t.from > s.thieves.size()) return "no thief of the scenario";
  if (t.from == i + 1) return "itself";
  if (batches(s, t.from - 1U) != 1) return "a thief that does not take exactly one batch";
  return nullptr;
}

}  // namespace

bool valid_thief_steps(const scenario& s, std::string& error) {
  for (std::size_t i = 0; i < s.thieves.size(); ++i)
    for (thief_step t : s.thieves[i])
      if (const char* why = bad_target(s, i, t)) {
        error = fmt::format(
            "thief{}'s steal@{} names {} (the values taken from a thief's deque "
            "belong to its one batch)",
            i + 1, t.from, why);
        return false;
      }
  return true;
}

void repair_thief_steps(scenario& s) {
  for_each_stolen_from(s, [&](std::size_t i) {
    bool first = true;
    for (thief_step& t : s.thieves[i])
      if (t == thief_step::steal_batch && !std::exchange(first, false)) t = thief_step::steal;
  });
  for (std::size_t i = 0; i < s.thieves.size(); ++i)
    for (thief_step& t : s.thieves[i])
      if (bad_target(s, i, t) != nullptr) t = thief_step::steal;
}

void remove_thief(scenario& s, std::size_t t) {
  s.thieves.erase(s.thieves.begin() + static_cast<std::ptrdiff_t>(t));
  for (auto& steps : s.thieves)
    for (thief_step& step : steps)
      if (step.k == thief_step::kind::steal_thief) {
        if (step.from == t + 1)
          step = thief_step::steal;
        else if (step.from > t + 1)
          --step.from;
      }
}

std::optional<scenario> parse_scenario(std::string_view text, std::string& error) {
  std::vector<std::string> words;  // brackets are words of their own
  std::string word;
  for (const char ch : text) {
    if (ch == '[' || ch == ']' || ch == ' ' || ch == '\t' || ch == '\n') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      if (ch == '[' || ch == ']') words.emplace_back(1, ch);
    } else {
      word += ch;
    }
  }
  if (!word.empty()) words.push_back(word);
  scenario s;
  std::size_t at = 0;
  auto fail = [&](const std::string& why) -> std::optional<scenario> {
    error = why;
    return std::nullopt;
  };
  // NAME [ STEP ... ], with parse(STEP) false for a step that does not belong there
  auto part = [&](const std::string& name, auto&& parse) {
    if (at >= words.size() || words[at] != name) return false;
    if (++at >= words.size() || words[at] != "[") return false;
    for (++at; at < words.size() && words[at] != "]"; ++at)
      if (!parse(words[at])) return false;
    if (at >= words.size()) return false;
    ++at;
    return true;
  };
  auto owner_steps = [](std::vector<owner_step>& into) {
    return [&into](const std::string& w) {
      if (w != "push" && w != "pop") return false;
      into.push_back(w == "push" ? owner_step::push : owner_step::pop);
      return true;
    };
  };
  if (!part("prefix", owner_steps(s.prefix)))
    return fail("expected 'prefix [ push|pop ... ]' at word " + std::to_string(at + 1));
  if (!part("owner", owner_steps(s.owner)))
    return fail("expected 'owner [ push|pop ... ]' at word " + std::to_string(at + 1));
  while (at < words.size()) {
    std::vector<thief_step> steps;
    const std::string name = "thief" + std::to_string(s.thieves.size() + 1);
    const bool ok = part(name, [&steps](const std::string& w) {
      if (w.starts_with("steal@")) {
        const std::string_view n = std::string_view(w).substr(6);
        if (n.empty() || n.size() > 2 ||
            !std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
          return false;
        steps.push_back(thief_step::steal_from(std::stoul(std::string(n))));
        return true;
      }
      if (w != "steal" && w != "steal_batch") return false;
      steps.push_back(w == "steal" ? thief_step::steal : thief_step::steal_batch);
      return true;
    });
    if (!ok)
      return fail("expected '" + name + " [ steal|steal_batch|steal@N ... ]' at word " +
                  std::to_string(at + 1));
    s.thieves.push_back(std::move(steps));
  }
  if (!valid_thief_steps(s, error)) return std::nullopt;
  return s;
}

std::ostream& operator<<(std::ostream& os, const scenario& s) {
  return os << describe(s);
}

rc::Gen<scenario> gen_scenario(bool batch, bool small) {
  return rc::gen::exec([batch, small] {
    const auto owner_gen = rc::gen::element(owner_step::push, owner_step::push, owner_step::pop);
    scenario s;
    const int prefix = small ? 3 : 5, owner = small ? 4 : 7, thieves = small ? 3 : 4,
              steps = small ? 3 : 5;  // exclusive upper bounds
    s.prefix = *rc::gen::container<std::vector<owner_step>>(
        static_cast<std::size_t>(*rc::gen::inRange(0, prefix)), owner_gen);
    s.owner = *rc::gen::container<std::vector<owner_step>>(
        static_cast<std::size_t>(*rc::gen::inRange(0, owner)), owner_gen);
    const int n = *rc::gen::inRange(1, thieves);
    // with batches, one step in four steals from a thief's deque (steal@N), whose thief then
    // takes a batch (its first step, if none); the repair makes every scenario, shrunk ones
    // too, valid (valid_thief_steps)
    const auto thief_gen =
        batch ? rc::gen::weightedOneOf<thief_step>(
                    {{3, rc::gen::element(thief_step::steal, thief_step::steal_batch)},
                     {1, rc::gen::map(rc::gen::inRange(1, n + 1),
                                      [](int k) {
                                        return thief_step::steal_from(static_cast<std::size_t>(k));
                                      })}})
              : rc::gen::just(thief_step::steal);
    for (int i = 0; i < n; ++i) {
      s.thieves.push_back(*rc::gen::container<std::vector<thief_step>>(
          static_cast<std::size_t>(*rc::gen::inRange(1, steps)), thief_gen));
    }
    for_each_stolen_from(s, [&](std::size_t i) {
      std::vector<thief_step>& its = s.thieves[i];
      if (std::find(its.begin(), its.end(), thief_step::steal_batch) == its.end())
        its.front() = thief_step::steal_batch;
    });
    repair_thief_steps(s);
    return s;
  });
}

namespace {

struct last_failure {
  scenario s;
  found_failure f;
};

constexpr std::pair<verdict, std::string_view> verdict_names[] = {
    {verdict::linearizable, "linearizable"},
    {verdict::reproduce_passes, "reproduce_passes"},
    {verdict::not_linearizable, "not_linearizable"},
    {verdict::model_bug, "model_bug"},
    {verdict::operation_threw, "operation_threw"},
    {verdict::crashed, "crashed"},
    {verdict::error, "error"},
};

// The child's verdict, as to_string wrote it (the child runs this same binary).
verdict verdict_from_string(const std::string& name) {
  for (const auto& [v, n] : verdict_names)
    if (n == name) return v;
  return verdict::error;
}

}  // namespace

std::string_view to_string(verdict v) noexcept {
  for (const auto& [k, n] : verdict_names)
    if (k == v) return n;
  return "error";
}

outcome check_generated(const std::string& id, const run_options& options,
                        const failure_finder& find_failure) {
  outcome out;
  std::optional<last_failure> last;  // the last failing case is the shrunk one
  std::uint64_t case_index = 0;
  const auto property = [&] {
    const scenario s = *gen_scenario(options.batch, options.small);
    oplog::set_context("scenario " + describe(s));  // for a crash or hang report
    const std::uint64_t seed = options.seed * 1000003 + case_index++;
    const int rounds = options.reproduce.empty() ? 1 : std::max(options.replay_rounds, 1);
    std::optional<found_failure> bad;
    for (int r = 0; r < rounds && !bad; ++r)
      bad = find_failure(s, seed + static_cast<std::uint64_t>(r) * 7919);
    if (bad) {
      last = last_failure{s, *bad};
      RC_FAIL(fmt::format("not linearizable: {}", describe(s)));
    }
  };
  const rapidcheck::run_result rc = rapidcheck::check({.id = id,
                                                       .seed = options.seed,
                                                       .max_success = options.scenarios,
                                                       .max_size = 100,
                                                       .reproduce = options.reproduce},
                                                      property);
  switch (rc.end) {
    case rapidcheck::run_end::bad_reproduce:
      out.kind = verdict::error;
      out.failure = rc.error;
      return out;
    case rapidcheck::run_end::passed:
      out.scenarios = rc.passed_cases;
      return out;
    case rapidcheck::run_end::gave_up:
    case rapidcheck::run_end::failed:
      break;
  }
  if (!options.reproduce.empty() && !last) {
    if (case_index > 0) {  // the scenario was rebuilt and ran: it no longer fails
      out.kind = verdict::reproduce_passes;
      out.scenarios = 1;
      return out;
    }
    out.kind = verdict::error;
    out.failure = fmt::format(
        "the reproduce string '{}' does not fit the scenarios generated for {} (a string from "
        "another variant, --mode or stealcheck version)",
        options.reproduce, id);
    return out;
  }
  out.scenarios = rc.passed_cases;
  out.reproduce = rc.reproduce;
  if (!last) {
    out.kind = verdict::error;
    out.failure = "RapidCheck reported an error or gave up";
    return out;
  }
  out.scenario_text = describe(last->s);
  if (!last->f.cause.empty()) {  // an operation threw
    out.kind = verdict::operation_threw;
    out.failed_as = failure_kind::exception;
    out.failure = fmt::format("{}; scenario {}", last->f.cause, out.scenario_text);
    return out;
  }
  if (last->f.h.empty()) {  // a ready report (model mode)
    out.kind = verdict::model_bug;
    out.failed_as = last->f.kind;
    out.timeline = last->f.report;
    out.failure = fmt::format("bug in scenario {}", out.scenario_text);
    return out;
  }
  out.kind = verdict::not_linearizable;
  out.failed_as = failure_kind::not_linearizable;
  const history minimal = minimize(last->f.h, options.spec);
  const std::string stuck = spec_step(minimal, options.spec);
  const history shown = with_steals_from_thieves(minimal, last->f.aside);
  out.timeline = timeline_text(shown) + (stuck.empty() ? "" : "  spec: " + stuck + "\n");
  out.svg = timeline_svg(
      shown, stuck.empty() ? out.scenario_text : out.scenario_text + "; spec: " + stuck);
  std::ostringstream file;
  write_history(file, minimal, options.spec);
  out.history_file = file.str();
  out.failure = fmt::format("not linearizable ({} operations after minimizing): {}", minimal.size(),
                            out.scenario_text);
  return out;
}

outcome check_generated_isolated(const std::string& id, const run_options& options,
                                 const failure_finder& find_failure, std::uint64_t* count,
                                 double deadline_seconds, double stall_seconds) {
  const stress::child_outcome c = stress::run_in_child(
      [&] {
        const outcome o = check_generated(id, options, find_failure);
        const nlohmann::json j{{"kind", std::string(to_string(o.kind))},
                               {"scenarios", o.scenarios},
                               {"histories", o.histories},
                               {"failure", o.failure},
                               {"scenario_text", o.scenario_text},
                               {"timeline", o.timeline},
                               {"svg", o.svg},
                               {"history_file", o.history_file},
                               {"reproduce", o.reproduce},
                               {"failed_as", o.failed_as ? failure_name(*o.failed_as) : ""},
                               {"count", count != nullptr ? *count : 0}};
        return j.dump();
      },
      deadline_seconds, stall_seconds);
  outcome o;
  if (!c.ok) {
    o.kind = verdict::crashed;
    o.failure = c.failure;
    o.failed_as = c.kind;
    return o;
  }
  const nlohmann::json j = nlohmann::json::parse(c.payload);
  o.kind = verdict_from_string(j.at("kind").get<std::string>());
  o.scenarios = j.at("scenarios").get<int>();
  o.histories = j.at("histories").get<std::uint64_t>();
  o.failure = j.at("failure").get<std::string>();
  o.scenario_text = j.at("scenario_text").get<std::string>();
  o.timeline = j.at("timeline").get<std::string>();
  o.svg = j.at("svg").get<std::string>();
  o.history_file = j.at("history_file").get<std::string>();
  o.reproduce = j.at("reproduce").get<std::string>();
  o.failed_as = failure_from_name(j.at("failed_as").get<std::string>());
  if (count != nullptr) *count = j.at("count").get<std::uint64_t>();
  return o;
}

}  // namespace stealcheck::stress::lincheck
// SPDX-License-Identifier: Apache-2.0
