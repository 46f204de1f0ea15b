// What the ONNX-to-OpenVINO node writers share: a node's layer name, output and input
// sources, and its attributes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/openvino/net_writer.h"

namespace bough::openvino {

// The node's name, or its first output's when it has none.
std::string layer_name(const ir::Node& n);
const ir::Edge* out0(NetWriter& w, const ir::Node& n);
// Every input's source; an omitted optional input is refused.
std::vector<PortRef> sources(NetWriter& w, const ir::Node& n);
int64_t int_attr_or(const ir::Node& n, const char* name, int64_t fallback);
std::vector<int64_t> ints_attr_or(const ir::Node& n, const char* name,
                                  std::vector<int64_t> fallback);
// Axes given as input `k` (newer opsets) or as the attribute `name` (older ones); nullopt
// when neither is there.
std::optional<PortRef> axes_of(NetWriter& w, const ir::Node& n, size_t k, const char* name);
// "1,2,3", as OpenVINO writes lists in <data>.
std::string list_text(const std::vector<int64_t>& v);

}  // namespace bough::openvino
