// OpenVINO element type names (`element_type="f32"`) and port precisions
// (`precision="FP32"`) in terms of bough's element types.
#pragma once

#include <optional>
#include <string_view>

#include "bough/element_type.h"

namespace bough::openvino {

// The ElemType for an OpenVINO name in either spelling, or nullopt for a name bough does
// not know or has no counterpart for (u1, u3, u6, nf4, dynamic).
std::optional<ElemType> elem_from_ov(std::string_view name);
// The element_type spelling of `t` ("f32", "boolean"); empty when OpenVINO has none.
std::string_view ov_elem_name(ElemType t);

}  // namespace bough::openvino
