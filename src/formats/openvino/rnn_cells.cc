// OpenVINO's LSTMCell, GRUCell and RNNCell (one time step; OpenVINO's converters put them in
// TensorIterator bodies) as ONNX's LSTM, GRU and RNN over a sequence of one. The gates are
// stacked in another order (LSTMCell f, i, c, o; ONNX LSTM i, o, f, c; GRU and RNN agree),
// ONNX wants the weights with a leading direction axis and its bias split into the input
// and the recurrent part, so W, R and B must be constants, rewritten here. X and the states
// get a leading axis of 1, the new states lose it.
#include <cstring>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

namespace {

struct Cell {
  const char* onnx;
  int gates;
  std::vector<int> order;  // ONNX gate k is OpenVINO gate order[k]
  size_t states;           // H (and C for LSTM)
  const char* activations;
};

const Cell& cell_of(const std::string& type) {
  static const Cell lstm{"LSTM", 4, {1, 3, 0, 2}, 2, "sigmoid,tanh,tanh"};
  static const Cell gru{"GRU", 3, {0, 1, 2}, 1, "sigmoid,tanh"};
  static const Cell rnn{"RNN", 1, {0}, 1, "tanh"};
  return type == "LSTMCell" ? lstm : type == "GRUCell" ? gru : rnn;
}

const Tensor& constant_input(GraphLowering& g, const LayerIO& io, size_t k, const char* what) {
  const Tensor* t = GraphLowering::constant_value(io.in.at(k));
  if (!t)
    fail(ErrorKind::Unsupported, g.where(io.layer), std::string(what) + " must be a constant");
  return *t;
}

// `blocks` of `t` (split evenly along axis 0) in the order `order`, into `out` from `at`.
void copy_blocks(const Tensor& t, size_t blocks, const std::vector<int>& order, Tensor* out,
                 size_t at) {
  const size_t block = t.nbytes() / blocks;
  auto* dst = static_cast<char*>(out->raw()) + at;
  for (size_t k = 0; k < order.size(); ++k)
    std::memcpy(dst + k * block, static_cast<const char*>(t.raw()) + order[k] * block, block);
}

}  // namespace

void map_rnn_cell(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const Cell& cell = cell_of(l.type);
  const size_t w_in = 1 + cell.states;  // X, the states, then W, R, B
  if (io.in.size() != w_in + 3 || io.out.size() != cell.states)
    fail(ErrorKind::InvalidModel, g.where(l),
         l.type + " takes X, " + std::to_string(cell.states) + " state(s), W, R and B");
  const int64_t hidden = int_data(g, l, "hidden_size", 0);
  if (hidden <= 0) fail(ErrorKind::InvalidModel, g.where(l), "no hidden_size");
  if (const std::string* a = l.attr("activations"); a && *a != cell.activations)
    fail(ErrorKind::Unsupported, g.where(l), "activations \"" + *a + "\"");
  const Tensor& w = constant_input(g, io, w_in, "W");
  const Tensor& r = constant_input(g, io, w_in + 1, "R");
  const Tensor& b = constant_input(g, io, w_in + 2, "B");
  const int64_t rows = cell.gates * hidden;
  const bool lbr = flag(l, "linear_before_reset", false);
  const int64_t b_rows = lbr ? rows + hidden : rows;  // GRU: + the reset gate's recurrent bias
  if (w.shape().size() != 2 || w.shape()[0] != rows || r.shape().size() != 2 ||
      r.shape()[0] != rows || r.shape()[1] != hidden || b.numel() != b_rows)
    fail(ErrorKind::InvalidModel, g.where(l),
         "W, R or B do not hold " + std::to_string(cell.gates) + " gates of hidden_size " +
             std::to_string(hidden));

  const std::string& name = l.name;
  Tensor onnx_w(w.type(), Dims{1, rows, w.shape()[1]}), onnx_r(r.type(), Dims{1, rows, hidden});
  copy_blocks(w, cell.gates, cell.order, &onnx_w, 0);
  copy_blocks(r, cell.gates, cell.order, &onnx_r, 0);
  // ONNX's bias: the input part (OpenVINO's, reordered), then the recurrent part (zeros,
  // but for linear_before_reset GRU's last gate, which OpenVINO keeps apart).
  Tensor onnx_b = Tensor::zeros(b.type(), Dims{1, 2 * rows});
  const size_t gate_bytes = b.nbytes() / static_cast<size_t>(b_rows / hidden);
  for (size_t k = 0; k < cell.order.size(); ++k)
    std::memcpy(static_cast<char*>(onnx_b.raw()) + k * gate_bytes,
                static_cast<const char*>(b.raw()) + cell.order[k] * gate_bytes, gate_bytes);
  if (lbr)
    std::memcpy(static_cast<char*>(onnx_b.raw()) + (2 * cell.gates - 1) * gate_bytes,
                static_cast<const char*>(b.raw()) + cell.gates * gate_bytes, gate_bytes);

  auto leading = [&](ir::Edge* e, const std::string& suffix) {
    return g.node("Unsqueeze", {e, g.constant(i64_tensor({0}), name + suffix + "_axis")},
                  name + suffix);
  };
  std::vector<ir::Edge*> ins{leading(io.in[0], "/x"), g.constant(std::move(onnx_w), name + "/W"),
                             g.constant(std::move(onnx_r), name + "/R"),
                             g.constant(std::move(onnx_b), name + "/B"), nullptr};
  for (size_t s = 0; s < cell.states; ++s)
    ins.push_back(leading(io.in[1 + s], "/initial_" + std::to_string(s)));
  std::vector<ir::Edge*> outs{nullptr};  // Y: the one step's H again
  for (size_t s = 0; s < cell.states; ++s)
    outs.push_back(g.graph()->new_edge(g.model().unique_name(name + "/state_" + std::to_string(s)),
                                       ir::Edge::Origin::NodeOutput));
  ir::Node* n = g.node_to(cell.onnx, ins, outs, name + "/" + cell.onnx);
  n->attributes.push_back(int_attr("hidden_size", hidden));
  if (const std::string* clip = l.attr("clip"); clip && float_data(g, l, "clip", 0) != 0)
    n->attributes.push_back(float_attr("clip", static_cast<float>(float_data(g, l, "clip", 0))));
  if (lbr) n->attributes.push_back(int_attr("linear_before_reset", 1));
  for (size_t s = 0; s < cell.states; ++s)
    g.node_to("Squeeze", {outs[1 + s], g.constant(i64_tensor({0}), name + "/state_axis")},
              {io.out[s]}, name + "/out_" + std::to_string(s));
}

}  // namespace bough::openvino
