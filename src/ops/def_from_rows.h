// An OpDef built from its schema rows, for the families of operators that share rows.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "ops/registry.h"
#include "ops/schema.h"

namespace bough::ops {

// How many inputs and outputs an operator takes: the union over its schema rows of what
// each row's formals allow (`?` optional, `*` and `**` one or more); kVariadic for no limit.
// Rows without any are not allowed (throws std::invalid_argument).
struct ValueCounts {
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  bool operator==(const ValueCounts&) const = default;
};
ValueCounts counts_from_rows(std::span<const SignatureText> rows);

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
