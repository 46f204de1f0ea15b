// What a profiled run records of each node's tensors, and ONNX Runtime's args and bough's
// per-operator summary made from it (exec/ort_profile.h), on a small model whose shapes and
// sizes are worked out by hand below.
#include "exec/ort_profile.h"

#include <gtest/gtest.h>

#include "bough/session.h"
#include "model_builder.h"

namespace bough::test {
namespace {

// x: float[2, 3] -> MatMul by the initializer w: float[3, 4] -> h: float[2, 4]; Add h and
// `bias`, an input whose initializer is only its default (ONNX Runtime's overridable
// initializer, so not a parameter) -> y; Shape(h) -> s: int64[2]; SequenceConstruct(h) ->
// a sequence, whose SequenceLength -> n: int64 scalar.
Model small_model() {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2, 3});
  g.input("bias", ElemType::Float, {4});
  g.initializer("w", f32({3, 4}, std::vector<float>(12, 0.5f)));
  g.initializer("bias", f32({4}, {1, 2, 3, 4}));
  g.output("y", ElemType::Float, {2, 4});
  g.output("s", ElemType::Int64, {2});
  g.output("n", ElemType::Int64, {});
  g.node("MatMul", {"x", "w"}, {"h"}, "mm");
  g.node("Add", {"h", "bias"}, {"y"}, "add");
  g.node("Shape", {"h"}, {"s"}, "shape");
  g.node("SequenceConstruct", {"h"}, {"seq"}, "construct");
  g.node("SequenceLength", {"seq"}, {"n"}, "length");
  return Model::load_bytes(make_model(g).SerializeAsString(), "small.onnx");
}

const NodeTiming& node(const RunProfile& p, const std::string& op) {
  for (const NodeTiming& t : p.nodes)
    if (t.op == op) return t;
  throw std::runtime_error("no " + op);
}

std::string type_shape(const std::vector<ProfiledTensor>& tensors) {
  std::string out;
  for (const ProfiledTensor& t : tensors) {
    out += std::string(elem_name(t.elem)) + "[";
    for (size_t i = 0; i < t.dims.size(); ++i) out += (i ? "," : "") + std::to_string(t.dims[i]);
    out += "]:" + std::to_string(t.bytes) + (t.constant ? "c " : " ");
  }
  return out;
}

TEST(OrtProfile, EachNodeRecordsItsTensorsTypesShapesAndBytes) {
  // Unoptimized, and the Model handed over: the MatMul's prepared weight may be dropped from
  // the plan, and is still described.
  Session session(small_model(), SessionOptions{1, false, Optimization::none});
  RunProfile profile;
  session.run_profiled({{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}}, profile);
  ASSERT_EQ(profile.nodes.size(), 5u);
  // 2*3 floats = 24 bytes, 3*4 = 48, 2*4 = 32, 4 = 16; int64[2] = 16, int64 scalar = 8.
  EXPECT_EQ(type_shape(node(profile, "MatMul").inputs), "float[2,3]:24 float[3,4]:48c ");
  EXPECT_EQ(type_shape(node(profile, "MatMul").outputs), "float[2,4]:32 ");
  EXPECT_EQ(type_shape(node(profile, "Add").inputs), "float[2,4]:32 float[4]:16 ");
  EXPECT_EQ(type_shape(node(profile, "Shape").outputs), "int64[2]:16 ");
  // A sequence is no tensor: left out, as ONNX Runtime leaves it out.
  EXPECT_EQ(type_shape(node(profile, "SequenceConstruct").outputs), "");
  EXPECT_EQ(type_shape(node(profile, "SequenceLength").inputs), "");
  EXPECT_EQ(type_shape(node(profile, "SequenceLength").outputs), "int64[]:8 ");

  EXPECT_EQ(exec::ort_node_args(node(profile, "MatMul")),
            "\"op_name\": \"MatMul\", \"provider\": \"CPUExecutionProvider\", "
            "\"activation_size\": \"24\", \"parameter_size\": \"48\", \"output_size\": \"32\", "
            "\"input_type_shape\": [{\"float\": [2, 3]}, {\"float\": [3, 4]}], "
            "\"output_type_shape\": [{\"float\": [2, 4]}]");
  EXPECT_EQ(exec::ort_node_args(node(profile, "Add")),
            "\"op_name\": \"Add\", \"provider\": \"CPUExecutionProvider\", "
            "\"activation_size\": \"48\", \"parameter_size\": \"0\", \"output_size\": \"32\", "
            "\"input_type_shape\": [{\"float\": [2, 4]}, {\"float\": [4]}], "
            "\"output_type_shape\": [{\"float\": [2, 4]}]");
  EXPECT_EQ(exec::ort_node_args(node(profile, "SequenceLength")),
            "\"op_name\": \"SequenceLength\", \"provider\": \"CPUExecutionProvider\", "
            "\"activation_size\": \"0\", \"parameter_size\": \"0\", \"output_size\": \"8\", "
            "\"input_type_shape\": [], \"output_type_shape\": [{\"int64\": []}]");

  // The next profile replaces this one; `bias` given is no parameter either.
  session.run_profiled({{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"bias", f32({4}, {0, 0, 0, 0})}},
                       profile);
  ASSERT_EQ(profile.nodes.size(), 5u);
  EXPECT_EQ(type_shape(node(profile, "Add").inputs), "float[2,4]:32 float[4]:16 ");
}

