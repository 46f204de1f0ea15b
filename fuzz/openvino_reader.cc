// Fuzz target: the OpenVINO IR reader. The input is split at the first NUL byte: the XML
// before it, the weights (.bin) after.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bough/error.h"
#include "formats/openvino/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const size_t split = all.find('\0');
  const std::string xml = all.substr(0, split);
  const std::string weights = split == std::string::npos ? std::string() : all.substr(split + 1);
  try {
    bough::openvino::read_model_text(xml, &weights, "fuzz.xml");
  } catch (const bough::Error&) {
  }
  return 0;
}
