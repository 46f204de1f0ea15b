// The Conv kernel and shape function, shared with com.microsoft FusedConv
// (ops/microsoft/fused_conv.cc), which is the same convolution with an activation.
#pragma once

#include <memory>

#include "kernels/conv_epilogue.h"
#include "ops/registry.h"

namespace bough::ops {

// A Conv kernel for the node of `ctx` (Conv's attributes and inputs) that applies
// `activation` to every output (after the bias), in the tiles' epilogue where it can.
std::unique_ptr<Kernel> make_conv(const BuildContext& ctx, const kernels::ConvEpilogue& activation);

// Conv's output type and shape.
void infer_conv(InferContext& ctx);

}  // namespace bough::ops
