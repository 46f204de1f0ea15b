// The legacy <pre-process> block of an IR net (xml_net.h: PreProcess). OpenVINO's reader
// subtracts the mean from one input right after its Parameter, so every reader of the
// input, a Result included, gets the difference; bough lowers it to a Sub node that all of
// them read.
#pragma once

#include <string>

#include "formats/openvino/lower.h"

namespace bough::openvino {

// The Parameter of `net` the block applies to: the one whose name is reference-layer-name,
// or, without a name, the first of rank 4, else the first Parameter.
const XmlLayer* pre_process_target(const XmlNet& net, const PreProcess& pp,
                                   const std::string& where);

// `input` (the graph input of the target Parameter) less the block's mean: per channel a
// value, or an image of the input's spatial size read from the .bin. The input's shape
// must be static, of rank 2 to 5 (channels second, or first at rank 3).
ir::Edge* subtract_mean(GraphLowering& g, const PreProcess& pp, ir::Edge* input,
                        const std::string& where);

}  // namespace bough::openvino
