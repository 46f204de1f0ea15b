#include "ops/registry.h"

#include <atomic>
#include <deque>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>

namespace bough::ops {

// Every operator file of ops/ defines one `OpDef def_<Name>()`; op_list.inc names them all.
// Those defined above ops/ register themselves (register_ops).
#define BOUGH_OP(name) OpDef def_##name();
#include "ops/op_list.inc"
#undef BOUGH_OP

namespace {

// (domain, name), both viewing an OpDef's own static strings in the table, or the caller's
// while it looks up: a lookup allocates nothing.
using OpKey = std::pair<std::string_view, std::string_view>;

struct OpKeyHash {
  size_t operator()(const OpKey& k) const {
    const std::hash<std::string_view> h;
    return h(k.first) * 31 + h(k.second);
  }
};

// The operators known at one time. A table is never changed once published, nor freed
// (a lookup may still hold the one before): the operators of op_list.inc, then those with
// the ones registered from above (register_ops), once per process.
struct Table {
  std::vector<const OpDef*> ops;
  std::unordered_map<OpKey, const OpDef*, OpKeyHash> by_key;
};

std::mutex publishing;
std::atomic<const Table*> current{nullptr};

// Adds `defs` to t, but for those whose (domain, name) it knows already.
void add(Table& t, std::span<const OpDef> defs) {
  for (const OpDef& def : defs)
    if (t.by_key.emplace(OpKey{def.domain, def.name}, &def).second) t.ops.push_back(&def);
}

// A table of what the current one holds (op_list.inc's operators on first use) and `more`.
const Table& publish(std::span<const OpDef> more) {
  static std::deque<Table> tables;
  std::lock_guard lock(publishing);
  const Table* old = current.load(std::memory_order_acquire);
  Table& t = tables.emplace_back();
  if (old) {
    t = *old;
  } else {
    // The registry owns op_list.inc's definitions, made once under the lock.
    static const OpDef defs[] = {
#define BOUGH_OP(name) def_##name(),
#include "ops/op_list.inc"
#undef BOUGH_OP
    };
    add(t, defs);
  }
  add(t, more);
  current.store(&t, std::memory_order_release);
  return t;
}

const Table& table() {
  // Every node of every pass looks its operator up.
  const Table* t = current.load(std::memory_order_acquire);
  return t ? *t : publish({});
}

}  // namespace

const std::vector<const OpDef*>& all_ops() { return table().ops; }

void register_ops(std::span<const OpDef> defs) { publish(defs); }

const OpDef* find_op(std::string_view domain, std::string_view name) {
  if (domain == "ai.onnx") domain = "";
  const auto& by_key = table().by_key;
  const auto it = by_key.find(OpKey{domain, name});
  return it == by_key.end() ? nullptr : it->second;
}

int64_t node_opset(const ir::Model* model, const std::map<std::string, int64_t>* function_opsets,
                   const ir::Node& node) {
  if (function_opsets)
    for (const auto& [d, v] : *function_opsets)
      if (d == node.domain || (node.domain.empty() && d == "ai.onnx")) return v;
  return model ? model->opset(node.domain) : 0;
}

int since_of(const OpDef& def, int64_t opset) {
  int since = def.versions.front();
  for (int v : def.versions)
    if (v <= opset) since = v;
  return since;
}

const Signature* signature_at(const OpDef& def, int since) {
  // Parsed once per operator, on first use; sessions on several threads may ask at once.
  static std::mutex mutex;
  static std::map<const OpDef*, std::vector<Signature>> parsed;
  std::lock_guard lock(mutex);
  auto [it, added] = parsed.try_emplace(&def);
  if (added)
    for (const SignatureText& text : def.signatures)
      it->second.push_back(parse_signature(text.since, text.text));
  for (const Signature& sig : it->second)
    if (sig.since == since) return &sig;
  return nullptr;
}

}  // namespace bough::ops
