// A model whose run takes as long as its input says, for tests that stop runs: a Loop of M
// trips adding 1 to x0 (x_final = x0 + M), or passing x0 through with an empty body.
#pragma once

#include <cstdint>

#include "bough/model.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {

inline Model counting_loop(bool empty_body = false) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("x", ElemType::Float, {1});
  if (empty_body) {
    body.output_untyped("cond_in").output_untyped("x");
  } else {
    body.node("Add", {"x", "one"}, {"x_next"});
    body.node("Identity", {"cond_in"}, {"cond_out"});
    body.output_untyped("cond_out").output_untyped("x_next");
  }
  GraphBuilder g;
  g.input("M", ElemType::Int64).input("x0", ElemType::Float, {1});
  g.initializer("one", f32({1}, {1}));
  g.output("x_final", ElemType::Float, {1});
  set_graph(g.node("Loop", {"M", "", "x0"}, {"x_final"}), "body", body);
  return Model::load(
      save_model(make_model(g), scratch_dir("limits"), empty_body ? "empty.onnx" : "count.onnx"));
}

// M = trips, x0 = [0].
inline NamedValues counting_loop_inputs(int64_t trips) {
  return {{"M", Tensor::scalar_i64(trips)}, {"x0", f32({1}, {0})}};
}

}  // namespace bough::test
