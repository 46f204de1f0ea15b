// Recurrent layers, both ways.
//
// OpenVINO's LSTMCell, GRUCell and RNNCell (one time step; OpenVINO's converters put them in
// TensorIterator bodies) and LSTMSequence-5, GRUSequence-5 and RNNSequence-5 as ONNX's
// LSTM, GRU and RNN in their time-major layout (layout 0, which ONNX Runtime also runs). A
// cell is a sequence of one: X and the states get a leading axis of 1, the new states lose
// it. A sequence's X [batch, seq, input] and states [batch, dirs, H] are transposed to
// ONNX's [seq, batch, input] and [dirs, batch, H], its Y [seq, dirs, batch, H] to
// OpenVINO's [batch, dirs, seq, H]. The gates and biases are restacked (rnn_gates.h), so W,
// R and B must be constants.
//
// ONNX's LSTM, GRU and RNN as OpenVINO's LSTMSequence-5, GRUSequence-5 and RNNSequence-5
// (the inverse of the above). OpenVINO's sequences are batch-major: X [batch, seq,
// input], states [batch, dirs, H], Y [batch, dirs, seq, H]; ONNX's layout 0 is time-major
// and its layout 1 has Y as [batch, seq, dirs, H], so Transposes go around the layer. The
// inputs OpenVINO requires and ONNX may omit are made: sequence_lengths all seq, zero
// initial states, a zero bias. W, R and B are restacked (rnn_gates.h), so must be
// constants; peepholes, input_forget and activation parameters have no OpenVINO form.
#include <algorithm>
#include <cstdio>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/rnn_gates.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

const Tensor& constant_input(GraphLowering& g, const LayerIO& io, size_t k, const char* what) {
  const Tensor* t = GraphLowering::constant_value(io.in.at(k));
  if (!t)
    fail(ErrorKind::Unsupported, g.where(io.layer), std::string(what) + " must be a constant");
  return *t;
}

// OpenVINO's activations ("sigmoid,tanh,tanh") as ONNX's, for each of `dirs` directions;
// empty when they are the default.
std::vector<std::string> onnx_activations(GraphLowering& g, const XmlLayer& l, const RnnKind& kind,
                                          int64_t dirs) {
  for (const char* key : {"activations_alpha", "activations_beta"})
    if (const std::string* v = l.attr(key); v && !v->empty())
      fail(ErrorKind::Unsupported, g.where(l), std::string(key) + " \"" + *v + "\"");
  const std::string* list = l.attr("activations");
  if (!list || *list == kind.activations) return {};
  std::vector<std::string> one;
  size_t pos = 0;
  while (pos <= list->size()) {
    size_t comma = std::min(list->find(',', pos), list->size());
    std::string name = list->substr(pos, comma - pos);
    if (name == "sigmoid" || name == "tanh" || name == "relu")
      one.push_back(std::string(1, static_cast<char>(name[0] - 'a' + 'A')) + name.substr(1));
    else
      fail(ErrorKind::Unsupported, g.where(l), "activations \"" + *list + "\"");
    pos = comma + 1;
  }
  std::vector<std::string> all;
  for (int64_t d = 0; d < dirs; ++d) all.insert(all.end(), one.begin(), one.end());
  return all;
}

