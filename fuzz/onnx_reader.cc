// Fuzz target: the ONNX reader on arbitrary bytes (external data not allowed). Only
// bough::Error may come out.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bough/error.h"
#include "formats/onnx/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    bough::onnx::read_model_bytes(bytes, "fuzz.onnx", "");
  } catch (const bough::Error&) {
  }
  return 0;
}
