// Matrix products, reductions and orderings, both ways: MatMul (and ONNX's Gemm), the
// Reduce* operators (and ONNX's composite ReduceSumSquare, ReduceLogSum, ReduceLogSumExp),
// Softmax, LogSoftmax, TopK (and ONNX's ArgMax, ArgMin), CumSum, Einsum.
#include <optional>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// transpose_a/b swap the last two axes of a matrix operand (ignored for vectors). An operand
// of unknown rank (a port without dims) is swapped by Einsum "...ij->...ji", whatever its
// rank turns out to be (a vector there is refused at run time rather than misread).
void map_matmul(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  std::vector<ir::Edge*> ins = io.in;
  const char* keys[2] = {"transpose_a", "transpose_b"};
  for (size_t k = 0; k < 2; ++k) {
    if (!flag(io.layer, keys[k], false)) continue;
    if (!io.layer.inputs[k].shape.rank_known) {
      ins[k] = g.node("Einsum", {ins[k]}, io.layer.name + "/" + keys[k],
                      string_attr("equation", "...ij->...ji"));
      continue;
    }
    size_t rank = io.layer.inputs[k].shape.dims.size();
    if (rank < 2) continue;
    std::vector<int64_t> perm;
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
    std::swap(perm[rank - 1], perm[rank - 2]);
    ins[k] = g.node("Transpose", {ins[k]}, io.layer.name + "/" + keys[k], ints_attr("perm", perm));
  }
  g.node_to("MatMul", ins, {io.out[0]}, io.layer.name);
}

// OpenVINO with no axes reduces nothing; ONNX would reduce everything unless told not to.
// ReduceLogicalAnd and ReduceLogicalOr are ONNX's ReduceMin and ReduceMax of bool.
void map_reduce(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const std::string& type = canonical_type(io.layer);
  const std::string op = type == "ReduceLogicalAnd"  ? "ReduceMin"
                         : type == "ReduceLogicalOr" ? "ReduceMax"
                                                     : type;
  ir::Edge* axes = g.as_int64(io.in[1], io.layer.name + "/axes");
  ir::Node* n = g.node_to(op, {io.in[0], axes}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("keepdims", flag(io.layer, "keep_dims", false) ? 1 : 0));
  n->attributes.push_back(int_attr("noop_with_empty_axes", 1));
}

void map_softmax(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  g.node_to(canonical_type(io.layer), {io.in[0]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 1)));
}

// TopK-1/3/11 as ONNX's TopK (K an int64 [1]): mode max is largest, and ONNX's sorted order
// (by value, equal values lower index first) is one OpenVINO's "value" and "none" allow,
// stable or not; "index" order has no ONNX form but for k 1. Indices are int64 in ONNX,
// converted to index_element_type (i32 by default).
void map_top_k(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.size() != 2 || io.out.size() != 2)
    fail(ErrorKind::InvalidModel, g.where(l), "TopK takes data and k and gives values and indices");
  const std::string mode = enum_data(l, "mode", "");
  const std::string sort = enum_data(l, "sort", "none");
  if (mode != "max" && mode != "min")
    fail(ErrorKind::InvalidModel, g.where(l), "mode must be max or min");
  if (sort == "index") {
    const Tensor* k = GraphLowering::constant_value(io.in[1]);
    if (!k || const_ints(g, io, 1, "k") != std::vector<int64_t>{1})
      fail(ErrorKind::Unsupported, g.where(l), "TopK sorted by index (but for a constant k of 1)");
  }
  const std::string* type = l.attr("index_element_type");
  const bool i64 = type && *type == "i64";
  if (type && !i64 && *type != "i32")
    fail(ErrorKind::InvalidModel, g.where(l), "index_element_type \"" + *type + "\"");
  ir::Edge* k = g.as_int64(io.in[1], l.name + "/k");
  if (l.inputs.at(1).shape.dims.empty())
    k = g.node("Unsqueeze", {k, g.constant(i64_tensor({0}), l.name + "/k_axis")}, l.name + "/k_1d");
  ir::Edge* indices = i64 ? io.out[1]
                          : g.graph()->new_edge(g.model().unique_name(l.name + "/indices_i64"),
                                                ir::Edge::Origin::NodeOutput);
  ir::Node* n = g.node_to("TopK", {io.in[0], k}, {io.out[0], indices}, l.name);
  n->attributes.push_back(int_attr("axis", int_data(g, l, "axis", -1)));
  n->attributes.push_back(int_attr("largest", mode == "max" ? 1 : 0));
  n->attributes.push_back(int_attr("sorted", 1));
  if (!i64)
    g.node_to("Cast", {indices}, {io.out[1]}, l.name + "/indices")
        ->attributes.push_back(int_attr("to", static_cast<int64_t>(ElemType::Int32)));
}

