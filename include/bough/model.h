// Loading a model.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace bough {

namespace ir {
struct Model;
}

class Model {
 public:
  // Reads an ONNX file, or an OpenVINO IR when the path ends in .xml; throws bough::Error naming
  // the path (and node) on bad input.
  static Model load(const std::string& path);
  explicit Model(std::shared_ptr<ir::Model> ir) : ir_(std::move(ir)) {}

  const ir::Model& ir() const { return *ir_; }
  std::vector<std::string> input_names() const;
  std::vector<std::string> output_names() const;

 private:
  std::shared_ptr<ir::Model> ir_;
};

}  // namespace bough
