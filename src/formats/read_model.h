// Reading a model file of either format into the core IR, by extension.
#pragma once

#include <memory>
#include <string>

#include "ir/graph.h"

namespace bough {

// .xml is an OpenVINO IR (with its .bin beside it); anything else is ONNX.
std::unique_ptr<ir::Model> read_model_file(const std::string& path);

}  // namespace bough
