#include "formats/openvino/write_helpers.h"

#include "bough/error.h"

namespace bough::openvino {

std::string layer_name(const ir::Node& n) {
  return n.name.empty() && !n.outputs.empty() && n.outputs[0] ? n.outputs[0]->name : n.name;
}

const ir::Edge* out0(NetWriter& w, const ir::Node& n) {
  if (n.outputs.empty() || !n.outputs[0]) fail(ErrorKind::InvalidModel, w.where(n), "no output");
  return n.outputs[0];
}

std::vector<PortRef> sources(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins;
  for (const ir::Edge* e : n.inputs) {
    if (!e) fail(ErrorKind::Unsupported, w.where(n), "an omitted optional input");
    ins.push_back(w.source(e));
  }
  return ins;
}

int64_t int_attr_or(const ir::Node& n, const char* name, int64_t fallback) {
  const ir::Attribute* a = n.attr(name);
  return a ? a->i : fallback;
}

std::optional<PortRef> axes_of(NetWriter& w, const ir::Node& n, size_t k, const char* name) {
  if (n.inputs.size() > k && n.inputs[k]) return w.source(n.inputs[k]);
  if (const ir::Attribute* a = n.attr(name))
    return w.const_i64(a->ints, layer_name(n) + "/" + name);
  return std::nullopt;
}

std::vector<int64_t> ints_attr_or(const ir::Node& n, const char* name,
                                  std::vector<int64_t> fallback) {
  const ir::Attribute* a = n.attr(name);
  return a ? a->ints : fallback;
}

std::string list_text(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace bough::openvino
