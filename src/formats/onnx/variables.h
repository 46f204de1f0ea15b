// The ONNX form of a stateful model. ONNX has no state, so the ONNX writer turns OpenVINO's
// variables (the org.openvinotoolkit ReadValue and Assign that the OpenVINO reader makes)
// into what OpenVINO's StatefulToStateless transformation makes of them
// (src/common/transformations/src/transformations/op_conversions/stateful_to_stateless.cpp),
// the inverse of its MakeStateful:
// - a variable that an Assign writes becomes a graph input "input_restored.<variable_id>"
//   (the state the caller passes in, read where the ReadValue's output was) and a graph
//   output "output_restored.<variable_id>" (the new state, what the Assign wrote). Without
//   init_value, the input's default value is the zeros of the first run; an init_value is
//   the caller's to pass, and the nodes that only computed it go.
// - a variable that no Assign writes never changes, so its ReadValue is its initial value:
//   an Identity of init_value, or a constant of zeros.
#pragma once

#include <memory>

#include "ir/graph.h"

namespace bough::onnx {

// The stateless form of `model`, or null when its main graph has no ReadValue.
std::unique_ptr<ir::Model> stateless_form(const ir::Model& model);

}  // namespace bough::onnx
