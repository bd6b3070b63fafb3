// models/report/report.cpp: trace and DOT renderings (see report.hpp).
#include "stealcheck/detail/models/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "stealcheck/detail/models/graph/site_ids.hpp"

namespace stealcheck::model {

namespace {
std::string_view basename(const char* f) {
  if (f == nullptr) return "?";
  const char* s = std::strrchr(f, '/');
  return s != nullptr ? std::string_view(s + 1) : std::string_view(f);
}
std::string_view short_order(std::memory_order o) {
  switch (o) {
    case std::memory_order_relaxed:
      return "rlx";
    case std::memory_order_consume:
      return "con";
    case std::memory_order_acquire:
      return "acq";
    case std::memory_order_release:
      return "rel";
    case std::memory_order_acq_rel:
      return "acq_rel";
    case std::memory_order_seq_cst:
      return "sc";
  }
  return "?";
}
}  // namespace

namespace {
bool same_text(const char* a, const char* b) {
  return a == b || (a != nullptr && b != nullptr && std::strcmp(a, b) == 0);
}
// Whether scalar locations a and b print alike before their ordinals: the same name, or both
// unnamed and made on the same line.
bool alike(const location& a, const location& b) {
  if (a.name != nullptr || b.name != nullptr) return same_text(a.name, b.name);
  return a.src.line == b.src.line && basename(a.src.file) == basename(b.src.file);
}
// An array's alloc event (event.hpp: src set, operand its name) or not.
bool is_array(const event& e) {
  return e.kind == event_kind::alloc && e.src.line != 0;
}
const char* array_name(const event& a) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the operand holds the name literal's address
  return reinterpret_cast<const char*>(static_cast<std::uintptr_t>(a.operand));
}
bool alike_arrays(const event& a, const event& b) {
  if (array_name(a) != nullptr || array_name(b) != nullptr)
    return same_text(array_name(a), array_name(b));
  return a.src.line == b.src.line && basename(a.src.file) == basename(b.src.file);
}
// The alloc event of array number k in g, or null.
const event* array_alloc(const graph& g, std::uint32_t k) {
  for (const auto& th : g.threads)
    for (const event& e : th)
      if (is_array(e) && e.aux == k) return &e;
  return nullptr;
}
// "ring#2": the array's name (or line) and its ordinal among g's arrays named alike, in
// allocation order.
std::string array_label(const graph& g, const event& a) {
  std::size_t before = 0;
  for (const auto& th : g.threads)
    for (const event& e : th)
      if (is_array(e) && e.aux < a.aux && alike_arrays(e, a)) ++before;
  const char* n = array_name(a);
  return fmt::format(
      "{}#{}",
      n != nullptr ? std::string(n) : fmt::format("{}:{}", basename(a.src.file), a.src.line),
      before + 1);
}
}  // namespace

std::string location_name(const graph& g, std::uint32_t loc) {
  if (loc >= g.locs.size()) return fmt::format("location {}", loc);
  const location& l = g.locs[loc];
  if (l.in_array) {
    const event* a = array_alloc(g, l.alloc);
    return fmt::format(
        "{}[{}]",
        a != nullptr ? array_label(g, *a) : fmt::format("{}:{}", basename(l.src.file), l.src.line),
        l.element);
  }
  std::string s = l.name != nullptr ? std::string(l.name)
                                    : fmt::format("{}:{}", basename(l.src.file), l.src.line);
  std::size_t same = 0;
  std::size_t before = 0;
  for (std::size_t i = 0; i < g.locs.size(); ++i)
    if (!g.locs[i].in_array && alike(g.locs[i], l)) {
      ++same;
      if (i < loc) ++before;
    }
  if (same > 1) s += fmt::format("#{}", before + 1);
  return s;
}

std::string value_text(std::uint64_t v) {
  if (v >= (std::uint64_t{1} << 40) && v < (std::uint64_t{1} << 56))
    return fmt::format("{:#x}", v);  // a pointer
  return fmt::format("{}", static_cast<std::int64_t>(v));
}

std::string event_name(const graph& /*g*/, event_id id) {
  if (!id.valid()) return "(none)";
  return fmt::format("({}, {})", id.thread, id.index);
}