void map_rnn(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string& type = canonical_type(l);
  const RnnKind& kind = *rnn_kind_of(type);
  const bool seq = type == kind.ov_sequence;
  const size_t w_in = 1 + kind.states + (seq ? 1 : 0);  // X, the states, seq_lengths; W, R, B
  if (io.in.size() != w_in + 3 || io.out.size() != kind.states + (seq ? 1 : 0))
    fail(ErrorKind::InvalidModel, g.where(l),
         type + " takes X, " + std::to_string(kind.states) + " state(s), " +
             (seq ? "sequence_lengths, " : "") + "W, R and B");
  const int64_t hidden = int_data(g, l, "hidden_size", 0);
  if (hidden <= 0) fail(ErrorKind::InvalidModel, g.where(l), "no hidden_size");
  const std::string dir = seq ? enum_data(l, "direction", "forward") : "forward";
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    fail(ErrorKind::InvalidModel, g.where(l), "direction \"" + dir + "\"");
  const int64_t dirs = dir == "bidirectional" ? 2 : 1;
  const Tensor& w = constant_input(g, io, w_in, "W");
  const Tensor& r = constant_input(g, io, w_in + 1, "R");
  const Tensor& b = constant_input(g, io, w_in + 2, "B");
  const int64_t rows = kind.gates * hidden;
  const bool lbr = flag(l, "linear_before_reset", false);
  const int64_t b_rows = lbr ? rows + hidden : rows;  // GRU: + the h gate's recurrent bias
  const size_t lead = seq ? 1 : 0;                    // the direction axis of W, R and B
  auto with_dirs = [&](std::vector<int64_t> dims) {
    if (seq) dims.insert(dims.begin(), dirs);
    return dims;
  };
  const int64_t input = w.rank() == 2 + lead ? w.shape()[lead + 1] : -1;
  if (w.shape().vec() != with_dirs({rows, input}) || r.shape().vec() != with_dirs({rows, hidden}) ||
      b.shape().vec() != with_dirs({b_rows}))
    fail(ErrorKind::InvalidModel, g.where(l),
         "W, R or B do not hold " + std::to_string(dirs) + " direction(s) of " +
             std::to_string(kind.gates) + " gates of hidden_size " + std::to_string(hidden));

  const std::string& name = l.name;
  ir::Edge* onnx_w = g.constant(
      permute_gates(w, dirs, kind.gates, kind.order, Dims{dirs, rows, input}), name + "/W");
  ir::Edge* onnx_r = g.constant(
      permute_gates(r, dirs, kind.gates, kind.order, Dims{dirs, rows, hidden}), name + "/R");
  ir::Edge* onnx_b = g.constant(onnx_bias(b, kind, dirs, lbr), name + "/B");
  // Into ONNX's time-major layout, and back.
  auto to_onnx = [&](ir::Edge* e, const std::string& suffix) {
    if (seq) return g.node("Transpose", {e}, name + suffix, ints_attr("perm", {1, 0, 2}));
    return g.node("Unsqueeze", {e, g.constant(i64_tensor({0}), name + suffix + "_axis")},
                  name + suffix);
  };
  ir::Edge* lengths = nullptr;
  if (seq) {
    lengths = io.in[1 + kind.states];
    const ir::Type& t = lengths->type;
    if (t.kind != ir::Type::Kind::Tensor || t.elem != ElemType::Int32)  // ONNX wants int32
      lengths = g.node("Cast", {lengths}, name + "/lengths",
                       int_attr("to", static_cast<int64_t>(ElemType::Int32)));
  }
  std::vector<ir::Edge*> ins{to_onnx(io.in[0], "/x"), onnx_w, onnx_r, onnx_b, lengths};
  for (size_t s = 0; s < kind.states; ++s)
    ins.push_back(to_onnx(io.in[1 + s], "/initial_" + std::to_string(s)));
  auto fresh = [&](const std::string& suffix) {
    return g.graph()->new_edge(g.model().unique_name(name + suffix), ir::Edge::Origin::NodeOutput);
  };
  std::vector<ir::Edge*> outs{seq ? fresh("/y") : nullptr};  // a cell's Y is its new H again
  for (size_t s = 0; s < kind.states; ++s) outs.push_back(fresh("/state_" + std::to_string(s)));
  ir::Node* n = g.node_to(kind.onnx, ins, outs, name + "/" + kind.onnx);
  n->attributes.push_back(int_attr("hidden_size", hidden));
  if (dir != "forward") n->attributes.push_back(string_attr("direction", dir));
  if (std::vector<std::string> acts = onnx_activations(g, l, kind, dirs); !acts.empty()) {
    ir::Attribute a = string_attr("activations", "");
    a.kind = ir::Attribute::Kind::Strings;
    a.strings = std::move(acts);
    n->attributes.push_back(std::move(a));
  }
  if (const std::string* clip = l.attr("clip"); clip && float_data(g, l, "clip", 0) != 0)
    n->attributes.push_back(float_attr("clip", static_cast<float>(float_data(g, l, "clip", 0))));
  if (lbr) n->attributes.push_back(int_attr("linear_before_reset", 1));
  if (seq)
    g.node_to("Transpose", {outs[0]}, {io.out[0]}, name + "/out_y")
        ->attributes.push_back(ints_attr("perm", {2, 1, 0, 3}));
  for (size_t s = 0; s < kind.states; ++s) {
    ir::Edge* out = io.out[(seq ? 1 : 0) + s];
    const std::string suffix = "/out_" + std::to_string(s);
    if (seq) {
      g.node_to("Transpose", {outs[1 + s]}, {out}, name + suffix)
          ->attributes.push_back(ints_attr("perm", {1, 0, 2}));
    } else {
      g.node_to("Squeeze", {outs[1 + s], g.constant(i64_tensor({0}), name + "/state_axis")}, {out},
                name + suffix);
    }
  }
}

