// OpenVINO opset operators in terms of ONNX-domain operators.
#pragma once

#include <string>
#include <vector>

#include "formats/openvino/lower.h"

namespace bough::openvino {

// Each operator's mapping is a row of its family (op_table.h); these go through the table.
// True when `type` (other than Parameter, Const and Result) has a mapping.
bool is_mapped(const std::string& type);
// Emits the nodes for one layer; throws bough::Error for attributes bough cannot express.
void map_layer(GraphLowering& g, const LayerIO& io);

// In ops/broadcast.cc: the inputs of an elementwise layer with its auto_broadcast made
// ONNX's (numpy) rule.
std::vector<ir::Edge*> broadcast_operands(GraphLowering& g, const LayerIO& io);

// In strided_slice.cc.
void map_strided_slice(GraphLowering& g, const LayerIO& io);

// Control flow, in port_maps.cc: bodies lowered with their port maps turned into captures,
// loop-carried values and scan outputs.
void lower_if(GraphLowering& g, const LayerIO& io);
void lower_loop(GraphLowering& g, const LayerIO& io);
// In tensor_iterator.cc: TensorIterator as an ONNX Scan.
void lower_tensor_iterator(GraphLowering& g, const LayerIO& io);

}  // namespace bough::openvino
