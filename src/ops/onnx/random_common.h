// What the random operators share: their `seed` and `dtype` attributes, and the kernel and
// type rule of RandomNormal, RandomUniform, RandomNormalLike and RandomUniformLike (a float
// tensor of draws shaped by the `shape` attribute or like the input).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "ops/registry.h"

namespace bough::ops {

// The stream seed a `seed` attribute (a float) gives, from its bits; none when absent, and
// then every run draws new values.
std::optional<uint64_t> random_seed(const NodeView& ctx);

// The `dtype` attribute as an element type (invalid model when it names none); `fallback`
// when absent.
ElemType random_dtype(const NodeView& ctx, ElemType fallback);

enum class Distribution { Normal, Uniform };

// The definition of RandomNormal / RandomUniform (`like` false: shape and dtype from the
// attributes, dtype float by default) or of their -Like forms (shape from the input, dtype
// from the attribute or else the input's), given its schema rows; nondeterministic.
OpDef random_fill_def(std::string_view name, Distribution distribution, bool like,
                      std::span<const SignatureText> rows);

}  // namespace bough::ops
