// What the convolution families (conv_pool.cc, conv_backprop.cc) share: grouped filters
// between OpenVINO's layout and ONNX's, the dims of a filter, and a bias written as an Add.
//
// OpenVINO's grouped filters lead with the group axis: GroupConvolution's [G, C_OUT/G, C_IN/G,
// k...] and GroupConvolutionBackpropData's [G, C_IN/G, C_OUT/G, k...]. ONNX's Conv and
// ConvTranspose (with `group`) hold the same bytes with the first two axes merged:
// [C_OUT, C_IN/G, k...] and [C_IN, C_OUT/G, k...].
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "formats/openvino/lower.h"
#include "formats/openvino/net_writer.h"

namespace bough::openvino {

// The dims of port `p` of layer `l`, all of which must be known (`what` names the use).
std::vector<int64_t> static_dims(GraphLowering& g, const XmlLayer& l, const XmlPort& p,
                                 const char* what);
// The dims of `e` when all are known (from its data or its type).
std::optional<std::vector<int64_t>> known_dims(const ir::Edge* e);

// The grouped filter at input 1 of `io` in ONNX's layout; sets `groups` to its first dim. A
// constant filter is stored in ONNX's shape, any other reshaped at run time (its dims must
// then be known from its port).
ir::Edge* onnx_group_filter(GraphLowering& g, const LayerIO& io, int64_t* groups);
// ONNX's grouped weights (input 1 of `n`) in OpenVINO's layout: dim 0 split into
// [groups, dim0 / groups]. Their dims must be known.
PortRef ov_group_filter(NetWriter& w, const ir::Node& n, int64_t groups);

// `n`'s output as `conv` plus its bias (input 2, [C]) reshaped to [1, C, 1...] for `r`
// spatial axes.
void add_conv_bias(NetWriter& w, const ir::Node& n, PortRef conv, size_t r);

}  // namespace bough::openvino
