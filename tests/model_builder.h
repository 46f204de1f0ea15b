// Builds ONNX models for tests through the real protobuf schema, and saves them as files
// that the tests then load with the real reader.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "bough/tensor.h"
#include "onnx.pb.h"

namespace bough::test {

using Dims64 = std::vector<int64_t>;

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string name = "g") { g_.set_name(std::move(name)); }
  // `dims` empty means a scalar; ranked=false leaves the shape out entirely.
  GraphBuilder& input(const std::string& name, ElemType t, Dims64 dims = {}, bool ranked = true);
  GraphBuilder& output(const std::string& name, ElemType t, Dims64 dims = {}, bool ranked = true);
  GraphBuilder& output_untyped(const std::string& name);
  // Makes dim `dim` of the input at `index` (declared with input()) the symbol `param`.
  GraphBuilder& name_input_dim(int index, int dim, const std::string& param);
  // Declares the type of an intermediate value (a value_info entry).
  GraphBuilder& value_info(const std::string& name, ElemType t, Dims64 dims = {});
  // An input of type seq(tensor(float)).
  GraphBuilder& g_input_sequence(const std::string& name);
  GraphBuilder& initializer(const std::string& name, const Tensor& t);
  onnxpb::NodeProto& node(const std::string& op, std::vector<std::string> inputs,
                          std::vector<std::string> outputs, const std::string& name = "");
  // The node added last (to add more attributes after node()).
  onnxpb::NodeProto& graph_node_last() { return *g_.mutable_node(g_.node_size() - 1); }
  const onnxpb::GraphProto& proto() const { return g_; }
  // For what the helpers above do not cover (sequence or optional types, symbolic dims).
  onnxpb::GraphProto& mutable_proto() { return g_; }

 private:
  onnxpb::GraphProto g_;
};

void set_int(onnxpb::NodeProto& n, const std::string& name, int64_t v);
void set_ints(onnxpb::NodeProto& n, const std::string& name, const Dims64& v);
void set_float(onnxpb::NodeProto& n, const std::string& name, float v);
void set_floats(onnxpb::NodeProto& n, const std::string& name, const std::vector<float>& v);
void set_tensor(onnxpb::NodeProto& n, const std::string& name, const Tensor& t);
void set_graph(onnxpb::NodeProto& n, const std::string& name, const GraphBuilder& g);

onnxpb::ModelProto make_model(const GraphBuilder& g, int64_t opset = 17, int64_t ir_version = 8);
// Writes the model to DIR/NAME and returns the path.
std::string save_model(const onnxpb::ModelProto& m, const std::string& dir,
                       const std::string& name);

using Attrs = std::function<void(onnxpb::NodeProto&)>;
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

void set_string(onnxpb::NodeProto& n, const std::string& name, const std::string& v);
void set_strings(onnxpb::NodeProto& n, const std::string& name, const std::vector<std::string>& v);

// Builds a model of one `op` node at `opset` (inputs named "" are omitted optional inputs;
// `attrs` adds attributes), saves it in scratch_dir(dir), runs it once on `threads` threads
// and returns its `outputs` outputs. With a `domain` other than ai.onnx, `opset` is that
// domain's version (ai.onnx is imported at version 21 beside it).
std::vector<Tensor> run_node(const std::string& op, const NamedTensors& ins, int outputs,
                             const Attrs& attrs, int64_t opset, const std::string& dir,
                             int threads = 1, const std::string& domain = "");

// Runs `fn` and expects a bough::Error of kind BadInput (a gtest failure otherwise).
void expect_bad_input(const std::function<void()>& fn);
// Expects fn to throw a bough::Error of kind InvalidModel (the check refuses the model).
void expect_invalid_model(const std::function<void()>& fn);

Tensor f32(Dims64 dims, std::vector<float> values);
Tensor i64(Dims64 dims, std::vector<int64_t> values);
Tensor boolean(Dims64 dims, std::vector<bool> values);
// A packed 4- or 2-bit tensor holding the raw `fields` (in range for the type's bits).
Tensor packed(ElemType type, Dims64 dims, std::vector<int> fields);
// A packed 4- or 2-bit tensor's raw fields.
std::vector<int> fields_of(const Tensor& t);
std::vector<float> floats_of(const Tensor& t);
// An int32 or int64 tensor's elements as int64.
std::vector<int64_t> int64s_of(const Tensor& t);
// Any numeric tensor's elements as doubles.
std::vector<double> doubles_of(const Tensor& t);

}  // namespace bough::test

namespace bough {
// Readable gtest failure messages for shapes.
inline void PrintTo(const Dims& d, std::ostream* os) { *os << shape_string(d); }
}  // namespace bough
