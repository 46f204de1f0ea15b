// ScaledDotProductAttention-13, read as the ONNX nodes of OpenVINO's own decomposition
// (transformations/op_conversions/scaled_dot_product_attention_decomposition.cpp), in its
// order: Q * scale, MatMul with K's last two axes swapped, plus the bias, Softmax over the
// last axis, MatMul with V. The bias, as the operator's specification defines it:
//
// - causal: -inf where the key index is past the query index (j > i, numpy.triu(k=1) of an
//   [L, S] matrix: aligned at the top left, also when L != S); attention_mask is ignored;
// - a boolean attention_mask: 0 where true (the element takes part), -inf where false
//   (earlier decompositions had it inverted, fixed in OpenVINO in 2025);
// - a float attention_mask: added as it is (a scalar 0 adds nothing).
//
// The scale, when not given, is 1 / sqrt(E), E being Q's last dim, computed in Q's type.
// ONNX's Attention-23 is not used: it scales Q and K each by sqrt(scale), which rounds
// otherwise, and takes only 3-D or 4-D inputs.
#include <cmath>
#include <limits>
#include <utility>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "ir/float_formats.h"

namespace bough::openvino {

namespace {

// `v` rounded to the float type `t` (as OpenVINO's ConvertLike would leave it), as a double.
double rounded_to(ElemType t, double v) {
  const auto f = static_cast<float>(v);
  if (t == ElemType::Float16) return half_to_float(float_to_half(f));
  if (t == ElemType::BFloat16) return bfloat16_to_float(float_to_bfloat16(f));
  return t == ElemType::Double ? v : f;
}

// 1 / sqrt(E) in `t`: E converted, its square root taken and divided into 1, each rounded to
// `t` (ConvertLike, Sqrt and Divide of the decomposition).
double default_scale(ElemType t, int64_t e) {
  const double root = rounded_to(t, std::sqrt(rounded_to(t, static_cast<double>(e))));
  return rounded_to(t, 1.0 / root);
}

// The [L, S] bias of causal attention: -inf where j > i, built from the lengths at run time.
ir::Edge* causal_bias(GraphLowering& g, const LayerIO& io, ElemType t) {
  const std::string& name = io.layer.name;
  auto length = [&](size_t input, const char* what) {
    ir::Edge* dims = g.graph()->new_edge(g.model().unique_name(name + "/" + what + "_dims"),
                                         ir::Edge::Origin::NodeOutput);
    ir::Node* n = g.node_to("Shape", {io.in[input]}, {dims}, dims->name);
    n->attributes.push_back(int_attr("start", -2));
    n->attributes.push_back(int_attr("end", -1));
    ir::Edge* len =
        g.node("Squeeze", {dims, g.constant(i64_tensor({0}), name + "/axis0")}, name + "/" + what);
    return g.node("Range",
                  {g.constant(Tensor::scalar_i64(0), name + "/zero_i"), len,
                   g.constant(Tensor::scalar_i64(1), name + "/one_i")},
                  name + "/" + what + "_range");
  };
  ir::Edge* rows = g.node(
      "Unsqueeze", {length(0, "L"), g.constant(i64_tensor({1}), name + "/axis1")}, name + "/rows");
  ir::Edge* cols = g.node(
      "Unsqueeze", {length(1, "S"), g.constant(i64_tensor({0}), name + "/axis0")}, name + "/cols");
  ir::Edge* future = g.node("Greater", {cols, rows}, name + "/future");
  return g.node(
      "Where",
      {future,
       g.constant(*scalar_of(t, -std::numeric_limits<double>::infinity()), name + "/minus_inf"),
       g.constant(*scalar_of(t, 0.0), name + "/zero")},
      name + "/causal_bias");
}

void map_sdpa(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.size() > 5)
    fail(ErrorKind::Unsupported, g.where(l),
         "ScaledDotProductAttention with more than five inputs (a sink) is not mapped");
  check_inputs(g, io, 3, 5);
  const ir::Type& qt = io.in[0]->type;
  if (qt.kind != ir::Type::Kind::Tensor || !is_float_type(qt.elem) || is_sub_byte(qt.elem) ||
      !scalar_of(qt.elem, 0.0))
    fail(ErrorKind::Unsupported, g.where(l),
         "ScaledDotProductAttention needs a query of a known float type");
  const ElemType t = qt.elem;
  const std::string& name = l.name;
  const ir::Shape& ks = l.inputs.at(1).shape;
  if (!ks.rank_known || ks.dims.size() < 3)
    fail(ErrorKind::Unsupported, g.where(l),
         "ScaledDotProductAttention needs a key of known rank, at least 3");

  ir::Edge* scale = nullptr;
  if (io.in.size() == 5) {
    scale = io.in[4];
  } else {
    const ir::Shape& qs = l.inputs.at(0).shape;
    if (qs.rank_known && !qs.dims.empty() && qs.dims.back().is_known()) {
      scale = g.constant(*scalar_of(t, default_scale(t, qs.dims.back().value)), name + "/scale");
    } else {  // E at run time, in the decomposition's steps
      ir::Edge* e =
          g.graph()->new_edge(g.model().unique_name(name + "/E"), ir::Edge::Origin::NodeOutput);
      g.node_to("Shape", {io.in[0]}, {e}, e->name)->attributes.push_back(int_attr("start", -1));
      ir::Edge* ef = g.node("Cast", {e}, name + "/E_as_q", int_attr("to", static_cast<int64_t>(t)));
      scale = g.node(
          "Div",
          {g.constant(*scalar_of(t, 1.0), name + "/one"), g.node("Sqrt", {ef}, name + "/sqrt_E")},
          name + "/scale");
    }
  }
  ir::Edge* q = g.node("Mul", {io.in[0], scale}, name + "/q_scaled");
  std::vector<int64_t> perm;
  for (size_t i = 0; i < ks.dims.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  ir::Edge* k = g.node("Transpose", {io.in[1]}, name + "/k_transposed", ints_attr("perm", perm));
  ir::Edge* scores = g.node("MatMul", {q, k}, name + "/scores");

  const bool causal = flag(l, "causal", false);
  ir::Edge* bias = nullptr;
  if (causal) {
    bias = causal_bias(g, io, t);
  } else if (io.in.size() > 3) {
    const ir::Type& mt = io.in[3]->type;
    if (mt.kind != ir::Type::Kind::Tensor)
      fail(ErrorKind::Unsupported, g.where(l), "an attention_mask of unknown type");
    bias = io.in[3];
    if (mt.elem == ElemType::Bool)
      bias = g.node("Where",
                    {io.in[3], g.constant(*scalar_of(t, 0.0), name + "/zero"),
                     g.constant(*scalar_of(t, -std::numeric_limits<double>::infinity()),
                                name + "/minus_inf")},
                    name + "/mask_bias");
  }
  if (bias) scores = g.node("Add", {scores, bias}, name + "/biased");
  ir::Edge* weights = g.node("Softmax", {scores}, name + "/weights", int_attr("axis", -1));
  g.node_to("MatMul", {weights, io.in[2]}, {io.out[0]}, name);
}

}  // namespace

OpFamily attention_family() { return {{{"ScaledDotProductAttention", "13", map_sdpa}}, {}}; }

}  // namespace bough::openvino
