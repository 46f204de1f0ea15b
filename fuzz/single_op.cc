// Fuzz target: a structure-aware generator of single-operator models. From the fuzzer's
// bytes it picks a registered operator and schema row, inputs of types the row's signature
// allows with small shapes (some as initializers, so inference folds them), and attributes
// the signature names with edge values; then writes the ONNX model, reads it back, builds a
// session and runs it once. Edge-value attributes and empty or mismatched shapes are what
// such models get wrong; only bough::Error may come out.
//
// To keep a finding as a regression test, save the model it generates:
//   BOUGH_SINGLE_OP_MODEL=tests/fixtures/hostile/NAME.onnx build-asan/fuzz/fuzz_single_op INPUT
// (the run's input values come from the bytes left over; the hostile-models test uses fixed
// ones, so a finding that needs particular values keeps them as initializers).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "exec/operators.h"
#include "formats/onnx/reader.h"
#include "onnx.pb.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "run_once.h"
#include "util/files.h"

namespace bough::fuzz {
namespace {

using Kind = ir::Attribute::Kind;

int64_t edge_int(FuzzedDataProvider& in) {
  static constexpr int64_t kEdges[] = {0,
                                       1,
                                       -1,
                                       2,
                                       3,
                                       -2,
                                       4,
                                       7,
                                       64,
                                       1LL << 31,
                                       -(1LL << 31),
                                       1LL << 40,
                                       std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min()};
  if (in.ConsumeBool()) return in.PickValueInArray(kEdges);
  return in.ConsumeIntegralInRange<int64_t>(-8, 8);
}

float edge_float(FuzzedDataProvider& in) {
  static constexpr float kEdges[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     0.5f,
                                     2.0f,
                                     1e-30f,
                                     1e30f,
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN()};
  if (in.ConsumeBool()) return in.PickValueInArray(kEdges);
  return in.ConsumeFloatingPointInRange<float>(-10.0f, 10.0f);
}

std::string edge_string(FuzzedDataProvider& in) {
  static const char* kWords[] = {
      "",        "constant", "reflect",       "edge",       "wrap",       "linear",
      "nearest", "cubic",    "NOTSET",        "SAME_UPPER", "VALID",      "mean",
      "sum",     "none",     "max",           "add",        "mul",        "min",
      "DCR",     "CRD",      "half_pixel",    "asymmetric", "tanh",       "Sigmoid",
      "forward", "reverse",  "bidirectional", "circular",   "gated_delta"};
  if (in.ConsumeBool()) return in.PickValueInArray(kWords);
  return in.ConsumeRandomLengthString(12);
}

// An element type of the set (tensors only), or Undefined when it allows none.
ElemType pick_elem(FuzzedDataProvider& in, const ops::TypeSet& set) {
  std::vector<ElemType> allowed;
  for (int e = 1; e <= kLastElemType; ++e)
    if (set.any || (set.tensors & (1u << e))) allowed.push_back(static_cast<ElemType>(e));
  if (allowed.empty()) return ElemType::Undefined;
  return allowed[in.ConsumeIntegralInRange<size_t>(0, allowed.size() - 1)];
}

std::vector<int64_t> small_shape(FuzzedDataProvider& in) {
  std::vector<int64_t> dims(in.ConsumeIntegralInRange<int>(0, 4));
  for (int64_t& d : dims) d = in.ConsumeIntegralInRange<int64_t>(0, 4);
  return dims;
}

void fill_tensor(FuzzedDataProvider& in, ElemType elem, const std::vector<int64_t>& dims,
                 onnxpb::TensorProto* t) {
  t->set_data_type(static_cast<int>(elem));
  int64_t n = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    n *= d;
  }
  if (elem == ElemType::String) {
    for (int64_t i = 0; i < n; ++i) t->add_string_data(edge_string(in));
    return;
  }
  std::string raw = in.ConsumeBytesAsString(elem_storage_bytes(elem, static_cast<size_t>(n)));
  raw.resize(elem_storage_bytes(elem, static_cast<size_t>(n)));
  if (elem == ElemType::Bool)
    for (char& c : raw) c &= 1;
  t->set_raw_data(raw);
}

void add_attribute(FuzzedDataProvider& in, const ops::AttrSpec& spec, onnxpb::NodeProto* node) {
  onnxpb::AttributeProto* a = node->add_attribute();
  a->set_name(spec.name);
  const int count = in.ConsumeIntegralInRange<int>(0, 4);
  switch (spec.kind) {
    case Kind::Int:
      a->set_type(onnxpb::AttributeProto::INT);
      a->set_i(edge_int(in));
      return;
    case Kind::Float:
      a->set_type(onnxpb::AttributeProto::FLOAT);
      a->set_f(edge_float(in));
      return;
    case Kind::String:
      a->set_type(onnxpb::AttributeProto::STRING);
      a->set_s(edge_string(in));
      return;
    case Kind::Ints:
      a->set_type(onnxpb::AttributeProto::INTS);
      for (int i = 0; i < count; ++i) a->add_ints(edge_int(in));
      return;
    case Kind::Floats:
      a->set_type(onnxpb::AttributeProto::FLOATS);
      for (int i = 0; i < count; ++i) a->add_floats(edge_float(in));
      return;
    case Kind::Strings:
      a->set_type(onnxpb::AttributeProto::STRINGS);
      for (int i = 0; i < count; ++i) a->add_strings(edge_string(in));
      return;
    case Kind::Tensor: {
      a->set_type(onnxpb::AttributeProto::TENSOR);
      static constexpr ElemType kElems[] = {ElemType::Float, ElemType::Int64, ElemType::Int32,
                                            ElemType::Bool,  ElemType::UInt8, ElemType::Double};
      fill_tensor(in, in.PickValueInArray(kElems), small_shape(in), a->mutable_t());
      return;
    }
    default:  // graphs and type protos: left out (the model is then usually refused)
      node->mutable_attribute()->RemoveLast();
      return;
  }
}

onnxpb::ModelProto single_op_model(FuzzedDataProvider& in) {
  exec::register_operators();  // If, Loop and Scan are drawn too
  const auto& all = ops::all_ops();
  const ops::OpDef& def = *all[in.ConsumeIntegralInRange<size_t>(0, all.size() - 1)];
  const int since = def.versions[in.ConsumeIntegralInRange<size_t>(0, def.versions.size() - 1)];
  const ops::Signature* sig = ops::signature_at(def, since);

  onnxpb::ModelProto m;
  m.set_ir_version(10);
  auto* opset = m.add_opset_import();
  opset->set_domain(std::string(def.domain));
  opset->set_version(since);
  if (!def.domain.empty()) {
    auto* onnx_opset = m.add_opset_import();
    onnx_opset->set_domain("");
    onnx_opset->set_version(21);
  }
  onnxpb::GraphProto* g = m.mutable_graph();
  g->set_name("main");
  onnxpb::NodeProto* node = g->add_node();
  node->set_op_type(std::string(def.name));
  node->set_domain(std::string(def.domain));
  node->set_name("op");

  // One element type per type variable, as the signature ties inputs together.
  std::vector<std::pair<std::string, ElemType>> chosen;
  auto elem_of = [&](const std::string& var) {
    for (auto& [name, e] : chosen)
      if (name == var) return e;
    const ops::TypeSet* set = sig ? sig->variable(var) : nullptr;
    ElemType e = set ? pick_elem(in, *set) : ElemType::Float;
    chosen.emplace_back(var, e);
    return e;
  };

  const int max_inputs = std::min(def.max_inputs, def.min_inputs + 4);
  const int inputs = in.ConsumeIntegralInRange<int>(def.min_inputs, max_inputs);
  for (int i = 0; i < inputs; ++i) {
    const std::string name = "x" + std::to_string(i);
    if (i >= def.min_inputs && in.ConsumeBool()) {  // an omitted optional input
      node->add_input("");
      continue;
    }
    node->add_input(name);
    const ops::Formal* formal =
        sig ? ops::Signature::formal_at(sig->inputs, static_cast<size_t>(i)) : nullptr;
    const ElemType elem = formal ? elem_of(formal->type) : ElemType::Float;
    if (elem == ElemType::Undefined) continue;  // a sequence or optional: left unbound
    const std::vector<int64_t> dims = small_shape(in);
    if (in.ConsumeBool()) {
      onnxpb::TensorProto* t = g->add_initializer();
      t->set_name(name);
      fill_tensor(in, elem, dims, t);
    } else {
      onnxpb::ValueInfoProto* input = g->add_input();
      input->set_name(name);
      auto* tt = input->mutable_type()->mutable_tensor_type();
      tt->set_elem_type(static_cast<int>(elem));
      for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
    }
  }
  const int max_outputs = std::min(def.max_outputs, def.min_outputs + 3);
  const int outputs = in.ConsumeIntegralInRange<int>(def.min_outputs, max_outputs);
  for (int i = 0; i < outputs; ++i) {
    const std::string name = "y" + std::to_string(i);
    node->add_output(name);
    g->add_output()->set_name(name);
  }
  if (sig)
    for (const ops::AttrSpec& spec : sig->attributes)
      if (spec.required || in.ConsumeBool()) add_attribute(in, spec, node);
  return m;
}

}  // namespace
}  // namespace bough::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const bough::onnxpb::ModelProto proto = bough::fuzz::single_op_model(in);
  const std::string bytes = proto.SerializeAsString();
  if (const char* save = std::getenv("BOUGH_SINGLE_OP_MODEL"))
    bough::write_file_atomic(save, bytes);
  std::shared_ptr<bough::ir::Model> model;
  try {
    model = bough::onnx::read_model_bytes(bytes, "single_op.onnx", "");
  } catch (const bough::Error&) {
    return 0;
  }
  bough::fuzz::run_once(bough::Model(model), in.ConsumeRemainingBytesAsString());
  return 0;
}
