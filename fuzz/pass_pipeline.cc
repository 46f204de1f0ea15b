// Fuzz target: the whole pass pipeline (`optimize --level all`) on an ONNX model from
// arbitrary bytes, under a memory cap. Only bough::Error may come out; the driver's own
// check after the passes ("a bug in bough") failing is a finding; and the tensors the
// optimized model holds must stay within what constant folding may add (64 MiB, or the
// model's initializers) plus the input, well below kMaxHeldBytes. scripts/fuzz also runs
// this target with a lower allocation limit than the others.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bough/error.h"
#include "bough/model_tools.h"
#include "formats/onnx/reader.h"
#include "ir/memory_limit.h"

namespace {
constexpr size_t kMaxHeldBytes = size_t{256} << 20;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<bough::ir::Model> model;
  try {
    model = bough::onnx::read_model_bytes(bytes, "fuzz.onnx", "");
  } catch (const bough::Error&) {
    return 0;
  }
  try {
    bough::OptimizeOptions options;
    options.level = bough::Optimization::all;
    const bough::Model optimized = bough::optimized(bough::Model(model), options);
    if (bough::ir::held_tensor_bytes() > kMaxHeldBytes) __builtin_trap();
  } catch (const bough::Error& e) {
    if (std::string(e.what()).find("a bug in bough") != std::string::npos) __builtin_trap();
  }
  return 0;
}
