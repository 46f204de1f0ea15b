// An OpDef built from its schema rows, for the families of operators that share rows.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "ops/registry.h"
#include "ops/schema.h"

namespace bough::ops {

// An operator of ai.onnx with `inputs` inputs, one output and a version per row (a row's
// `since`).
inline OpDef def_from_rows(std::string_view name, int inputs, KernelFactory make, InferFn infer,
                           std::span<const SignatureText> rows) {
  OpDef def{"", name, {},   inputs, inputs,
            1,  1,    make, infer,  std::vector<SignatureText>(rows.begin(), rows.end())};
  for (const SignatureText& row : rows) def.versions.push_back(row.since);
  return def;
}

}  // namespace bough::ops