const ir::Edge* input(const ir::Node& n, size_t k) {
  return n.inputs.size() > k ? n.inputs[k] : nullptr;
}

const Tensor& constant_of(NetWriter& w, const ir::Node& n, size_t k, const char* what) {
  const ir::Edge* e = input(n, k);
  if (!e || !e->data)
    fail(ErrorKind::Unsupported, w.where(n),
         n.op_type + "'s " + what + " must be a constant to restack its gates for OpenVINO");
  return *e->data;
}

// ONNX's activations as OpenVINO's one list for all directions ("" for the default).
std::string ov_activations(NetWriter& w, const ir::Node& n, const RnnKind& kind, int64_t dirs) {
  for (const char* key : {"activation_alpha", "activation_beta"})
    if (n.attr(key)) fail(ErrorKind::Unsupported, w.where(n), std::string(key));
  const ir::Attribute* a = n.attr("activations");
  if (!a) return "";
  const size_t per_dir = a->strings.size() / static_cast<size_t>(dirs);
  std::string list;
  for (size_t k = 0; k < a->strings.size(); ++k) {
    const std::string& act = a->strings[k];
    if (act != "Sigmoid" && act != "Tanh" && act != "Relu")
      fail(ErrorKind::Unsupported, w.where(n), "activation " + act);
    if (k >= per_dir && act != a->strings[k - per_dir])
      fail(ErrorKind::Unsupported, w.where(n), "activations that differ between directions");
    if (k < per_dir)
      list += (list.empty() ? "" : ",") + std::string(1, act[0] - 'A' + 'a') + act.substr(1);
  }
  return list == kind.activations ? "" : list;
}

