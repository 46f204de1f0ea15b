// The Open Inference Protocol's tensor datatypes ("FP32", "INT64", "BOOL", "BYTES", ...) and
// bough's element types: the protocol's table (KServe predict-api v2, "Tensor Data Types"),
// plus Triton's BF16.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bough/element_type.h"

namespace bough::serve {

// The protocol's name of `type`; for a type the protocol has no name for (float8, int4, ...),
// bough's own name in capitals, which no request can send.
std::string datatype_name(ElemType type);
// The element type a protocol name stands for; nothing for a name outside the protocol.
std::optional<ElemType> parse_datatype(std::string_view name);

}  // namespace bough::serve
