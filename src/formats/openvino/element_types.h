// OpenVINO element type names (`element_type="f32"`) and port precisions
// (`precision="FP32"`) in terms of bough's element types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bough/element_type.h"

namespace bough::openvino {

// The ElemType for an OpenVINO name in either spelling, or nullopt for a name bough does
// not know or has no counterpart for (u3, u6, nf4, dynamic). u1 (precision BIN) has no
// one-bit counterpart: its values are read as uint8 (see unpack_ov_bits).
std::optional<ElemType> elem_from_ov(std::string_view name);
// True for the names of OpenVINO's unknown element type ("dynamic", "undefined", and the
// port precision "UNSPECIFIED"): a value whose type the reader leaves to inference.
bool is_dynamic_elem(std::string_view name);
// Bits per element of the OpenVINO type `name` as its constants store them (1 for u1, 2 for
// u2, 4 for u4/i4/f4e2m1), or 0 when elem_from_ov's element size applies.
int ov_sub_byte_bits(std::string_view name);
// OpenVINO packs u1 and u2 with element 0 in the most significant bits of a byte (its
// element iterator starts at shift 8 - bits); its 4-bit types, like ONNX's, start at the
// least significant ones. `packed` holds `count` values of `bits` (1 or 2) bits as OpenVINO
// lays them out; the result is bough's form: one byte per u1 value (uint8), ONNX's packing
// for u2.
std::string unpack_ov_bits(std::string_view packed, int64_t count, int bits);
// The inverse for u2: bough's (ONNX) packing to OpenVINO's.
std::string pack_ov_u2(std::string_view onnx_packed, int64_t count);
// The inverse for u1: `values` one per byte, each 0 or 1, to OpenVINO's packing (element 0
// in the most significant bit).
std::string pack_ov_u1(std::string_view values);
// The element_type spelling of `t` ("f32", "boolean"); empty when OpenVINO has none.
std::string_view ov_elem_name(ElemType t);

}  // namespace bough::openvino
