// OpenVINO's LSTMCell, GRUCell and RNNCell (one time step; OpenVINO's converters put them in
// TensorIterator bodies) and LSTMSequence-5, GRUSequence-5 and RNNSequence-5 as ONNX's
// LSTM, GRU and RNN in their time-major layout (layout 0, which ONNX Runtime also runs). A
// cell is a sequence of one: X and the states get a leading axis of 1, the new states lose
// it. A sequence's X [batch, seq, input] and states [batch, dirs, H] are transposed to
// ONNX's [seq, batch, input] and [dirs, batch, H], its Y [seq, dirs, batch, H] to
// OpenVINO's [batch, dirs, seq, H]. The gates and biases are restacked (rnn_gates.h), so W,
// R and B must be constants.
#include <algorithm>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/rnn_gates.h"

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

}  // namespace

void map_rnn(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const RnnKind& kind = *rnn_kind_of(l.type);
  const bool seq = l.type == kind.ov_sequence;
  const size_t w_in = 1 + kind.states + (seq ? 1 : 0);  // X, the states, seq_lengths; W, R, B
  if (io.in.size() != w_in + 3 || io.out.size() != kind.states + (seq ? 1 : 0))
    fail(ErrorKind::InvalidModel, g.where(l),
         l.type + " takes X, " + std::to_string(kind.states) + " state(s), " +
             (seq ? "sequence_lengths, " : "") + "W, R and B");
  const int64_t hidden = int_data(g, l, "hidden_size", 0);
  if (hidden <= 0) fail(ErrorKind::InvalidModel, g.where(l), "no hidden_size");
  const std::string* direction = l.attr("direction");
  const std::string dir = seq && direction ? *direction : "forward";
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

}  // namespace bough::openvino
