#include "formats/openvino_test_util.h"

#include <gtest/gtest.h>

#include <fstream>

#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "util/compare.h"

namespace bough::test {

std::string save_ir(const std::string& dir, const std::string& name, const std::string& xml,
                    const std::string& weights) {
  std::string path = dir + "/" + name + ".xml";
  std::ofstream(path, std::ios::binary) << xml;
  if (!weights.empty()) std::ofstream(dir + "/" + name + ".bin", std::ios::binary) << weights;
  return path;
}

NamedValues run_ir(const std::string& xml_path, const NamedValues& inputs) {
  Session ir_session(Model::load(xml_path));
  NamedValues direct = ir_session.run(inputs);
  std::string onnx_bytes = onnx::write_model_bytes(*openvino::read_model_file(xml_path));
  Session onnx_session(Model(
      std::shared_ptr<ir::Model>(onnx::read_model_bytes(onnx_bytes, xml_path + ".onnx", ""))));
  NamedValues via_onnx = onnx_session.run(inputs);
  EXPECT_EQ(direct.size(), via_onnx.size());
  for (size_t i = 0; i < direct.size() && i < via_onnx.size(); ++i) {
    EXPECT_EQ(direct[i].first, via_onnx[i].first);
    EXPECT_EQ(compare_values(direct[i].second, via_onnx[i].second, Tolerance{0, 0}), "")
        << "output " << direct[i].first << " differs after IR -> ONNX";
  }
  return direct;
}

}  // namespace bough::test
