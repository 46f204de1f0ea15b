// What the GreedySearch and BeamSearch tests share: int32 tensors in and out, and saving a
// model that imports com.microsoft.
#pragma once

#include <string>
#include <vector>

#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {

inline Tensor i32(Dims64 dims, std::vector<int32_t> values) {
  Tensor t(ElemType::Int32, Dims(dims));
  std::copy(values.begin(), values.end(), t.data<int32_t>());
  return t;
}

inline std::vector<int32_t> ints_of(const Tensor& t) {
  return {t.data<int32_t>(), t.data<int32_t>() + t.numel()};
}

// Saves `g` as m.onnx in the scratch folder `dir`, importing opset 17 and com.microsoft 1.
inline std::string save_ms_model(const GraphBuilder& g, const std::string& dir) {
  onnxpb::ModelProto m = make_model(g, 17, 8);
  auto* import = m.add_opset_import();
  import->set_domain("com.microsoft");
  import->set_version(1);
  return save_model(m, scratch_dir(dir), "m.onnx");
}

}  // namespace bough::test
