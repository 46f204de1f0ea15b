// Fuzz target: ImageDecoder's decoders (kernels/image) on arbitrary bytes, the format told
// by their first bytes as the operator tells it. Only bough::Error may come out.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bough/error.h"
#include "kernels/image/decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    bough::kernels::image::decode(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const bough::Error&) {
  }
  return 0;
}
