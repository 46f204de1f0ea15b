// Reads an ONNX file into the core IR, resolving every name lexically and turning outer
// references into explicit captures.
#pragma once

#include <memory>
#include <string>

#include "ir/graph.h"

namespace bough::onnx {

std::unique_ptr<ir::Model> read_model_file(const std::string& path);
// `model_dir` is where external data lives ("" refuses external data); `path` names the
// model in error messages.
std::unique_ptr<ir::Model> read_model_bytes(const std::string& bytes, const std::string& path,
                                            const std::string& model_dir);

}  // namespace bough::onnx
