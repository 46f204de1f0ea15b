// Reads an OpenVINO IR (v10/v11 .xml with its .bin) into the core IR, mapping OpenVINO
// operators to ONNX-domain ones and port-mapped bodies to closed subgraphs with captures.
#pragma once

#include <memory>
#include <string>

#include "ir/graph.h"

namespace bough::openvino {

// Bodies (If, Loop) nested deeper than this are refused: OpenVINO's own reader loads Ifs
// nested 64 deep and refuses deeper ones.
inline constexpr int kMaxNesting = 64;

std::unique_ptr<ir::Model> read_model_file(const std::string& xml_path);
// `weights` is the .bin's content, or nullptr when there is none; `path` names the model
// in error messages.
std::unique_ptr<ir::Model> read_model_text(const std::string& xml, const std::string* weights,
                                           const std::string& path);

}  // namespace bough::openvino
