// OpenVINO opset operators in terms of ONNX-domain operators.
#pragma once

#include <string>
#include <vector>

#include "formats/openvino/lower.h"

namespace bough::openvino {

// True when `type` (other than Parameter, Const and Result) has a mapping.
bool is_mapped(const std::string& type);
// Emits the nodes for one layer; throws bough::Error for attributes bough cannot express.
void map_layer(GraphLowering& g, const LayerIO& io);

// In broadcasting.cc: the inputs of an elementwise layer with its auto_broadcast made
// ONNX's (numpy) rule; and the Broadcast layer.
std::vector<ir::Edge*> broadcast_operands(GraphLowering& g, const LayerIO& io);
void map_broadcast(GraphLowering& g, const LayerIO& io);

// In conv_pool_mapping.cc: Convolution, GroupConvolution, MaxPool-1/-8 and AvgPool-1.
void map_convolution(GraphLowering& g, const LayerIO& io);
void map_pool(GraphLowering& g, const LayerIO& io);

// In rnn_mapping.cc: LSTMCell, GRUCell, RNNCell and their Sequence-5 forms.
void map_rnn(GraphLowering& g, const LayerIO& io);

// In strided_slice.cc.
void map_strided_slice(GraphLowering& g, const LayerIO& io);

// Control flow, in port_maps.cc: bodies lowered with their port maps turned into captures,
// loop-carried values and scan outputs.
void lower_if(GraphLowering& g, const LayerIO& io);
void lower_loop(GraphLowering& g, const LayerIO& io);
// In tensor_iterator.cc: TensorIterator as an ONNX Scan.
void lower_tensor_iterator(GraphLowering& g, const LayerIO& io);

}  // namespace bough::openvino
