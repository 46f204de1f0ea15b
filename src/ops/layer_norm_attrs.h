// The attributes LayerNormalization and ONNX Runtime's SimplifiedLayerNormalization share.
#pragma once

#include <cstdint>

#include "ops/float_type_attr.h"
#include "ops/node_view.h"

namespace bough::ops {

// The first normalized axis (default -1), epsilon (default 1e-5) and stash_type, the float
// type the statistics outputs are given in (default float; another type is invalid).
struct LayerNormAttrs {
  int64_t axis;
  double epsilon;
  ElemType stash;

  static LayerNormAttrs read(const NodeView& node) {
    return {node.attr_int("axis", -1), node.attr_float("epsilon", 1e-5f),
            float_type_attr(node, "stash_type")};
  }
};

}  // namespace bough::ops
