// How a written Loop or Scan body reads the outer values it captures. ONNX allows reading
// them by name, but consumers differ in how well they handle that inside such bodies, so by
// default (seed 003) they are passed in as loop-carried values (Scan states) that the body
// returns unchanged.
#pragma once

#include "ir/graph.h"

namespace bough::onnx {

enum class LoopCaptures { Carried, Implicit };

// Turns every capture of every Loop body (at any depth) into a loop-carried value: a body
// input after the other carried inputs, returned as is, fed by the outer value; the Loop
// gets one more input and one more (unused) output. Nested subgraphs that read the capture
// read the new body input instead. Scan bodies (opset 9 on) get theirs the same way, as
// Scan states after the others.
void carry_loop_captures(ir::Model& model);

}  // namespace bough::onnx
