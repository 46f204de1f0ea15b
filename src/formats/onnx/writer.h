// Writes the core IR as spec-form ONNX: captures become plain name references, so an If
// has one input and its branches have none.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::onnx {

std::string write_model_bytes(const ir::Model& model);
// Crash-safe: writes a temporary file and renames it over `path`.
void write_model_file(const ir::Model& model, const std::string& path, bool overwrite = true);

}  // namespace bough::onnx
