#include "formats/openvino_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "formats/npy/npy.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "util/compare.h"

namespace bough::test {

namespace fs = std::filesystem;

std::string save_ir(const std::string& dir, const std::string& name, const std::string& xml,
                    const std::string& weights) {
  std::string path = dir + "/" + name + ".xml";
  std::ofstream(path, std::ios::binary) << xml;
  if (!weights.empty()) std::ofstream(dir + "/" + name + ".bin", std::ios::binary) << weights;
  return path;
}

namespace {

void expect_same(const NamedValues& want, const NamedValues& got, const std::string& trip) {
  EXPECT_EQ(want.size(), got.size()) << trip;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    EXPECT_EQ(want[i].first, got[i].first) << trip;
    EXPECT_EQ(compare_values(want[i].second, got[i].second, Tolerance{0, 0}), "")
        << "output " << want[i].first << " differs after " << trip;
  }
}

}  // namespace

NamedValues run_ir(const std::string& xml_path, const NamedValues& inputs) {
  // The inputs stay beside the model, for bench/ort-check-openvino.
  fs::path feeds = fs::path(xml_path).replace_extension(".inputs");
  fs::create_directories(feeds);
  for (const auto& [name, value] : inputs)
    npy::write_npy(value.tensor(), (feeds / (name + ".npy")).string());

  Session ir_session(Model::load(xml_path));
  NamedValues direct = ir_session.run(inputs);
  std::string onnx_bytes = onnx::write_model_bytes(*openvino::read_model_file(xml_path));
  std::shared_ptr<ir::Model> via_onnx(onnx::read_model_bytes(onnx_bytes, xml_path + ".onnx", ""));
  expect_same(direct, Session(Model(via_onnx)).run(inputs), "IR -> ONNX");
  openvino::IrFiles again = openvino::write_ir(*via_onnx);
  std::shared_ptr<ir::Model> via_ir(
      openvino::read_model_text(again.xml, &again.bin, xml_path + ".onnx.xml"));
  expect_same(direct, Session(Model(via_ir)).run(inputs), "IR -> ONNX -> IR");
  return direct;
}

}  // namespace bough::test