std::string event_line(const graph& g, event_id id) {
  const event& e = g.at(id);
  std::string s = fmt::format("{} {}", event_name(g, id), kind_name(e.kind));
  if (is_read(e) && e.op == rmw_op::cas)
    s += e.cas_ok ? "(cas)" : "(cas failed)";
  else if (e.rmw)
    s += "(rmw)";
  if (is_access(e) || is_na(e)) s += " " + location_name(g, e.loc);
  if (is_access(e)) s += " " + value_text(e.value);
  if (is_access(e) || e.kind == event_kind::fence) s += fmt::format(" {}", short_order(e.order));
  if (is_read(e)) {
    const bool init = g.contains(e.rf) && g.at(e.rf).kind == event_kind::init;
    s += init ? " [init]" : fmt::format(" [rf {}]", event_name(g, e.rf));
    if (e.spurious) s += " (spurious failure)";
  }
  if (e.kind == event_kind::spawn) s += fmt::format(" thread {}", e.aux);
  if (e.kind == event_kind::join) s += fmt::format(" thread {}", e.aux);
  if (e.kind == event_kind::block) {
    static constexpr std::string_view why[] = {"spin_assume false", "mutex held",
                                               "event bound reached", "wait read its old value"};
    s += fmt::format(" ({})", why[e.aux < 4 ? e.aux : 0]);
  }
  if (is_array(e)) s += fmt::format(" {} ({} elements)", array_label(g, e), e.value);
  if (const site* at = site_at(e.src.site); at != nullptr) s += fmt::format(" {}", at->name);
  // an array element's construction carries create_array's caller (rt_location)
  if (e.src.file != nullptr && e.src.line != 0)
    s += fmt::format(" {}:{}", basename(e.src.file), e.src.line);
  return s;
}

std::string trace(const graph& g) {
  std::string out;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    out += fmt::format("thread {}:\n", t);
    for (std::size_t i = 0; i < g.threads[t].size(); ++i)
      out +=
          "  " + event_line(g, {static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)}) + "\n";
  }
  return out;
}

namespace {
using keep_map = std::vector<std::vector<char>>;

const operation_span* operation_of(const std::vector<operation_span>& ops, event_id e) {
  for (const operation_span& op : ops)
    if (e.thread == op.first.thread && e.index >= op.first.index && e.index <= op.last.index)
      return &op;
  return nullptr;
}

bool any_implicated(const std::vector<operation_span>& ops) {
  return std::any_of(ops.begin(), ops.end(),
                     [](const operation_span& op) { return op.implicated; });
}

// The lines trace() prints above the events: the operations, the cause, the slice's title.
std::size_t header_lines(const graph& g, const std::vector<operation_span>& ops, const cause& why) {
  std::size_t n = why.lines.size() + 1;
  if (!ops.empty()) {
    ++n;
    for (std::size_t t = 0; t < g.threads.size(); ++t)
      if (std::any_of(ops.begin(), ops.end(), [&](const operation_span& op) {
            return static_cast<std::size_t>(op.first.thread) == t;
          }))
        ++n;
  }
  return n;
}

// The lines trace() prints for the kept events: per thread a title, an operation's label
// where the kept events enter it, one line per event.
std::size_t listing_lines(const graph& g, const std::vector<operation_span>& ops,
                          const keep_map& keep) {
  std::size_t n = 0;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    const operation_span* open = nullptr;
    bool any = false;
    for (std::size_t i = 0; i < keep[t].size(); ++i) {
      if (keep[t][i] == 0) continue;
      any = true;
      const operation_span* op =
          operation_of(ops, {static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)});
      if (op != nullptr && op != open) ++n;
      open = op;
      ++n;
    }
    if (any) ++n;
  }
  return n;
}
}  // namespace

