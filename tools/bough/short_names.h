// Long value names (exporters write `/model/layers.0/self_attn/q_proj/MatMul_output_0`) made
// readable in `bough info`: each `%NAME` over kLongName characters becomes a short alias
// `%~N`, numbered in order of first appearance, explained by a legend.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::cli {

inline constexpr size_t kLongName = 40;

// `text` (printed from `model`) with the long value names replaced, followed by the legend
// ("names\n  %~1 = FULL\n..."); `text` unchanged when no name is long.
std::string shorten_names(const std::string& text, const ir::Model& model);

}  // namespace bough::cli
