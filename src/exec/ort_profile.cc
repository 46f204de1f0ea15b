#include "exec/ort_profile.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "util/json.h"

namespace bough::exec {

namespace {

// [{"float": [1, 3]}, {"int64": []}]: ONNX's element type names, as ONNX Runtime's.
std::string type_shapes(const std::vector<ProfiledTensor>& tensors) {
  std::string out = "[";
  for (const ProfiledTensor& t : tensors) {
    if (out.size() > 1) out += ", ";
    out += "{\"" + std::string(elem_name(t.elem)) + "\": [";
    for (size_t i = 0; i < t.dims.size(); ++i) out += (i ? ", " : "") + std::to_string(t.dims[i]);
    out += "]}";
  }
  return out + "]";
}

}  // namespace

std::string ort_node_args(const NodeTiming& node) {
  int64_t activation = 0, parameter = 0, output = 0;
  for (const ProfiledTensor& t : node.inputs) (t.constant ? parameter : activation) += t.bytes;
  for (const ProfiledTensor& t : node.outputs) output += t.bytes;
  const size_t dot = node.op.rfind('.');
  auto quoted_number = [](int64_t n) { return "\"" + std::to_string(n) + "\""; };
  return "\"op_name\": " +
         util::json_string(dot == std::string::npos ? node.op : node.op.substr(dot + 1)) +
         ", \"provider\": \"" + kOrtProvider +
         "\", \"activation_size\": " + quoted_number(activation) +
         ", \"parameter_size\": " + quoted_number(parameter) +
         ", \"output_size\": " + quoted_number(output) +
         ", \"input_type_shape\": " + type_shapes(node.inputs) +
         ", \"output_type_shape\": " + type_shapes(node.outputs);
}

std::vector<OpTotal> op_totals(std::span<const RunProfile* const> runs) {
  std::map<std::string, OpTotal> by_op;
  for (const RunProfile* run : runs)
    for (const NodeTiming& t : run->nodes) {
      OpTotal& total = by_op[t.op];
      total.op = t.op;
      ++total.calls;
      total.self_ns += t.self_ns;
    }
  std::vector<OpTotal> out;
  for (auto& [op, total] : by_op) out.push_back(std::move(total));
  // by_op is sorted by name, which a stable sort keeps among equal times.
  std::stable_sort(out.begin(), out.end(),
                   [](const OpTotal& a, const OpTotal& b) { return a.self_ns > b.self_ns; });
  return out;
}

std::string op_summary_json(const std::vector<OpTotal>& ops, int64_t runs_ns) {
  std::string out = "{\"runs_ns\": " + std::to_string(runs_ns) + ", \"ops\": [";
  for (size_t i = 0; i < ops.size(); ++i) {
    char share[32];
    std::snprintf(share, sizeof share, "%.2f",
                  runs_ns > 0
                      ? 100.0 * static_cast<double>(ops[i].self_ns) / static_cast<double>(runs_ns)
                      : 0.0);
    out += (i ? ", " : "") + std::string("{\"op\": ") + util::json_string(ops[i].op) +
           ", \"calls\": " + std::to_string(ops[i].calls) +
           ", \"total_ns\": " + std::to_string(ops[i].self_ns) + ", \"share\": " + share + "}";
  }
  return out + "]}";
}

}  // namespace bough::exec
