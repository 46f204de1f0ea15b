// How OpenVINO's and ONNX's recurrent operators (LSTM, GRU, RNN: cells and sequences) stack
// their gates and biases, shared by the reader and the writer. LSTM gates are f, i, c, o in
// OpenVINO (LSTMCell-4, LSTMSequence-5 specifications) and i, o, f, c in ONNX; GRU (z, r,
// h) and RNN agree. OpenVINO keeps one bias per gate (the input and recurrent biases summed,
// but for linear_before_reset GRU's h gate, whose recurrent bias follows apart); ONNX keeps
// the input biases, then the recurrent ones.
#pragma once

#include <string>
#include <vector>

#include "bough/tensor.h"

namespace bough::openvino {

struct RnnKind {
  const char* onnx;         // "LSTM", "GRU", "RNN"
  const char* ov_cell;      // "LSTMCell", ...
  const char* ov_sequence;  // "LSTMSequence", ...
  int gates;
  std::vector<int> order;   // ONNX gate k is OpenVINO gate order[k]
  size_t states;            // H (and C for LSTM)
  const char* activations;  // OpenVINO's default list
};

// The kind of an OpenVINO cell or sequence type, or of an ONNX operator; nullptr if none.
const RnnKind* rnn_kind_of(const std::string& type);

// `t` of shape [dirs, gates * H, ...] (or [gates * H, ...] for one direction) with each
// direction's gate blocks permuted: block k of the result is block from[k] of `t`. The
// result has the shape `shape` (same size).
Tensor permute_gates(const Tensor& t, int64_t dirs, int gates, const std::vector<int>& from,
                     const Dims& shape);
// The inverse permutation of `order`.
std::vector<int> inverse(const std::vector<int>& order);

// OpenVINO's B ([dirs, gates * H], + H with linear_before_reset) as ONNX's [dirs, 2 * gates * H].
Tensor onnx_bias(const Tensor& b, const RnnKind& kind, int64_t dirs, bool linear_before_reset);
// ONNX's B as OpenVINO's (the two halves added; float and double only, and B must hold
// dirs * 2 * gates * hidden values, else an error at `where`).
Tensor openvino_bias(const Tensor& b, const RnnKind& kind, int64_t dirs, int64_t hidden,
                     bool linear_before_reset, const std::string& where);

}  // namespace bough::openvino
