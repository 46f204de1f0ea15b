// An operator's definition from its schema rows: its versions are the rows' sinces and its
// input and output counts what the rows' formals allow, so that an operator file gives its
// name, its kernel, its inference and its rows, and nothing to keep in agreement with them.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ops/registry.h"
#include "ops/schema.h"

namespace bough::ops {

// How many inputs and outputs an operator takes: the union over its schema rows of what
// each row's formals allow, as ONNX's OpSchema counts them (`?` optional, `*` and `**` one
// or more); kVariadic for no limit. Rows without any are not allowed (throws
// std::invalid_argument).
struct ValueCounts {
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  bool operator==(const ValueCounts&) const = default;
};
ValueCounts counts_from_rows(std::span<const SignatureText> rows);

// What an operator's rows cannot say.
struct OpOptions {
  // It draws random numbers (OpDef::nondeterministic).
  bool nondeterministic = false;
  // Counts that say more than the rows: a variadic formal that may be empty (ONNX's
  // min_arity 0), or inputs that come in groups. Rare: tests/ops/opdef_rows_test.cc lists
  // the operators that give them.
  std::optional<ValueCounts> counts;
};

// The OpDef of operator `name` of `domain` ("" for ai.onnx): a version per row (its
// `since`; rows ascending, kept as OpDef::signatures) and the counts the rows imply, unless
// `options` gives them. An operator file names its rows kRows, beside its kernel.
OpDef def_from_rows(std::string_view domain, std::string_view name, KernelFactory make,
                    InferFn infer, std::span<const SignatureText> rows, OpOptions options = {});

}  // namespace bough::ops
