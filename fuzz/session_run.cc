// Fuzz target: reader, session and one run on inputs made up from the declared types. The
// input is split at the first "\n--inputs--\n": the model before, the inputs' bytes after
// (so a seed corpus of plain model files works as is).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "run_once.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  static const std::string kSeparator = "\n--inputs--\n";
  const size_t split = all.find(kSeparator);
  const std::string model_bytes = all.substr(0, split);
  const std::string input_bytes =
      split == std::string::npos ? std::string() : all.substr(split + kSeparator.size());
  std::shared_ptr<bough::ir::Model> model;
  try {
    model = bough::onnx::read_model_bytes(model_bytes, "fuzz.onnx", "");
  } catch (const bough::Error&) {
    return 0;
  }
  bough::fuzz::run_once(bough::Model(model), input_bytes);
  return 0;
}
