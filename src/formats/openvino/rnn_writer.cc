// ONNX's LSTM, GRU and RNN as OpenVINO's LSTMSequence-5, GRUSequence-5 and RNNSequence-5
// (the inverse of rnn_mapping.cc). OpenVINO's sequences are batch-major: X [batch, seq,
// input], states [batch, dirs, H], Y [batch, dirs, seq, H]; ONNX's layout 0 is time-major
// and its layout 1 has Y as [batch, seq, dirs, H], so Transposes go around the layer. The
// inputs OpenVINO requires and ONNX may omit are made: sequence_lengths all seq, zero
// initial states, a zero bias. W, R and B are restacked (rnn_gates.h), so must be
// constants; peepholes, input_forget and activation parameters have no OpenVINO form.
#include <cstdio>

#include "bough/error.h"
#include "formats/openvino/rnn_gates.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

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

}  // namespace

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

}  // namespace bough::openvino
