#include "ops/registry.h"

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace bough::ops {

// Every operator file defines one `const OpDef& def_<Name>()`; op_list.inc names them all.
#define BOUGH_OP(name) const OpDef& def_##name();
#include "ops/op_list.inc"
#undef BOUGH_OP

const std::vector<const OpDef*>& all_ops() {
  static const std::vector<const OpDef*> ops = {
#define BOUGH_OP(name) &def_##name(),
#include "ops/op_list.inc"
#undef BOUGH_OP
  };
  return ops;
}

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

}  // namespace

const OpDef* find_op(std::string_view domain, std::string_view name) {
  if (domain == "ai.onnx") domain = "";
  // Every node of every pass looks its operator up.
  static const std::unordered_map<OpKey, const OpDef*, OpKeyHash> by_key = [] {
    std::unordered_map<OpKey, const OpDef*, OpKeyHash> m;
    for (const OpDef* def : all_ops()) m.emplace(OpKey{def->domain, def->name}, def);
    return m;
  }();
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
