// The table of OpenVINO operator families (op_table.h) and the lookups the reader and the
// writer go through.
#include "formats/openvino/op_table.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "bough/error.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/writer.h"

namespace bough::openvino {

namespace {

// OpenVINO's reader finds a type in its opset in any letter case ("ReLU", "SoftMax").
std::string upper(const std::string& s) {
  std::string u = s;
  for (char& c : u)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return u;
}

struct Table {
  std::vector<OpFamily> families;
  std::unordered_map<std::string, const ReadRule*> reads;
  std::unordered_map<std::string, const WriteRule*> writes;
};

const Table& table() {
  static const Table t = [] {
    Table t;
#define BOUGH_OV_FAMILY(name) t.families.push_back(name##_family());
#include "formats/openvino/ops/families.inc"
#undef BOUGH_OV_FAMILY
    for (const OpFamily& f : t.families) {
      for (const ReadRule& r : f.reads)
        if (!t.reads.emplace(upper(r.type), &r).second)
          throw std::logic_error("OpenVINO operator " + r.type + " read by two rules");
      for (const WriteRule& w : f.writes)
        if (!t.writes.emplace(w.onnx_type, &w).second)
          throw std::logic_error("ONNX operator " + w.onnx_type + " written by two rules");
    }
    return t;
  }();
  return t;
}

// "1 8 14" as numbers.
std::vector<int> numbers(const std::string& text) {
  std::vector<int> v;
  std::istringstream in(text);
  for (int x; in >> x;) v.push_back(x);
  return v;
}

}  // namespace

const ReadRule* find_read_rule(const std::string& type) {
  auto it = table().reads.find(upper(type));
  return it == table().reads.end() ? nullptr : it->second;
}

int op_version(const XmlLayer& l) {
  const ReadRule* r = find_read_rule(l.type);
  std::vector<int> versions = r ? numbers(r->versions) : std::vector<int>{};
  if (versions.empty()) return 0;
  int opset = -1;
  if (l.version.rfind("opset", 0) == 0 && l.version.size() > 5 && l.version.size() < 9 &&
      std::all_of(l.version.begin() + 5, l.version.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    opset = std::stoi(l.version.substr(5));
  int chosen = opset < 0 ? versions.back() : versions.front();
  for (int v : versions)
    if (v <= opset) chosen = v;
  return chosen;
}

const WriteRule* find_write_rule(const std::string& op_type) {
  auto it = table().writes.find(op_type);
  return it == table().writes.end() ? nullptr : it->second;
}

const std::string& canonical_type(const XmlLayer& l) {
  const ReadRule* r = find_read_rule(l.type);
  return r ? r->type : l.type;
}

std::vector<OvOpSupport> openvino_op_support() {
  std::map<std::string, OvOpSupport> ops;
  for (const OpFamily& f : table().families) {
    for (const ReadRule& r : f.reads) {
      OvOpSupport& s = ops[r.type];
      s.type = r.type;
      s.reads = numbers(r.versions);
    }
    // "MaxPool-1 MaxPool-8": each layer type and version a writer may emit.
    for (const WriteRule& w : f.writes) {
      std::istringstream in(w.writes);
      for (std::string word; in >> word;) {
        size_t dash = word.rfind('-');
        if (dash == std::string::npos) continue;  // Const
        OvOpSupport& s = ops[word.substr(0, dash)];
        s.type = word.substr(0, dash);
        int v = std::stoi(word.substr(dash + 1));
        if (std::find(s.writes.begin(), s.writes.end(), v) == s.writes.end()) s.writes.push_back(v);
      }
    }
  }
  std::vector<OvOpSupport> out;
  for (auto& [name, s] : ops) {
    std::sort(s.writes.begin(), s.writes.end());
    out.push_back(std::move(s));
  }
  return out;
}

bool is_mapped(const std::string& type) { return find_read_rule(type) != nullptr; }

void map_layer(GraphLowering& g, const LayerIO& io) {
  const ReadRule* rule = find_read_rule(io.layer.type);
  if (!rule)
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "operator " + io.layer.type + " has no mapping");
  // A mapping reads ports and inputs by index (`.at`): an index past what the layer has is
  // a layer with fewer ports than its operator takes, which the mapping did not check.
  try {
    rule->map(g, io);
  } catch (const std::out_of_range&) {
    fail(ErrorKind::InvalidModel, g.where(io.layer),
         "the layer has fewer input or output ports than " + rule->type + " takes");
  }
}

bool has_ir_form(const std::string& op_type) { return find_write_rule(op_type) != nullptr; }

void write_node(NetWriter& w, const ir::Node& n) {
  if (!n.domain.empty() && n.domain != kOpenVinoDomain)
    fail(ErrorKind::Unsupported, w.where(n),
         "operators of domain '" + n.domain + "' have no OpenVINO form");
  const WriteRule* rule = find_write_rule(n.op_type);
  if (!rule)
    fail(ErrorKind::Unsupported, w.where(n), "operator " + n.op_type + " has no OpenVINO mapping");
  rule->write(w, n);
}

}  // namespace bough::openvino
