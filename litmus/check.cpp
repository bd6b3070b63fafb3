// litmus/check.cpp: name resolution and static checks of a parsed test (see parser.hpp).
#include <algorithm>
#include <map>
#include <string>

#include "litmus/lexer.hpp"
#include "litmus/parser.hpp"

namespace stealcheck::litmus {
namespace {

/// Collects every location named by a parameter, classifies it atomic or plain, and sorts.
void resolve_locations(test& t) {
  std::map<std::string, value_t> init;
  for (const location& l : t.locations)
    init[l.name] = l.init;
  std::map<std::string, bool> atomic;  // name -> is atomic
  std::map<std::string, int> plain_owner;
  for (thread& th : t.threads) {
    for (const param& p : th.params) {
      auto [it, fresh] = atomic.emplace(p.name, p.atomic);
      if (!fresh && it->second != p.atomic)
        throw syntax_error(p.pos, "location '" + p.name +
                                      "' is 'atomic_int*' in one thread and "
                                      "'int*' in another");
      if (p.atomic) continue;
      auto [ow, first] = plain_owner.emplace(p.name, th.id);
      if (!first && ow->second != th.id)
        throw syntax_error(p.pos, "plain location '" + p.name + "' is used by two threads (P" +
                                      std::to_string(ow->second) + " and P" +
                                      std::to_string(th.id) + "): that is a data race");
    }
    for (std::size_t a = 0; a < th.params.size(); ++a)
      for (std::size_t b = 0; b < a; ++b)
        if (th.params[a].name == th.params[b].name)
          throw syntax_error(th.params[a].pos, "parameter '" + th.params[a].name + "' repeated");
  }
  for (const auto& [name, v] : init)
    atomic.emplace(name, true);  // initialised, never accessed
  t.locations.clear();
  for (const auto& [name, is_atomic] : atomic) {
    const auto it = init.find(name);
    location l{name, it == init.end() ? 0 : it->second, -1};
    if (is_atomic) {
      t.locations.push_back(l);
    } else {
      l.owner = plain_owner[name];
      t.plains.push_back(l);
    }
  }
}

int find_location(const std::vector<location>& ls, const std::string& name) {
  for (std::size_t i = 0; i < ls.size(); ++i)
    if (ls[i].name == name) return static_cast<int>(i);
  return -1;
}

/// Resolves one thread's statements.
class thread_checker {
 public:
  thread_checker(const test& t, thread& th) : t_(t), th_(th) {}

  void run() {
    for (param& p : th_.params)
      p.index = find_location(p.atomic ? t_.locations : t_.plains, p.name);
    for (stmt& s : th_.body)
      check(s);
  }

 private:
  const test& t_;
  thread& th_;

  const param* find_param(const std::string& name) const {
    for (const param& p : th_.params)
      if (p.name == name) return &p;
    return nullptr;
  }

  int local(const std::string& name, source_pos pos) const {
    for (std::size_t i = 0; i < th_.locals.size(); ++i)
      if (th_.locals[i] == name) return static_cast<int>(i);
    throw syntax_error(pos, "'" + name + "' is not a declared local of P" + std::to_string(th_.id) +
                                " (declare it with 'int " + name + "')");
  }

  void check(expr& e) {
    if (e.k == expr::kind::local) e.index = local(e.name, e.pos);
    if (e.k == expr::kind::deref) {
      const param* p = find_param(e.name);
      if (p == nullptr || p->atomic)
        throw syntax_error(
            e.pos, "'*" + e.name + "' needs an 'int*' parameter of P" + std::to_string(th_.id));
      e.index = p->index;
    }
    for (expr& a : e.args)
      check(a);
  }

  void check(stmt& s) {
    if (s.k == stmt::kind::declare) {
      if (find_param(s.target) != nullptr)
        throw syntax_error(s.pos, "local '" + s.target + "' shadows a parameter");
      for (const std::string& l : th_.locals)
        if (l == s.target) throw syntax_error(s.pos, "local '" + s.target + "' declared twice");
    }
    if (s.value) check(*s.value);  // the initialiser cannot use the local it declares
    if (s.call) check(*s.call);
    if (s.k == stmt::kind::declare) th_.locals.push_back(s.target);
    if (s.plain_target) {
      const param* p = find_param(s.target);
      if (p == nullptr || p->atomic)
        throw syntax_error(
            s.pos, "'*" + s.target + "' needs an 'int*' parameter of P" + std::to_string(th_.id));
      s.target_index = p->index;
    } else if (s.k == stmt::kind::declare || s.k == stmt::kind::assign) {
      s.target_index = local(s.target, s.pos);
    }
    for (stmt& b : s.body)
      check(b);
    for (stmt& b : s.else_body)
      check(b);
  }

