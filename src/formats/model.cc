// bough::Model: loading a model file into the core IR.
#include "bough/model.h"

#include <filesystem>
#include <new>
#include <stdexcept>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/read_model.h"
#include "ir/graph.h"
#include "util/files.h"

namespace bough {

std::unique_ptr<ir::Model> read_model_file(const std::string& path) {
  // The readers check sizes against the file before allocating; memory can still run out
  // for a model that is simply too large for this machine, which is no crash either.
  try {
    if (std::filesystem::path(path).extension() == ".xml") return openvino::read_model_file(path);
    return onnx::read_model_file(path);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::Unsupported, path, "out of memory while reading the model");
  } catch (const std::length_error&) {
    throw Error(ErrorKind::Unsupported, path, "out of memory while reading the model");
  }
}

Model Model::load(const std::string& path) {
  return Model(std::shared_ptr<ir::Model>(read_model_file(path)));
}

Model Model::load_bytes(std::string_view bytes, const std::string& name) {
  return Model(std::shared_ptr<ir::Model>(onnx::read_model_bytes(std::string(bytes), name, "")));
}

void Model::save(const std::string& path) const {
  const bool as_ir = std::filesystem::path(path).extension() == ".xml";
  const std::string weights = std::filesystem::path(path).replace_extension(".bin").string();
  if (same_file(ir_->path, path) || (as_ir && same_file(ir_->path, weights)))
    fail(ErrorKind::IO, path, "the model was read from this file; saving never overwrites it");
  if (as_ir)
    openvino::write_model_files(*ir_, path);
  else
    onnx::write_model_file(*ir_, path);
}

const std::string& Model::path() const { return ir_->path; }

std::string Model::to_bytes() const { return onnx::write_model_bytes(*ir_); }

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