void write_recurrent(NetWriter& w, const ir::Node& n) {
  const RnnKind& kind = *rnn_kind_of(n.op_type);
  const std::string name = layer_name(n);
  if (input(n, 7)) fail(ErrorKind::Unsupported, w.where(n), "LSTM with peepholes (P)");
  if (int_attr_or(n, "input_forget", 0) != 0)
    fail(ErrorKind::Unsupported, w.where(n), "LSTM with input_forget");
  const ir::Attribute* direction = n.attr("direction");
  const std::string dir = direction ? direction->s : "forward";
  const int64_t dirs = dir == "bidirectional" ? 2 : 1;
  const bool batch_first = int_attr_or(n, "layout", 0) != 0;
  const bool lbr = int_attr_or(n, "linear_before_reset", 0) != 0;
  const Tensor& wt = constant_of(w, n, 1, "W");
  const Tensor& rt = constant_of(w, n, 2, "R");
  const int64_t hidden = int_attr_or(n, "hidden_size", rt.rank() == 3 ? rt.shape()[2] : 0);
  const int64_t rows = kind.gates * hidden;
  if (wt.rank() != 3 || wt.shape()[0] != dirs || wt.shape()[1] != rows ||
      rt.shape().vec() != std::vector<int64_t>{dirs, rows, hidden})
    fail(ErrorKind::InvalidModel, w.where(n), "W and R do not match hidden_size and direction");
  const std::vector<int> from = inverse(kind.order);
  Tensor b = input(n, 3)
                 ? openvino_bias(constant_of(w, n, 3, "B"), kind, dirs, hidden, lbr, w.where(n))
                 : Tensor::zeros(wt.type(), Dims{dirs, (kind.gates + (lbr ? 1 : 0)) * hidden});

  // X and the states batch-major.
  auto batch_major = [&](const ir::Edge* e, const std::string& suffix) {
    PortRef p = w.source(e);
    if (batch_first) return p;
    return w.op("Transpose", "opset1", name + suffix,
                {p, w.const_i64({1, 0, 2}, name + suffix + "_perm")}, nullptr);
  };
  PortRef x = batch_major(n.inputs.at(0), "/x");
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/x_shape", {x}, nullptr, {{"output_type", "i64"}});
  auto dim = [&](int64_t axis, const std::string& suffix) {
    return w.op("Gather", "opset8", name + suffix,
                {shape, w.const_i64({axis}, name + suffix + "_index"),
                 w.constant(Tensor::scalar_i64(0), name + suffix + "_axis")},
                nullptr, {{"batch_dims", "0"}});
  };
  PortRef batch = dim(0, "/batch");
  std::vector<PortRef> ins{x};
  for (size_t s = 0; s < kind.states; ++s) {
    const std::string suffix = "/initial_" + std::to_string(s);
    if (const ir::Edge* e = input(n, 5 + s)) {
      ins.push_back(batch_major(e, suffix));
      continue;
    }
    PortRef zero =
        w.op("ConvertLike", "opset1", name + suffix + "_zero",
             {w.constant(Tensor::zeros(ElemType::Float, Dims{}), name + suffix + "_zero_f32"), x},
             nullptr);
    PortRef state_shape = w.op("Concat", "opset1", name + suffix + "_shape",
                               {batch, w.const_i64({dirs, hidden}, name + suffix + "_dims")},
                               nullptr, {{"axis", "0"}});
    ins.push_back(w.op("Broadcast", "opset3", name + suffix, {zero, state_shape}, nullptr,
                       {{"mode", "numpy"}}));
  }
  if (const ir::Edge* lengths = input(n, 4))
    ins.push_back(w.source(lengths));
  else
    ins.push_back(w.op("Broadcast", "opset3", name + "/lengths", {dim(1, "/steps"), batch}, nullptr,
                       {{"mode", "numpy"}}));
  ins.push_back(w.constant(permute_gates(wt, dirs, kind.gates, from, wt.shape()), name + "/W"));
  ins.push_back(w.constant(permute_gates(rt, dirs, kind.gates, from, rt.shape()), name + "/R"));
  ins.push_back(w.constant(b, name + "/B"));

  XmlLayer l;
  l.name = name;
  l.type = kind.ov_sequence;
  l.version = "opset5";
  l.data = {{"hidden_size", std::to_string(hidden)}, {"direction", dir}};
  if (std::string acts = ov_activations(w, n, kind, dirs); !acts.empty())
    l.data["activations"] = acts;
  if (const ir::Attribute* clip = n.attr("clip")) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", clip->f);
    l.data["clip"] = text;
  }
  if (kind.gates == 3) l.data["linear_before_reset"] = lbr ? "true" : "false";
  l.outputs.resize(1 + kind.states, NetWriter::port_of(nullptr));
  const int64_t id = w.add(std::move(l), ins);
  auto out = [&](size_t k) { return PortRef{id, static_cast<int64_t>(ins.size() + k)}; };

  // Y [batch, dirs, seq, H] as [seq, dirs, batch, H] (layout 0) or [batch, seq, dirs, H].
  const std::vector<int64_t> y_perm =
      batch_first ? std::vector<int64_t>{0, 2, 1, 3} : std::vector<int64_t>{2, 1, 0, 3};
  if (n.outputs.size() > 0 && n.outputs[0])
    w.op("Transpose", "opset1", name + "/y", {out(0), w.const_i64(y_perm, name + "/y_perm")},
         n.outputs[0]);
  for (size_t s = 0; s < kind.states; ++s) {
    const ir::Edge* e = n.outputs.size() > 1 + s ? n.outputs[1 + s] : nullptr;
    if (!e) continue;
    if (batch_first) {
      w.bind(e, out(1 + s));
      continue;
    }
    const std::string suffix = "/state_" + std::to_string(s);
    w.op("Transpose", "opset1", name + suffix,
         {out(1 + s), w.const_i64({1, 0, 2}, name + suffix + "_perm")}, e);
  }
}

}  // namespace

OpFamily recurrent_family() {
  return {{{"LSTMCell", "1 4", map_rnn},
           {"GRUCell", "3", map_rnn},
           {"RNNCell", "1", map_rnn},
           {"LSTMSequence", "5", map_rnn},
           {"GRUSequence", "5", map_rnn},
           {"RNNSequence", "5", map_rnn}},
          {{"LSTM", "LSTMSequence-5", write_recurrent},
           {"GRU", "GRUSequence-5", write_recurrent},
           {"RNN", "RNNSequence-5", write_recurrent}}};
}

}  // namespace bough::openvino