// CumSum-3 is ONNX's CumSum, but for its axis, which may be left out (0).
void map_cum_sum(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 2);
  ir::Edge* axis =
      io.in.size() == 2 ? io.in[1] : g.constant(Tensor::scalar_i64(0), io.layer.name + "/axis");
  ir::Node* n = g.node_to("CumSum", {io.in[0], axis}, {io.out[0]}, io.layer.name);
  for (const char* key : {"exclusive", "reverse"})
    n->attributes.push_back(int_attr(key, flag(io.layer, key, false) ? 1 : 0));
}

void write_matmul(NetWriter& w, const ir::Node& n) {
  w.op("MatMul", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"transpose_a", "false"}, {"transpose_b", "false"}});
}

// Axes are an input of ReduceSum from opset 13 and of the others from opset 18.
// 0, 1, ..., rank(x) - 1, for an x whose rank is known only at run time.
PortRef every_axis(NetWriter& w, PortRef x, const std::string& name) {
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", {x}, nullptr, {{"output_type", "i64"}});
  PortRef rank =
      w.op("ShapeOf", "opset3", name + "/rank", {shape}, nullptr, {{"output_type", "i64"}});
  PortRef count = w.op("Squeeze", "opset1", name + "/rank_scalar",
                       {rank, w.const_i64({0}, name + "/rank_axis")}, nullptr);
  return w.op("Range", "opset4", name + "/axes",
              {w.constant(Tensor::scalar_i64(0), name + "/zero"), count,
               w.constant(Tensor::scalar_i64(1), name + "/one")},
              nullptr, {{"output_type", "i64"}});
}

// ONNX reduces every axis when the axes are missing or empty (unless
// noop_with_empty_axes, which makes it an Identity); OpenVINO's empty axes reduce none, so
// every axis is listed (and an axes input known to be empty is not read).
void write_reduce(NetWriter& w, const ir::Node& n) {
  const ir::Edge* axes_in = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  const ir::Attribute* axes_attr = n.attr("axes");
  auto empty = [](const ir::Edge* e) {
    if (e->data) return e->data->numel() == 0;
    const ir::Shape& s = e->type.shape;
    return s.rank_known && s.dims.size() == 1 && s.dims[0].is_known() && s.dims[0].value == 0;
  };
  bool all = axes_in ? empty(axes_in) : !axes_attr || axes_attr->ints.empty();
  std::optional<PortRef> axes;
  const std::string name = layer_name(n);
  if (all && int_attr_or(n, "noop_with_empty_axes", 0)) {
    // (What a "no-op" is for the composite reductions, the ONNX spec leaves open.)
    if (n.op_type == "ReduceSumSquare" || n.op_type == "ReduceLogSum" ||
        n.op_type == "ReduceLogSumExp")
      fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with noop_with_empty_axes");
    return w.bind(out0(w, n), w.source(n.inputs.at(0)));
  }
  if (all) {
    const ir::Type& t = n.inputs.at(0)->type;
    std::vector<int64_t> every;
    for (size_t i = 0; i < t.shape.dims.size(); ++i) every.push_back(static_cast<int64_t>(i));
    // Of a rank known only at run time: Range(0, rank, 1).
    axes = t.kind == ir::Type::Kind::Tensor && t.shape.rank_known
               ? w.const_i64(every, name + "/axes")
               : every_axis(w, w.source(n.inputs[0]), name);
  } else {
    axes = axes_of(w, n, 1, "axes");
  }
  bool keep = int_attr_or(n, "keepdims", 1) != 0;
  bool l1_l2 = n.op_type == "ReduceL1" || n.op_type == "ReduceL2";
  // ReduceSumSquare, ReduceLogSum and ReduceLogSumExp are a ReduceSum of x * x, x or exp(x),
  // the last two then a Log.
  PortRef x = w.source(n.inputs.at(0));
  std::string type = n.op_type;
  const bool logs = type == "ReduceLogSum" || type == "ReduceLogSumExp";
  if (type == "ReduceSumSquare")
    x = w.op("Multiply", "opset1", name + "/square", {x, x}, nullptr,
             {{"auto_broadcast", "numpy"}});
  if (type == "ReduceLogSumExp") x = w.op("Exp", "opset1", name + "/exp", {x}, nullptr);
  if (type == "ReduceSumSquare" || logs) type = "ReduceSum";
  const ir::Type& t = n.inputs[0]->type;
  if (t.kind == ir::Type::Kind::Tensor && t.elem == ElemType::Bool && type == "ReduceMin")
    type = "ReduceLogicalAnd";
  if (t.kind == ir::Type::Kind::Tensor && t.elem == ElemType::Bool && type == "ReduceMax")
    type = "ReduceLogicalOr";
  PortRef sum = w.op(type, l1_l2 ? "opset4" : "opset1", logs ? name + "/sum" : name, {x, *axes},
                     logs ? nullptr : out0(w, n), {{"keep_dims", keep ? "true" : "false"}});
  if (logs) w.op("Log", "opset1", name, {sum}, out0(w, n));
}

