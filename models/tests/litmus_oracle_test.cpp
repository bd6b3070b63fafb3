// Every verdict and execution count of docs/rc11-oracle.md, under RC11 and SC.
#include <gtest/gtest.h>

#include <string>

#include "models/tests/litmus_shapes.hpp"

namespace stealcheck::model::litmus {
namespace {

struct outcome {
  result r;
  bool weak_seen = false;
};

outcome run(const shape& s, memory_model m) {
  outcome o;
  options opt;
  opt.model = m;
  o.r = explore(opt, [&](client& c) {
    bool weak = false;
    s.run(c, weak);
    if (weak) o.weak_seen = true;
  });
  return o;
}

class Oracle : public ::testing::TestWithParam<shape> {};

TEST_P(Oracle, Rc11CountAndVerdict) {
  const shape& s = GetParam();
  const outcome o = run(s, memory_model::rc11);
  ASSERT_TRUE(o.r.ok()) << o.r.bug->message << "\n" << o.r.bug->trace;
  EXPECT_EQ(o.r.complete, s.execs_rc11) << s.name;
  EXPECT_EQ(o.r.blocked, 0u);
  EXPECT_EQ(o.weak_seen, s.weak_allowed_rc11) << s.name;
}

TEST_P(Oracle, ScCountAndNoWeakOutcome) {
  const shape& s = GetParam();
  const outcome o = run(s, memory_model::sc);
  ASSERT_TRUE(o.r.ok()) << o.r.bug->message << "\n" << o.r.bug->trace;
  EXPECT_EQ(o.r.complete, s.execs_sc) << s.name;
  EXPECT_FALSE(o.weak_seen) << s.name;
}

INSTANTIATE_TEST_SUITE_P(LitmusRc11, Oracle, ::testing::ValuesIn(oracle_shapes()),
                         [](const ::testing::TestParamInfo<shape>& i) {
                           std::string n(i.param.name);
                           for (char& ch : n)
                             if (ch == '+' || ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace stealcheck::model::litmus
