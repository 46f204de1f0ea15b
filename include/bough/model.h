/// @file
/// Loading and saving a model.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bough/error.h"  // what load and save throw
#include "bough/export.h"

namespace bough {

namespace ir {
struct Model;
}

/// A model in bough's core IR, read from ONNX or OpenVINO IR. Copies share the model.
class BOUGH_API Model {
 public:
  /// Reads an ONNX file, or an OpenVINO IR when the path ends in .xml (with its .bin
  /// beside it). Throws bough::Error naming the path (and node) on bad input.
  static Model load(const std::string& path);
  /// Reads an ONNX model from bytes in memory. `name` stands for the model in error
  /// messages; a model with external data is refused (there is no folder to read it from).
  static Model load_bytes(std::string_view bytes, const std::string& name = "<bytes>");
  /// Wraps a model already in the core IR (for bough's own tools and tests).
  explicit Model(std::shared_ptr<ir::Model> ir) : ir_(std::move(ir)) {}

  /// Writes the model as ONNX, or as OpenVINO IR (.xml and .bin) when `path` ends in .xml,
  /// through a temporary file and a rename. Throws bough::Error(IO) rather than write over
  /// the file the model was read from.
  void save(const std::string& path) const;
  /// The model serialized as ONNX.
  std::string to_bytes() const;

  /// The file it was read from, or the name given to load_bytes (errors start with it).
  const std::string& path() const;
  /// The core IR (internal; its header is not installed).
  const ir::Model& ir() const { return *ir_; }
  /// The names of the graph's inputs that the caller gives (not those with a constant).
  std::vector<std::string> input_names() const;
  /// The names of the graph's outputs, in order.
  std::vector<std::string> output_names() const;

 private:
  std::shared_ptr<ir::Model> ir_;
};

}  // namespace bough
