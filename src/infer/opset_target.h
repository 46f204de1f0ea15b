// Writing a model at another ai.onnx opset (`bough convert --opset N`). Nothing is
// rewritten: the import changes only when every node means the same at the new opset, so
// that a model which cannot be expressed there is refused, naming its nodes.
#pragma once

#include <cstdint>

#include "ir/graph.h"

namespace bough::infer {

// Sets the ai.onnx import of `model` to `opset`. Each ai.onnx node (in every subgraph) must
// exist at `opset`; where its operator's version there differs from the one in force, no
// version between may have changed its meaning under the same signature (the broadcasting
// of opset 7 and 8, Softmax's axis at 13, GridSample's modes at 20), and the whole model
// must check and infer without error at `opset`. Otherwise throws bough::Error
// (Unsupported) listing every node that stands in the way; `model` is then unchanged.
// The IR version becomes the one ONNX released with `opset` (as exporters write: opset 17,
// IR 8), or a newer one when the model needs it, so that older tools read the file.
void set_onnx_opset(ir::Model& model, int64_t opset);

}  // namespace bough::infer
