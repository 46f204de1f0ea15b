// The test runner's compatibility rules for suites written by older ONNX test generators
// (Debian's libonnx-testdata is onnx 1.12). They belong to `bough test-data` and
// check_test_data only: the engine itself reads no tensor differently.
//
// Up to onnx 1.13 the generator had no bfloat16 in numpy, so it wrote bfloat16 tensors as
// UINT16 protos holding the bfloat16 bits, and did so in two more ways that the rules
// below undo:
//  1. Bits: a uint16 test tensor where the model declares a bfloat16 tensor (input or
//     output) is read as those bits.
//  2. Declared shapes: it typed the inputs of those tests by hand, and CastLike's `like`
//     got the output's shape ([3,4]) for a [1] tensor. In a test with an input read by
//     rule 1, an input whose file contradicts its declared shape has that shape dropped
//     (its element type stays checked). Elsewhere such a file is refused as usual.
//  3. Rounding: it made expected bfloat16 values by truncating float32 (dropping the low 16
//     bits), where Cast rounds to nearest even. An expected tensor read by rule 1 matches
//     an element that equals it or is one bfloat16 step further from zero.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "bough/value.h"
#include "ir/graph.h"

namespace bough {

// Rule 1: whether `v` is a uint16 tensor standing for a tensor declared bfloat16.
bool is_bfloat16_bits(const Value& v, const ir::Type& declared);

// Rule 1: the bits of `v` as a bfloat16 tensor of the same shape.
Value bfloat16_from_bits(const Value& v);

// Rule 2: whether `t`'s shape contradicts the shape `type` declares.
bool contradicts_declared_shape(const Tensor& t, const ir::Type& type);

// Rule 2: a copy of `model` whose graph inputs named in `inputs` have no declared shape.
std::shared_ptr<ir::Model> without_input_shapes(const ir::Model& model,
                                                const std::set<std::string>& inputs);

// Rule 3: "" when every element of `actual` (bfloat16) equals `expected` (bfloat16 read by
// rule 1) or lies one bfloat16 step further from zero; otherwise what differs.
std::string compare_truncated_bfloat16(const Tensor& expected, const Tensor& actual);

}  // namespace bough