  void check(atomic_call& c);
};

void check_orders(const atomic_call& c) {
  using k = atomic_call::kind;
  const mem_order o = c.order;
  const bool acquire_like = o == mem_order::acquire || o == mem_order::consume;
  if (c.k == k::load && (o == mem_order::release || o == mem_order::acq_rel))
    throw syntax_error(c.pos, std::string("a load cannot be ") + to_string(o));
  if (c.k == k::store && (acquire_like || o == mem_order::acq_rel))
    throw syntax_error(c.pos, std::string("a store cannot be ") + to_string(o));
  if (c.k == k::cas && (c.failure == mem_order::release || c.failure == mem_order::acq_rel))
    throw syntax_error(
        c.pos, std::string("a compare-exchange failure order cannot be ") + to_string(c.failure));
}

void thread_checker::check(atomic_call& c) {
  check_orders(c);
  if (c.operand) check(*c.operand);
  if (c.k == atomic_call::kind::fence) return;
  const param* p = find_param(c.location);
  if (p == nullptr || !p->atomic)
    throw syntax_error(c.pos, "'" + c.location + "' is not an 'atomic_int*' parameter of P" +
                                  std::to_string(th_.id));
  c.loc_index = p->index;
  if (c.k != atomic_call::kind::cas) return;
  const param* e = find_param(c.expected);
  if (e == nullptr || e->atomic)
    throw syntax_error(c.pos, "expected-value '" + c.expected +
                                  "' is not an 'int*' parameter of P" + std::to_string(th_.id));
  c.expected_index = e->index;
}

/// Resolves the condition's atoms and lists the observed variables in first-use order.
void check_prop(test& t, prop& p) {
  for (prop& a : p.args)
    check_prop(t, a);
  if (p.k != prop::kind::atom) return;
  observed_var v;
  v.thread = p.thread;
  v.name = p.name;
  if (p.thread >= 0) {
    if (p.thread >= static_cast<int>(t.threads.size()))
      throw syntax_error(p.pos, "no thread P" + std::to_string(p.thread));
    const auto& ls = t.threads[static_cast<std::size_t>(p.thread)].locals;
    const auto it = std::find(ls.begin(), ls.end(), p.name);
    if (it == ls.end())
      throw syntax_error(p.pos, "'" + p.name + "' is not a local of P" + std::to_string(p.thread));
    v.index = static_cast<int>(it - ls.begin());
  } else {
    v.index = find_location(t.locations, p.name);
    if (v.index < 0) {
      v.index = find_location(t.plains, p.name);
      v.plain = true;
    }
    if (v.index < 0) throw syntax_error(p.pos, "no location '" + p.name + "'");
  }
  for (std::size_t i = 0; i < t.observed.size(); ++i) {
    const observed_var& o = t.observed[i];
    if (o.thread == v.thread && o.name == v.name) p.index = static_cast<int>(i);
  }
  if (p.index < 0) {
    p.index = static_cast<int>(t.observed.size());
    t.observed.push_back(v);
  }
}

}  // namespace

void check_litmus(test& t) {
  resolve_locations(t);
  for (thread& th : t.threads)
    thread_checker(t, th).run();
  t.observed.clear();
  check_prop(t, t.condition);
}

const char* to_string(mem_order o) noexcept {
  switch (o) {
    case mem_order::relaxed:
      return "memory_order_relaxed";
    case mem_order::consume:
      return "memory_order_consume";
    case mem_order::acquire:
      return "memory_order_acquire";
    case mem_order::release:
      return "memory_order_release";
    case mem_order::acq_rel:
      return "memory_order_acq_rel";
    case mem_order::seq_cst:
      return "memory_order_seq_cst";
  }
  return "?";
}

const char* to_string(verdict v) noexcept {
  switch (v) {
    case verdict::sometimes:
      return "Sometimes";
    case verdict::never:
      return "Never";
    case verdict::always:
      return "Always";
  }
  return "?";
}

const char* to_string(model_kind m) noexcept {
  return m == model_kind::rc11 ? "rc11" : "sc";
}

const char* to_string(quantifier q) noexcept {
  switch (q) {
    case quantifier::exists:
      return "exists";
    case quantifier::not_exists:
      return "~exists";
    case quantifier::forall:
      return "forall";
  }
  return "?";
}

}  // namespace stealcheck::litmus
// SPDX-License-Identifier: Apache-2.0