// Before opset 13, ONNX's Softmax flattened the input at the axis; OpenVINO's never does.
void write_softmax(NetWriter& w, const ir::Node& n) {
  if (w.opset() < 13) fail(ErrorKind::Unsupported, w.where(n), n.op_type + " before opset 13");
  w.op(n.op_type, n.op_type == "Softmax" ? "opset8" : "opset5", layer_name(n), sources(w, n),
       out0(w, n), {{"axis", std::to_string(int_attr_or(n, "axis", -1))}});
}

// TopK-11 with int64 indices, sorted by value and stable: ONNX's order (equal values lower
// index first). Its values and indices go to `values` and `indices` (either may be null);
// returns the indices' port.
PortRef top_k_layer(NetWriter& w, PortRef x, PortRef k, int64_t axis, bool largest, bool sorted,
                    const ir::Edge* values, const ir::Edge* indices, const std::string& name) {
  XmlLayer l;
  l.name = name;
  l.type = "TopK";
  l.version = "opset11";
  l.data = {{"axis", std::to_string(axis)},
            {"mode", largest ? "max" : "min"},
            {"sort", sorted ? "value" : "none"},
            {"stable", "true"},
            {"index_element_type", "i64"}};
  l.outputs = {NetWriter::port_of(values), NetWriter::port_of(indices)};
  const int64_t id = w.add(std::move(l), {x, k});
  if (values) w.bind(values, {id, 2});
  if (indices) w.bind(indices, {id, 3});
  return {id, 3};
}

// ONNX's TopK: K an attribute (opset 1) or an int64 [1] input, which TopK-11 wants scalar.
void write_top_k(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  PortRef k;
  if (n.inputs.size() > 1 && n.inputs[1])
    k = w.op("Squeeze", "opset1", name + "/k",
             {w.source(n.inputs[1]), w.const_i64({0}, name + "/k_axis")}, nullptr);
  else
    k = w.constant(Tensor::scalar_i64(int_attr_or(n, "k", 1)), name + "/k");
  top_k_layer(w, w.source(n.inputs.at(0)), k, int_attr_or(n, "axis", -1),
              int_attr_or(n, "largest", 1) != 0, int_attr_or(n, "sorted", 1) != 0,
              n.outputs.empty() ? nullptr : n.outputs[0],
              n.outputs.size() > 1 ? n.outputs[1] : nullptr, name);
}

// ArgMax and ArgMin: the index of TopK-11's one largest (smallest) element, stable so that
// the first of equal values wins, as select_last_index 0 asks; squeezed without keepdims.
void write_arg_reduce(NetWriter& w, const ir::Node& n) {
  if (int_attr_or(n, "select_last_index", 0) != 0)
    fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with select_last_index");
  const std::string name = layer_name(n);
  const int64_t axis = int_attr_or(n, "axis", 0);
  const bool keep = int_attr_or(n, "keepdims", 1) != 0;
  PortRef index =
      top_k_layer(w, w.source(n.inputs.at(0)), w.constant(Tensor::scalar_i64(1), name + "/k"), axis,
                  n.op_type == "ArgMax", true, nullptr, keep ? out0(w, n) : nullptr,
                  keep ? name : name + "/top");
  if (!keep)
    w.op("Squeeze", "opset1", name, {index, w.const_i64({axis}, name + "/axis")}, out0(w, n));
}

