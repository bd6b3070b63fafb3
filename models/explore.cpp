// models/explore.cpp: the test API (see explore.hpp).
#include "models/explore.hpp"

#include <cstring>
#include <string>

#include "models/explorer.hpp"
#include "models/hb.hpp"
#include "models/runtime.hpp"

namespace stealcheck::model {

namespace {
detail::execution& ex() {
  detail::execution* e = detail::current_execution();
  if (e == nullptr) std::abort();
  return *e;
}
}  // namespace

std::size_t client::spawn(std::function<void()> f) {
  detail::execution& x = ex();
  if (x.current != 0 && !x.tearing_down)
    x.fail(error_kind::assertion,
           "only the client's main thread may spawn (thread numbers must be deterministic)");
  const std::size_t t = x.spawn(std::move(f));
  spawned_.push_back(t);
  joined_.push_back(false);
  return t;
}

void client::join(std::size_t t) {
  detail::execution& x = ex();
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (spawned_[k] == t) joined_[k] = true;
  if (x.tearing_down) return;
  detail::pending_op op;
  op.kind = detail::op_kind::join;
  op.aux = static_cast<std::uint32_t>(t);
  x.post(op);
}

void client::join_all() {
  for (std::size_t k = 0; k < spawned_.size(); ++k)
    if (!joined_[k]) join(spawned_[k]);
}

void client::check(bool ok, std::string_view what, source_loc src) {
  if (ok) return;
  detail::execution& x = ex();
  if (x.tearing_down) return;
  const char* f = src.file != nullptr ? std::strrchr(src.file, '/') : nullptr;
  x.fail(error_kind::assertion, "check failed: " + std::string(what) + " (" +
                                    (f != nullptr ? f + 1 : "?") + ":" + std::to_string(src.line) +
                                    ", thread " + std::to_string(x.current) + ")");
}

event_id client::position() const {
  detail::execution& x = ex();
  return {static_cast<std::int32_t>(x.current), static_cast<std::int32_t>(x.me().cursor)};
}

bool client::happens_before(event_id a, event_id b) const {
  detail::execution& x = ex();
  const hb_clocks* c = hb_of(x.g);
  if (c == nullptr || !x.g.contains(a) || !x.g.contains(b)) return false;
  return c->hb(a, b);
}

const hb_clocks& client::happens_before_relation() const {
  detail::execution& x = ex();
  const hb_clocks* c = hb_of(x.g);
  if (c == nullptr)  // only a graph with a po ∪ rf cycle, which is never run
    x.fail(error_kind::nondeterminism, "happens-before asked of a cyclic execution graph");
  return *c;
}

result explore(const options& opt, const std::function<void(client&)>& body) {
  detail::run_config cfg;
  cfg.model = opt.model;
  cfg.max_events_per_thread = opt.max_events_per_thread;
  cfg.sites = opt.sites;
  detail::execution* outer = detail::current_execution();
  detail::execution x(cfg, [&body] {
    client c;
    body(c);
    c.join_all();
  });
  detail::set_current_execution(&x);
  detail::explorer e(opt, x);
  result r = e.run();
  detail::set_current_execution(outer);
  return r;
}

}  // namespace stealcheck::model
