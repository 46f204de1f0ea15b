// Writes the core IR as an OpenVINO IR v11: an .xml and its .bin. ONNX-domain operators
// map back to OpenVINO opset operators; each capture of a subgraph becomes a body
// Parameter bound by a port-map entry to a new input of the If or Loop.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::openvino {

struct IrFiles {
  std::string xml;
  std::string bin;  // identical constants are stored once
};

// True when the writer has an OpenVINO form for the ONNX-domain operator `op_type` (some
// attributes or opset versions may still be refused).
bool has_ir_form(const std::string& op_type);
// Throws bough::Error(Unsupported) naming the node for what has no OpenVINO counterpart.
IrFiles write_ir(const ir::Model& model);
// Writes XML_PATH and the .bin beside it, each through a temporary file and a rename, so a
// failure leaves old files intact.
void write_model_files(const ir::Model& model, const std::string& xml_path, bool overwrite = true);

}  // namespace bough::openvino
