// bough::Model: loading a model file into the core IR.
#include "bough/model.h"

#include <filesystem>

#include "formats/onnx/reader.h"
#include "formats/openvino/reader.h"
#include "formats/read_model.h"
#include "ir/graph.h"

namespace bough {

std::unique_ptr<ir::Model> read_model_file(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".xml") return openvino::read_model_file(path);
  return onnx::read_model_file(path);
}

Model Model::load(const std::string& path) {
  return Model(std::shared_ptr<ir::Model>(read_model_file(path)));
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
