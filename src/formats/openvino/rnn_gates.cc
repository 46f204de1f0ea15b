#include "formats/openvino/rnn_gates.h"

#include <cstring>

#include "bough/error.h"

namespace bough::openvino {

const RnnKind* rnn_kind_of(const std::string& type) {
  static const RnnKind lstm{"LSTM",       "LSTMCell", "LSTMSequence",     4,
                            {1, 3, 0, 2}, 2,          "sigmoid,tanh,tanh"};
  static const RnnKind gru{"GRU", "GRUCell", "GRUSequence", 3, {0, 1, 2}, 1, "sigmoid,tanh"};
  static const RnnKind rnn{"RNN", "RNNCell", "RNNSequence", 1, {0}, 1, "tanh"};
  for (const RnnKind* k : {&lstm, &gru, &rnn})
    if (type == k->onnx || type == k->ov_cell || type == k->ov_sequence) return k;
  return nullptr;
}

std::vector<int> inverse(const std::vector<int>& order) {
  std::vector<int> inv(order.size());
  for (size_t k = 0; k < order.size(); ++k)
    inv[static_cast<size_t>(order[k])] = static_cast<int>(k);
  return inv;
}

Tensor permute_gates(const Tensor& t, int64_t dirs, int gates, const std::vector<int>& from,
                     const Dims& shape) {
  Tensor out(t.type(), shape);
  const size_t per_dir = t.nbytes() / static_cast<size_t>(dirs);
  const size_t block = per_dir / static_cast<size_t>(gates);
  const auto* src = static_cast<const char*>(t.raw());
  auto* dst = static_cast<char*>(out.raw());
  for (int64_t d = 0; d < dirs; ++d)
    for (size_t k = 0; k < from.size(); ++k)
      std::memcpy(dst + d * per_dir + k * block, src + d * per_dir + from[k] * block, block);
  return out;
}

Tensor onnx_bias(const Tensor& b, const RnnKind& kind, int64_t dirs, bool linear_before_reset) {
  const int64_t blocks = kind.gates + (linear_before_reset ? 1 : 0);  // per direction in b
  const int64_t hidden = b.numel() / dirs / blocks;
  Tensor out = Tensor::zeros(b.type(), Dims{dirs, 2 * kind.gates * hidden});
  const size_t gate = b.nbytes() / static_cast<size_t>(dirs * blocks);
  const auto* src = static_cast<const char*>(b.raw());
  auto* dst = static_cast<char*>(out.raw());
  for (int64_t d = 0; d < dirs; ++d) {
    const char* from = src + d * blocks * gate;
    char* to = dst + d * 2 * kind.gates * gate;
    for (size_t k = 0; k < kind.order.size(); ++k)
      std::memcpy(to + k * gate, from + kind.order[k] * gate, gate);
    if (linear_before_reset)  // the h gate's recurrent bias: the last block of ONNX's Rb
      std::memcpy(to + (2 * kind.gates - 1) * gate, from + kind.gates * gate, gate);
  }
  return out;
}

namespace {

template <typename T>
void sum_bias(const T* src, T* dst, const RnnKind& kind, int64_t dirs, int64_t hidden, bool lbr) {
  const std::vector<int> from = inverse(kind.order);  // OpenVINO gate j is ONNX gate from[j]
  const int64_t gates = kind.gates, out_gates = gates + (lbr ? 1 : 0);
  for (int64_t d = 0; d < dirs; ++d) {
    const T* wb = src + d * 2 * gates * hidden;
    const T* rb = wb + gates * hidden;
    T* out = dst + d * out_gates * hidden;
    for (int64_t j = 0; j < gates; ++j) {
      const int64_t k = from[static_cast<size_t>(j)];
      const bool apart = lbr && j == gates - 1;  // GRU's h gate keeps its Rb apart
      for (int64_t i = 0; i < hidden; ++i)
        out[j * hidden + i] = wb[k * hidden + i] + (apart ? T(0) : rb[k * hidden + i]);
    }
    if (lbr)
      for (int64_t i = 0; i < hidden; ++i) out[gates * hidden + i] = rb[(gates - 1) * hidden + i];
  }
}

}  // namespace

Tensor openvino_bias(const Tensor& b, const RnnKind& kind, int64_t dirs, int64_t hidden,
                     bool linear_before_reset, const std::string& where) {
  if (b.numel() != dirs * 2 * kind.gates * hidden)
    fail(ErrorKind::InvalidModel, where,
         "B holds " + std::to_string(b.numel()) + " values, not " +
             std::to_string(dirs * 2 * kind.gates * hidden));
  Tensor out(b.type(), Dims{dirs, (kind.gates + (linear_before_reset ? 1 : 0)) * hidden});
  if (b.type() == ElemType::Float)
    sum_bias(b.data<float>(), out.data<float>(), kind, dirs, hidden, linear_before_reset);
  else if (b.type() == ElemType::Double)
    sum_bias(b.data<double>(), out.data<double>(), kind, dirs, hidden, linear_before_reset);
  else
    fail(ErrorKind::Unsupported, where,
         "a recurrent bias of type " + std::string(elem_name(b.type())) +
             " (only float and double biases are summed for OpenVINO)");
  return out;
}

}  // namespace bough::openvino
