// Helpers for the OpenVINO IR tests: save a hand-written XML (and its weights) as a model,
// and run it both as read and after a trip through ONNX, which must agree.
#pragma once

#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"

namespace bough::test {

// Writes DIR/NAME.xml (and DIR/NAME.bin when `weights` is not empty); returns the .xml path.
std::string save_ir(const std::string& dir, const std::string& name, const std::string& xml,
                    const std::string& weights = "");
// Runs the IR at `xml_path`; also writes it as ONNX and that as IR again, runs both, and
// fails the test when a run differs from the first, or when the ONNX breaks a rule ONNX
// Runtime enforces (unique node names; no subgraph output that is an outer value or repeats
// another). Returns the IR run's outputs. With
// $BOUGH_KEEP_IR set, the model and its inputs are also copied there for
// bench/ort-check-openvino.
NamedValues run_ir(const std::string& xml_path, const NamedValues& inputs);
// Loads the IR `xml` (with `weights` as its .bin when not empty), saved in the fresh scratch
// folder `dir`, and returns the error it raises, which must name the file; fails the test
// when it loads.
Error ir_load_error(const std::string& dir, const std::string& xml,
                    const std::string& weights = "");
// `s` with the first `from` replaced by `to`; fails the test when `from` is not in `s`.
std::string replaced(std::string s, const std::string& from, const std::string& to);

// Pieces of IR XML for hand-written fixtures. `dims` as <dim>s; a Parameter of element type
// `type` ("f32", "i64", "boolean"); a Const of `type` read from `offset` in the .bin; a
// Result. Each layer has one port, id 0.
std::string ov_dims(const std::vector<int64_t>& dims);
std::string ov_parameter(int id, const std::string& name, const std::vector<int64_t>& dims,
                         const std::string& type = "f32");
std::string ov_const(int id, const std::string& name, const std::vector<int64_t>& dims,
                     const std::string& type, size_t offset);
std::string ov_result(int id, const std::string& name, const std::vector<int64_t>& dims);
// One input of a one-layer net: a Parameter or Const layer whose id is its position, and its
// dims.
struct OvSource {
  std::string layer;
  std::vector<int64_t> dims;
};
// An IR v11 net around one layer "op" (id k, `type` of opset `version`, <data `data`/>) that
// reads the k `sources` on its input ports in order; its output [out_dims] (f32, named
// `out_name`) goes to a Result.
std::string ov_one_layer_net(const std::vector<OvSource>& sources, const std::string& type,
                             const std::string& version, const std::string& data,
                             const std::vector<int64_t>& out_dims, const std::string& out_name);
// The same with several outputs, each read by its own Result.
struct OvOutput {
  std::vector<int64_t> dims;
  std::string name;
};
std::string ov_one_layer_net(const std::vector<OvSource>& sources, const std::string& type,
                             const std::string& version, const std::string& data,
                             const std::vector<OvOutput>& outputs);

// What OpenVINO's own IR reader (src/frontends/ir/src/ir_deserializer.cpp) requires of an
// IR, from a table of the attributes it reads without a default: every violation in `xml`,
// one line each (empty when OpenVINO's reader would accept the structure).
std::vector<std::string> ov_reader_violations(const std::string& xml);
// Fails the test with the violations of an IR bough wrote.
void expect_ov_reader_accepts(const std::string& xml, const std::string& what);

// The bytes of `values` as they lie in memory (for .bin contents).
template <typename T>
std::string bytes_of(std::initializer_list<T> values) {
  std::string s;
  for (T v : values) s.append(reinterpret_cast<const char*>(&v), sizeof(T));
  return s;
}

}  // namespace bough::test
