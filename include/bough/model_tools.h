/// @file
/// What the `check`, `infer`, `optimize` and `convert --opset` commands do, as functions of
/// a Model. Each returns a new Model and leaves its argument as it was.
#pragma once

#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/export.h"
#include "bough/model.h"
#include "bough/session.h"  // Optimization

namespace bough {

/// One problem the check found, at its place in the model.
struct Diagnostic {
  bool error = true;  ///< false for a warning: the model still runs
  /// For an error: InvalidModel when the model breaks a rule of the spec, Unsupported when
  /// it is valid but needs what bough lacks (an operator, a newer opset).
  ErrorKind kind = ErrorKind::InvalidModel;
  /// A path such as `main/If "gate"/then_branch/Add "add_1"`; empty for the whole model.
  std::string place;
  std::string message;  ///< what was found and what was expected
};

/// What the check accepts.
struct CheckOptions {
  bool allow_newer_opset = false;  ///< an opset newer than bough knows: a warning, not an error
};

/// Every problem of the model's structure, types and shapes, errors and warnings alike (the
/// model is valid when none is an error); what `bough check` prints.
BOUGH_API std::vector<Diagnostic> check_model(const Model& model, const CheckOptions& options = {});

/// A copy of the model with the inferred type and shape of every value written into it,
/// saved as value_info. Throws Error(InvalidModel or Unsupported) naming the first error
/// when the model is not valid.
BOUGH_API Model with_inferred_types(const Model& model, const CheckOptions& options = {});

/// Which passes `optimize` runs.
struct OptimizeOptions {
  Optimization level = Optimization::basic;  ///< the passes a Session at this level runs
  /// Instead, these passes by name, in order (`bough optimize --list` lists them).
  std::vector<std::string> passes;
  /// First rewrite the Ifs the check refuses but whose meaning is clear (legalize-if).
  bool repair = false;
};

/// A copy of the model, checked, then simplified by the passes. Throws Error when the model
/// is not valid or a pass name is unknown.
BOUGH_API Model optimized(const Model& model, const OptimizeOptions& options = {});

/// A copy of the model importing ai.onnx at `opset`, for saving. Nothing is rewritten: it
/// throws Error(Unsupported), naming every node in the way, unless each node means the same
/// at `opset` and the model checks there.
BOUGH_API Model with_onnx_opset(const Model& model, int opset);

}  // namespace bough
