// bough::Model: loading a model file into the core IR.
#include "bough/model.h"

#include <filesystem>

#include "formats/onnx/reader.h"
#include "formats/openvino/reader.h"
#include "ir/graph.h"

namespace bough {

// By extension: .xml is an OpenVINO IR (with its .bin beside it); anything else is ONNX.
Model Model::load(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".xml")
    return Model(std::shared_ptr<ir::Model>(openvino::read_model_file(path)));
  return Model(std::shared_ptr<ir::Model>(onnx::read_model_file(path)));
}

std::vector<std::string> Model::input_names() const {
  std::vector<std::string> names;
  for (const ir::Edge* v : ir_->graph->inputs)
    if (!v->data) names.push_back(v->name);
  return names;
}

std::vector<std::string> Model::output_names() const {
  std::vector<std::string> names;
  for (const ir::Edge* v : ir_->graph->outputs) names.push_back(v->name);
  return names;
}

}  // namespace bough