keep_map slice(const graph& g, const std::vector<operation_span>& ops, const cause& why) {
  keep_map keep(g.threads.size());
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    keep[t].assign(g.threads[t].size(), 0);
  const auto at = [&](event_id e) -> char& {
    return keep[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)];
  };
  // An event with the write it reads (so the slice stays closed under reads-from).
  const auto group = [&](event_id e) {
    std::vector<event_id> v{e};
    if (const event& ev = g.at(e); is_read(ev) && g.contains(ev.rf)) v.push_back(ev.rf);
    return v;
  };
  const std::size_t header = header_lines(g, ops, why);
  // Adds the group when the listing stays within the screen, or always when `force`.
  const auto add = [&](event_id e, bool force) {
    if (!g.contains(e) || at(e) != 0) return;
    std::vector<event_id> added;
    for (const event_id x : group(e))
      if (at(x) == 0) {
        at(x) = 1;
        added.push_back(x);
      }
    if (!force && header + listing_lines(g, ops, keep) > report_lines)
      for (const event_id x : added)
        at(x) = 0;
  };
  for (const event_id e : why.events)
    add(e, true);
  const auto each_implicated_event = [&](auto&& f) {
    for (const operation_span& op : ops)
      if (op.implicated)
        for (std::int32_t i = op.first.index; i <= op.last.index; ++i)
          if (const event_id e{op.first.thread, i}; g.contains(e)) f(e);
  };
  // the implicated operations' accesses and fences first, their other events after
  each_implicated_event([&](event_id e) {
    if (is_access(g.at(e)) || is_na(g.at(e)) || g.at(e).kind == event_kind::fence) add(e, false);
  });
  each_implicated_event([&](event_id e) { add(e, false); });
  // without implicated operations, what surrounds the cause's events
  if (!any_implicated(ops))
    for (const event_id c : why.events)
      for (std::int32_t d = 1; d <= 2; ++d) {
        add({c.thread, c.index - d}, false);
        add({c.thread, c.index + d}, false);
      }
  return keep;
}

std::string trace(const graph& g, const std::vector<operation_span>& ops, bool full,
                  const cause& why) {
  std::string out;
  full = full || (!any_implicated(ops) && why.empty());
  keep_map keep = slice(g, ops, why);
  if (full)
    for (auto& row : keep)
      std::fill(row.begin(), row.end(), 1);
  if (!ops.empty()) {
    out += "operations (* = the failed check is about it):\n";
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
      std::string line;
      for (const operation_span& op : ops)
        if (static_cast<std::size_t>(op.first.thread) == t)
          line += std::string(line.empty() ? "" : ", ") + (op.implicated ? "*" : "") + op.label;
      if (!line.empty()) out += fmt::format("  thread {}: {}\n", t, line);
    }
  }
  for (const std::string& l : why.lines)
    out += l + "\n";
  std::size_t kept = 0, total = 0;
  std::string events;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    std::string lines;
    const operation_span* open = nullptr;
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      ++total;
      if (keep[t][i] == 0) continue;
      ++kept;
      const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
      const operation_span* op = operation_of(ops, id);
      if (op != nullptr && op != open) lines += "  " + op->label + ":\n";
      open = op;
      lines += std::string(op != nullptr ? "    " : "  ") + event_line(g, id);
      if (const event& e = g.at(id); is_read(e) && g.contains(e.rf))
        if (const operation_span* w = operation_of(ops, e.rf); w != nullptr && w != op)
          lines += " (written by " + w->label + ")";
      lines += "\n";
    }
    if (!lines.empty()) events += fmt::format("thread {}:\n", t) + lines;
  }
  if (!full)
    out += fmt::format(
        "events of the {}, with the writes they read ({} of {}; --full shows "
        "all):\n",
        why.empty()           ? "marked operations"
        : any_implicated(ops) ? "cause and the marked operations"
                              : "cause and around it",
        kept, total);
  return out + events;
}

