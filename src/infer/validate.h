// The whole check of a model: its structure (check/), then the types of every value
// (inference), with every problem found reported. Sessions and `bough check` run this.
#pragma once

#include "check/check.h"
#include "infer/infer.h"

namespace bough::infer {

struct ValidateOptions {
  check::CheckOptions check;
  InferOptions infer;
};

struct Validation {
  check::Diagnostics diagnostics;
  Inferred types;
};

// Inference runs only on a model whose structure is sound: the types of a malformed graph
// would only repeat its structural errors.
Validation validate(const ir::Model& model, const ValidateOptions& options = {});

}  // namespace bough::infer
