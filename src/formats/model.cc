// bough::Model: loading a model file into the core IR.
#include "bough/model.h"

#include "formats/onnx/reader.h"
#include "ir/graph.h"

namespace bough {

Model Model::load(const std::string& path) {
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