// ONNX's Gemm, alpha * A' * B' + beta * C, as MatMul with the transposes as Transpose
// layers (a reader cannot tell a matrix from a scalar by a port without dims), the factors
// as constants converted like A, and an Add of C broadcast as numpy does.
void write_gemm(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  auto operand = [&](size_t k, const char* trans) {
    PortRef p = w.source(n.inputs.at(k));
    if (!int_attr_or(n, trans, 0)) return p;
    return w.op("Transpose", "opset1", name + "/" + trans,
                {p, w.const_i64({1, 0}, name + "/" + trans + "_order")}, nullptr);
  };
  auto factor = [&](PortRef x, const char* attr) {
    const ir::Attribute* a = n.attr(attr);
    if (!a || a->f == 1.0f) return x;
    PortRef f = w.op("ConvertLike", "opset1", name + "/" + attr,
                     {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{a->f}),
                                 name + "/" + attr + "_f32"),
                      x},
                     nullptr);
    return w.op("Multiply", "opset1", name + "/" + attr + "_times", {x, f}, nullptr,
                {{"auto_broadcast", "numpy"}});
  };
  const ir::Edge* c = n.inputs.size() > 2 ? n.inputs[2] : nullptr;
  const ir::Attribute* alpha = n.attr("alpha");
  const bool scaled = alpha && alpha->f != 1.0f;
  PortRef product =
      w.op("MatMul", "opset1", c || scaled ? name + "/matmul" : name,
           {operand(0, "transA"), operand(1, "transB")}, c || scaled ? nullptr : out0(w, n),
           {{"transpose_a", "false"}, {"transpose_b", "false"}});
  if (!c && !scaled) return;
  if (!c) {
    w.bind(out0(w, n), factor(product, "alpha"));
    return;
  }
  w.op("Add", "opset1", name, {factor(product, "alpha"), factor(w.source(c), "beta")}, out0(w, n),
       {{"auto_broadcast", "numpy"}});
}

void write_cum_sum(NetWriter& w, const ir::Node& n) {
  auto flag = [&](const char* key) { return int_attr_or(n, key, 0) ? "true" : "false"; };
  w.op("CumSum", "opset3", layer_name(n), sources(w, n), out0(w, n),
       {{"exclusive", flag("exclusive")}, {"reverse", flag("reverse")}});
}

// Einsum-7 and ONNX's Einsum share the equation's syntax (ellipsis included).
void map_einsum(GraphLowering& g, const LayerIO& io) {
  if (io.in.empty() || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "Einsum needs inputs and one output");
  const std::string* eq = io.layer.attr("equation");
  if (!eq) fail(ErrorKind::InvalidModel, g.where(io.layer), "Einsum without an equation");
  g.node_to("Einsum", io.in, {io.out[0]}, io.layer.name)
      ->attributes.push_back(string_attr("equation", *eq));
}

void write_einsum(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* eq = n.attr("equation");
  if (!eq) fail(ErrorKind::InvalidModel, w.where(n), "Einsum without an equation");
  w.op("Einsum", "opset7", layer_name(n), sources(w, n), out0(w, n), {{"equation", eq->s}});
}

}  // namespace

OpFamily math_family() {
  OpFamily f{{{"MatMul", "1", map_matmul},
              {"ReduceL1", "4", map_reduce},
              {"ReduceL2", "4", map_reduce},
              {"Softmax", "1 8", map_softmax},
              {"LogSoftmax", "5", map_softmax},
              {"TopK", "1 3 11", map_top_k},
              {"CumSum", "3", map_cum_sum}},
             {{"MatMul", "MatMul-1", write_matmul},
              {"Gemm", "MatMul-1 Transpose-1 Multiply-1 Add-1", write_gemm},
              {"ReduceL1", "ReduceL1-4", write_reduce},
              {"ReduceL2", "ReduceL2-4", write_reduce},
              {"ReduceSumSquare", "Multiply-1 ReduceSum-1", write_reduce},
              {"ReduceLogSum", "ReduceSum-1 Log-1", write_reduce},
              {"ReduceLogSumExp", "Exp-1 ReduceSum-1 Log-1", write_reduce},
              {"Softmax", "Softmax-8", write_softmax},
              {"LogSoftmax", "LogSoftmax-5", write_softmax},
              {"TopK", "TopK-11", write_top_k},
              {"ArgMax", "TopK-11", write_arg_reduce},
              {"ArgMin", "TopK-11", write_arg_reduce},
              {"CumSum", "CumSum-3", write_cum_sum}}};
  for (const char* type : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"}) {
    f.reads.push_back({type, "1", map_reduce});
    f.writes.push_back({type, std::string(type) + "-1", write_reduce});
  }
  f.reads.push_back({"Einsum", "7", map_einsum});
  f.writes.push_back({"Einsum", "Einsum-7", write_einsum});
  f.reads.push_back({"ReduceLogicalAnd", "1", map_reduce});
  f.reads.push_back({"ReduceLogicalOr", "1", map_reduce});
  // (ReduceMin and ReduceMax of bool are written as these.)
  f.writes.back().writes += " ReduceLogicalAnd-1 ReduceLogicalOr-1";
  return f;
}

}  // namespace bough::openvino
