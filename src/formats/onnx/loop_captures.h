// How a written Loop body reads the outer values it captures. ONNX allows reading them by
// name, but consumers differ in how well they handle that inside Loop bodies, so by
// default they are passed in as loop-carried values that the body returns unchanged.
#pragma once

#include "ir/graph.h"

namespace bough::onnx {

enum class LoopCaptures { Carried, Implicit };

// Turns every capture of every Loop body (at any depth) into a loop-carried value: a body
// input after the other carried inputs, returned as is, fed by the outer value; the Loop
// gets one more input and one more (unused) output. Nested subgraphs that read the capture
// read the new body input instead.
void carry_loop_captures(ir::Model& model);

}  // namespace bough::onnx
