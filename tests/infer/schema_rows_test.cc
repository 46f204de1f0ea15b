// The schema rows of the newest operator versions, each against the types its version of the
// ONNX specification lists: a type the row allows is accepted, and a type it leaves out (often
// one a neighbouring version allows) is refused at the node. Without the row the version
// would be checked by arity only, and the refusals below would not happen.
#include <gtest/gtest.h>

#include "infer/check_util.h"

namespace bough::test {
namespace {

// A model of one `op` node "n" over inputs of the given element types, each of shape `dims`.
GraphBuilder one_node(const std::string& op, const std::vector<ElemType>& types, int outputs = 1,
                      const Dims64& dims = {2}) {
  GraphBuilder g("main");
  std::vector<std::string> ins, outs;
  for (size_t i = 0; i < types.size(); ++i) {
    ins.push_back("x" + std::to_string(i));
    g.input(ins.back(), types[i], dims);
  }
  for (int o = 0; o < outputs; ++o) outs.push_back("y" + std::to_string(o));
  g.node(op, ins, outs, "n");
  for (const auto& o : outs) g.output_untyped(o);
  return g;
}

onnxpb::NodeProto& the_node(GraphBuilder& g) { return *g.mutable_proto().mutable_node(0); }

std::string at(const std::string& op) { return "main/" + op + " \"n\""; }

// Makes input `index` of `g` a seq(tensor(elem)), or with `optional` an
// optional(seq(tensor(elem))).
void make_input_sequence(GraphBuilder& g, int index, ElemType elem, bool optional = false) {
  auto* t = g.mutable_proto().mutable_input(index)->mutable_type();
  t->Clear();
  auto* seq = optional ? t->mutable_optional_type()->mutable_elem_type() : t;
  seq->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(elem));
}

// SplitToSequence-24 adds bfloat16 (T = all types of IR 4); float8 stays out.
TEST(SchemaRows, SplitToSequence24TakesBFloat16) {
  GraphBuilder g = one_node("SplitToSequence", {ElemType::BFloat16});
  EXPECT_TRUE(has_error(check_graph(g, 23), at("SplitToSequence"),
                        "input 0 (input) has type tensor(bfloat16)"));
  EXPECT_TRUE(is_valid(check_graph(g, 24)));
  EXPECT_TRUE(has_error(check_graph(one_node("SplitToSequence", {ElemType::Float8E4M3FN}), 24),
                        at("SplitToSequence"), "input 0 (input) has type tensor(float8e4m3fn)"));
}

// TensorScatter-24: T is every tensor type of IR 12 (float8e8m0, no int2); write_indices
// is int64 only; axis and mode are its attributes.
TEST(SchemaRows, TensorScatter24) {
  const Dims64 cache = {1, 2, 3};
  EXPECT_TRUE(is_valid(check_graph(
      one_node("TensorScatter", {ElemType::Float8E8M0, ElemType::Float8E8M0}, 1, cache), 24)));
  EXPECT_TRUE(
      has_error(check_graph(one_node("TensorScatter", {ElemType::Int2, ElemType::Int2}), 24),
                at("TensorScatter"), "input 0 (past_cache) has type tensor(int2)"));
  GraphBuilder g = one_node("TensorScatter", {ElemType::Float, ElemType::Float, ElemType::Int32});
  set_int(the_node(g), "axis", 1);
  EXPECT_TRUE(has_error(check_graph(g, 24), at("TensorScatter"),
                        "input 2 (write_indices) has type tensor(int32)"));
  GraphBuilder bad_mode = one_node("TensorScatter", {ElemType::Float, ElemType::Float});
  set_int(the_node(bad_mode), "mode", 1);
  EXPECT_TRUE(has_error(check_graph(bad_mode, 24), at("TensorScatter"),
                        "attribute 'mode' is an int, expected a string"));
}

// LinearAttention-27: T and S are float, float16 and bfloat16; q_num_heads and kv_num_heads
// are required; present_state is a required output.
TEST(SchemaRows, LinearAttention27) {
  auto linear = [](ElemType t, int outputs = 2) {
    GraphBuilder g = one_node("LinearAttention", {t, t, t}, outputs, {1, 2, 4});
    auto& n = the_node(g);
    set_int(n, "q_num_heads", 1);
    set_int(n, "kv_num_heads", 1);
    set_string(n, "update_rule", "linear");
    return g;
  };
  EXPECT_TRUE(is_valid(check_graph(linear(ElemType::BFloat16), 27)));
  EXPECT_TRUE(has_error(check_graph(linear(ElemType::Double), 27), at("LinearAttention"),
                        "input 0 (query) has type tensor(double)"));
  EXPECT_TRUE(has_error(check_graph(linear(ElemType::Float, 1), 27), at("LinearAttention"),
                        "LinearAttention has 1 outputs, expected 2"));
  GraphBuilder no_heads =
      one_node("LinearAttention", {ElemType::Float, ElemType::Float, ElemType::Float}, 2);
  set_int(the_node(no_heads), "kv_num_heads", 1);
  EXPECT_TRUE(has_error(check_graph(no_heads, 27), at("LinearAttention"),
                        "missing required attribute 'q_num_heads'"));
}

// CausalConvWithState-27: T is float, float16 and bfloat16; activation is a string;
// present_state is a required output.
TEST(SchemaRows, CausalConvWithState27) {
  // input (batch 1, channels 1, length 3) and weight (channels 1, 1, kernel 3).
  EXPECT_TRUE(is_valid(check_graph(
      one_node("CausalConvWithState", {ElemType::Float16, ElemType::Float16}, 2, {1, 1, 3}), 27)));
  EXPECT_TRUE(has_error(
      check_graph(one_node("CausalConvWithState", {ElemType::Double, ElemType::Double}, 2), 27),
      at("CausalConvWithState"), "input 0 (input) has type tensor(double)"));
  EXPECT_TRUE(has_error(
      check_graph(one_node("CausalConvWithState", {ElemType::Float, ElemType::Float}, 1), 27),
      at("CausalConvWithState"), "CausalConvWithState has 1 outputs, expected 2"));
  GraphBuilder g = one_node("CausalConvWithState", {ElemType::Float, ElemType::Float}, 2);
  set_int(the_node(g), "activation", 1);
  EXPECT_TRUE(has_error(check_graph(g, 27), at("CausalConvWithState"),
                        "attribute 'activation' is an int, expected a string"));
}

// SwiGLU-28: A, B and Y share one float type T (the function body applies Swish to A).
TEST(SchemaRows, SwiGLU28) {
  EXPECT_TRUE(
      is_valid(check_graph(one_node("SwiGLU", {ElemType::BFloat16, ElemType::BFloat16}), 28)));
  EXPECT_TRUE(has_error(check_graph(one_node("SwiGLU", {ElemType::Int32, ElemType::Int32}), 28),
                        at("SwiGLU"), "input 0 (A) has type tensor(int32)"));
  EXPECT_TRUE(has_error(check_graph(one_node("SwiGLU", {ElemType::Float, ElemType::Float16}), 28),
                        at("SwiGLU"),
                        "input 1 (B) has type tensor(float16), but input 0 (A) has tensor(float)"));
}

// QuantizeLinear-24 allows float8e8m0 scales (not in 23); int2 outputs wait for 25.
TEST(SchemaRows, QuantizeLinear24) {
  GraphBuilder mx =
      one_node("QuantizeLinear", {ElemType::Float, ElemType::Float8E8M0, ElemType::Int8});
  EXPECT_TRUE(has_error(check_graph(mx, 23), at("QuantizeLinear"),
                        "input 1 (y_scale) has type tensor(float8e8m0)"));
  EXPECT_TRUE(is_valid(check_graph(mx, 24)));
  GraphBuilder int2 =
      one_node("QuantizeLinear", {ElemType::Float, ElemType::Float, ElemType::Int2});
  EXPECT_TRUE(has_error(check_graph(int2, 24), at("QuantizeLinear"),
                        "input 2 (y_zero_point) has type tensor(int2)"));
  EXPECT_TRUE(is_valid(check_graph(int2, 25)));
}

// DequantizeLinear-24 likewise: float8e8m0 scales from 24 (with an output_dtype, the output
// being float, float16 or bfloat16), int2 inputs from 25.
TEST(SchemaRows, DequantizeLinear24) {
  GraphBuilder mx = one_node("DequantizeLinear", {ElemType::Int8, ElemType::Float8E8M0});
  set_int(the_node(mx), "output_dtype", static_cast<int>(ElemType::Float));
  EXPECT_TRUE(has_error(check_graph(mx, 23), at("DequantizeLinear"),
                        "input 1 (x_scale) has type tensor(float8e8m0)"));
  EXPECT_TRUE(is_valid(check_graph(mx, 24)));
  GraphBuilder int2 = one_node("DequantizeLinear", {ElemType::Int2, ElemType::Float});
  EXPECT_TRUE(has_error(check_graph(int2, 24), at("DequantizeLinear"),
                        "input 0 (x) has type tensor(int2)"));
  EXPECT_TRUE(is_valid(check_graph(int2, 25)));
}

// Dropout-22 adds bfloat16 to the ratio's types (T1) as to the data's; Dropout-13 has it
// for the data only.
TEST(SchemaRows, Dropout22RatioTakesBFloat16) {
  GraphBuilder g = one_node("Dropout", {ElemType::Float, ElemType::BFloat16});
  EXPECT_TRUE(
      has_error(check_graph(g, 13), at("Dropout"), "input 1 (ratio) has type tensor(bfloat16)"));
  EXPECT_TRUE(is_valid(check_graph(g, 22)));
}

// Identity 19 to 25 widen only the tensor types (float8 at 19, int4 at 21, float4e2m1 at
// 23, float8e8m0 at 24, int2 at 25); sequences and optionals keep the types of IR 3, without
// bfloat16.
TEST(SchemaRows, IdentityWidensTensorsOnly) {
  EXPECT_TRUE(is_valid(check_graph(one_node("Identity", {ElemType::Float8E8M0}), 24)));
  EXPECT_TRUE(has_error(check_graph(one_node("Identity", {ElemType::Int2}), 24), at("Identity"),
                        "input 0 (input) has type tensor(int2)"));
  EXPECT_TRUE(is_valid(check_graph(one_node("Identity", {ElemType::Int2}), 25)));
  for (int opset : {19, 21, 23, 24, 25}) {
    GraphBuilder seq = one_node("Identity", {ElemType::Float8E4M3FN});
    make_input_sequence(seq, 0, ElemType::Float8E4M3FN);
    EXPECT_TRUE(has_error(check_graph(seq, opset), at("Identity"),
                          "input 0 (input) has type seq(tensor(float8e4m3fn))"))
        << opset;
    GraphBuilder opt = one_node("Identity", {ElemType::BFloat16});
    make_input_sequence(opt, 0, ElemType::BFloat16, /*optional=*/true);
    EXPECT_TRUE(has_error(check_graph(opt, opset), at("Identity"),
                          "input 0 (input) has type optional(seq(tensor(bfloat16)))"))
        << opset;
    GraphBuilder floats = one_node("Identity", {ElemType::Float});
    make_input_sequence(floats, 0, ElemType::Float, /*optional=*/true);
    EXPECT_TRUE(is_valid(check_graph(floats, opset))) << opset;
  }
}

}  // namespace
}  // namespace bough::test