std::string dot(const graph& g, const std::vector<operation_span>& ops, bool full,
                const cause& why) {
  if (ops.empty() && why.empty()) return dot(g);
  keep_map keep = slice(g, ops, why);
  if (full || (!any_implicated(ops) && why.empty()))
    for (auto& row : keep)
      std::fill(row.begin(), row.end(), 1);
  const auto kept = [&](event_id e) {
    return g.contains(e) &&
           keep[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(e.index)] != 0;
  };
  auto node = [](event_id id) { return fmt::format("e{}_{}", id.thread, id.index); };
  auto quoted = [](std::string s) {
    for (char& c : s)
      if (c == '"') c = '\'';
    return s;
  };
  std::string out = "digraph execution {\n  node [shape=box, fontname=monospace];\n";
  std::string edges;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    out += fmt::format("  subgraph cluster_{} {{\n    label=\"thread {}\";\n", t, t);
    const operation_span* open = nullptr;
    event_id previous = event_id::none();
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
      if (!kept(id)) continue;
      const operation_span* op = nullptr;
      for (const operation_span& o : ops)
        if (o.first.thread == id.thread && o.first.index <= id.index && id.index <= o.last.index)
          op = &o;
      if (op != open) {
        if (open != nullptr) out += "    }\n";
        if (op != nullptr)
          out += fmt::format("    subgraph cluster_{}_{} {{\n      label=\"{}\";{}\n", t, i,
                             quoted(op->label), op->implicated ? " color=red;" : "");
        open = op;
      }
      out += fmt::format("      {} [label=\"{}\"];\n", node(id), quoted(event_line(g, id)));
      if (previous.valid())  // (outside the clusters: an edge in one would pull its ends in)
        edges += fmt::format("  {} -> {} [label=po{}];\n", node(previous), node(id),
                             previous.index + 1 == id.index ? "" : ", style=dashed");
      previous = id;
    }
    if (open != nullptr) out += "    }\n";
    out += "  }\n";
  }
  out += edges;
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
      if (is_read(e) && kept(id) && kept(e.rf))
        out += fmt::format("  {} -> {} [label=rf, color=green];\n", node(e.rf), node(id));
    }
  for (const auto& m : g.mo) {
    event_id last = event_id::none();
    for (const event_id w : m) {
      if (!kept(w)) continue;
      if (last.valid())
        out += fmt::format("  {} -> {} [label=mo, color=orange, style=dashed];\n", node(last),
                           node(w));
      last = w;
    }
  }
  for (const missing_edge& m : why.edges)
    if (kept(m.from) && kept(m.to))
      out += fmt::format("  {} -> {} [label=\"{}\", color=red, fontcolor=red, style=dashed];\n",
                         node(m.from), node(m.to), quoted(m.label));
  return out + "}\n";
}

std::string loop_trace(const graph& g, std::size_t t) {
  const auto& th = g.threads[t];
  std::vector<std::pair<std::string, std::size_t>> lines;  // source line, count
  for (std::size_t i = th.size() / 2; i < th.size(); ++i) {
    const source_loc& s = th[i].src;
    if (s.file == nullptr || s.line == 0) continue;
    const char* f = std::strrchr(s.file, '/');
    const std::string where = fmt::format("{}:{}", f != nullptr ? f + 1 : s.file, s.line);
    const auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == where; });
    if (it == lines.end())
      lines.emplace_back(where, 1);
    else
      ++it->second;
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out =
      fmt::format("thread {} repeats, in its last {} events:", t, th.size() - th.size() / 2);
  for (const auto& [where, n] : lines)
    out += fmt::format(" {} x{}", where, n);
  out += fmt::format("\nits last events:\n");
  for (std::size_t i = th.size() > 12 ? th.size() - 12 : 0; i < th.size(); ++i)
    out +=
        "  " + event_line(g, {static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)}) + "\n";
  return out;
}

bool loop_writes(const graph& g, std::size_t t) {
  const auto& th = g.threads[t];
  for (std::size_t i = th.size() / 2; i < th.size(); ++i)
    if (is_write(th[i])) return true;
  return false;
}

std::string dot(const graph& g) {
  std::string out = "digraph execution {\n  node [shape=box, fontname=monospace];\n";
  auto node = [](event_id id) { return fmt::format("e{}_{}", id.thread, id.index); };
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    out += fmt::format("  subgraph cluster_{} {{\n    label=\"thread {}\";\n", t, t);
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event_id id{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
      std::string label = event_line(g, id);
      for (char& c : label)
        if (c == '"') c = '\'';
      out += fmt::format("    {} [label=\"{}\"];\n", node(id), label);
      if (i > 0)
        out += fmt::format("    {} -> {} [label=po];\n", node({id.thread, id.index - 1}), node(id));
    }
    out += "  }\n";
  }
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
      const event& e = g.threads[t][i];
      if (is_read(e) && g.contains(e.rf))
        out += fmt::format("  {} -> {} [label=rf, color=green];\n", node(e.rf),
                           node({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)}));
    }
  for (const auto& m : g.mo)
    for (std::size_t k = 1; k < m.size(); ++k)
      out += fmt::format("  {} -> {} [label=mo, color=orange, style=dashed];\n", node(m[k - 1]),
                         node(m[k]));
  out += "}\n";
  return out;
}

}  // namespace stealcheck::model
// SPDX-License-Identifier: Apache-2.0
