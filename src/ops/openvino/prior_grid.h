// What org.openvinotoolkit PriorBox and PriorBoxClustered share, as OpenVINO's ONNX frontend
// reads them (src/frontends/onnx/frontend/src/op/org.openvinotoolkit/prior_box.cpp): two 4-D
// inputs of which only dims 2 and 3 are read (the feature map's [H, W], the image's
// [IH, IW]), and one float output [1, 2, 4 * H * W * priors per cell] whose row 0 holds the
// boxes and row 1 their variances.
#pragma once

#include <cstdint>
#include <vector>

#include "bough/tensor.h"
#include "ops/node_view.h"
#include "ops/schema.h"

namespace bough::ops::openvino {

// A list attribute as floats: `floats`, a single `float`, or empty when absent.
std::vector<float> float_list(const NodeView& ctx, const char* name);
// OpenVINO asserts 0, 1 or 4 variances; none is one of 0.1.
std::vector<float> checked_variance(const NodeView& ctx);

struct PriorGrid {
  int64_t h, w, image_h, image_w;
};
// The grid of the feature map (input 0) and the image (input 1), each of rank 4 or more.
PriorGrid prior_grid(const Tensor& feature_map, const Tensor& image);
// The output [1, 2, 4 * H * W * per_cell] (H * W unknown when the feature map's are).
void infer_priors(InferContext& ctx, int64_t per_cell);
// Row 1 of the output: the variances of `boxes` boxes, one value for all four coordinates or
// one per coordinate.
void write_variances(float* row, int64_t boxes, const std::vector<float>& variance);

}  // namespace bough::ops::openvino
