// What the op mappings share: reading a layer's <data> attributes and constant inputs, and
// checking its arity.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/openvino/lower.h"

namespace bough::openvino {

bool flag(const XmlLayer& l, const char* key, bool fallback);
// An enum attribute's value in lower case (OpenVINO reads enum values in any letter case:
// "SAME_LOWER" is "same_lower"); `fallback` when the layer has none.
std::string enum_data(const XmlLayer& l, const char* key, const std::string& fallback);
// The values of input `input`, which must be a numeric constant, as doubles.
std::vector<double> const_floats(GraphLowering& g, const LayerIO& io, size_t input,
                                 const char* what);
int64_t int_data(GraphLowering& g, const XmlLayer& l, const char* key, int64_t fallback);
double float_data(GraphLowering& g, const XmlLayer& l, const char* key, double fallback);
// "1,0,1" as a list of integers ("" is empty).
std::vector<int64_t> int_list(GraphLowering& g, const XmlLayer& l, const char* key);
// "0.1,0.2" as a list of floats ("" is empty).
std::vector<float> float_list(GraphLowering& g, const XmlLayer& l, const char* key);
// The values of input `input`, which must be an int32/int64 constant.
std::vector<int64_t> const_ints(GraphLowering& g, const LayerIO& io, size_t input,
                                const char* what);
// The axis a layer takes as input `input`: one value, an int32/int64 constant.
int64_t const_axis(GraphLowering& g, const LayerIO& io, size_t input);
// `v` as a scalar of type `t` (float, double, float16, bfloat16 or an integer; v must fit
// an integer type); nullopt for other types.
std::optional<Tensor> scalar_of(ElemType t, double v);
Tensor i64_tensor(const std::vector<int64_t>& v);
// lo..hi inputs and one output.
void check_inputs(GraphLowering& g, const LayerIO& io, size_t lo, size_t hi);

}  // namespace bough::openvino