TEST(OrtProfile, NodesOutsideTheDefaultDomainAreNamedWithoutIt) {
  NodeTiming t;
  t.op = "com.microsoft.FusedMatMul";
  t.inputs = {{ElemType::Float16, {5}, 10, false}, {ElemType::String, {2}, 64, true}};
  EXPECT_EQ(exec::ort_node_args(t),
            "\"op_name\": \"FusedMatMul\", \"provider\": \"CPUExecutionProvider\", "
            "\"activation_size\": \"10\", \"parameter_size\": \"64\", \"output_size\": \"0\", "
            "\"input_type_shape\": [{\"float16\": [5]}, {\"string\": [2]}], "
            "\"output_type_shape\": []");
}

TEST(OrtProfile, TheSummaryAddsUpEachOperatorMostTimeFirst) {
  auto timing = [](const std::string& op, int64_t self_ns) {
    NodeTiming t;
    t.op = op;
    t.self_ns = self_ns;
    t.duration_ns = self_ns + 5;  // the summary counts own time only
    return t;
  };
  RunProfile first, second;
  first.run_ns = 600;
  first.nodes = {timing("Add", 100), timing("MatMul", 300), timing("Add", 50)};
  second.run_ns = 400;
  second.nodes = {timing("Relu", 150), timing("com.microsoft.Gelu", 20)};
  const RunProfile* runs[] = {&first, &second};
  const std::vector<exec::OpTotal> ops = exec::op_totals(runs);
  // MatMul 300; Add 100 + 50 = 150 in 2 calls; Relu 150 (a tie with Add: by name); Gelu 20.
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].op, "MatMul");
  EXPECT_EQ(ops[1].op, "Add");
  EXPECT_EQ(ops[1].calls, 2);
  EXPECT_EQ(ops[1].self_ns, 150);
  EXPECT_EQ(ops[2].op, "Relu");
  EXPECT_EQ(ops[3].op, "com.microsoft.Gelu");
  // Shares of the runs' 1000 ns.
  EXPECT_EQ(exec::op_summary_json(ops, 1000),
            "{\"runs_ns\": 1000, \"ops\": ["
            "{\"op\": \"MatMul\", \"calls\": 1, \"total_ns\": 300, \"share\": 30.00}, "
            "{\"op\": \"Add\", \"calls\": 2, \"total_ns\": 150, \"share\": 15.00}, "
            "{\"op\": \"Relu\", \"calls\": 1, \"total_ns\": 150, \"share\": 15.00}, "
            "{\"op\": \"com.microsoft.Gelu\", \"calls\": 1, \"total_ns\": 20, \"share\": 2.00}]}");
  EXPECT_EQ(exec::op_summary_json({}, 0), "{\"runs_ns\": 0, \"ops\": []}");
}

}  // namespace
}  // namespace bough::test
