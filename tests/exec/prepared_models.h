// Test models for weights prepared at plan time: one operator node whose weights come from
// a chosen source, possibly nested in If branches and Loop or Scan bodies, run beside the
// same model with the weights fed as graph inputs (the unprepared path).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bough/session.h"
#include "exec/plan.h"
#include "ir/clone.h"
#include "model_builder.h"
#include "passes/pass.h"
#include "test_paths.h"

namespace bough::test {

// Where the weights of a test model come from.
enum class WeightSource {
  Input,          // graph inputs: not constant, the unprepared path
  Initializer,    // initializers of the main graph
  Constant,       // Constant nodes beside the operator (in the innermost graph)
  OuterConstant,  // Constant nodes of the main graph, captured through every level
  Folded,         // Unsqueeze(Constant) beside the operator (Reshape(Constant, Constant)
                  // when the weight has no axis of size 1), folded by the session's passes
};

struct NodeCase {
  std::string op;
  std::vector<std::string> inputs;  // the node's inputs in order, "" for an omitted one
  NamedTensors data;                // inputs always fed by the caller
  NamedTensors weights;             // inputs whose source varies
  int outputs = 1;
  Attrs attrs;
  int64_t opset = 17;
  std::string domain = "";  // another domain is imported at version 1 beside ai.onnx `opset`
};

// Random shapes and values for the cases, from a fixed seed.
struct Random {
  std::mt19937 gen;
  explicit Random(unsigned seed) : gen(seed) {}
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen);
  }
  // Floats uniform in [-1, 1].
  Tensor floats(Dims64 dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_real_distribution<float> u(-1, 1);
    for (float& x : v) x = u(gen);
    return f32(std::move(dims), std::move(v));
  }
  // Any values of `type`, uint8 or int8.
  Tensor bytes(ElemType type, const Dims64& dims) {
    Tensor t(type, Dims(std::span<const int64_t>(dims)));
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (type == ElemType::UInt8)
        t.data<uint8_t>()[i] = static_cast<uint8_t>(pick(0, 255));
      else
        t.data<int8_t>()[i] = static_cast<int8_t>(pick(-128, 127));
    }
    return t;
  }
};

namespace prepared_detail {

inline std::string out_name(int k, const std::string& tag) {
  return "o" + std::to_string(k) + "_" + tag;
}

inline bool is_weight(const NodeCase& c, const std::string& name) {
  for (const auto& [n, t] : c.weights)
    if (n == name) return true;
  return false;
}

// Adds to g the nodes that compute the case's outputs out_name(k, tag), inside the levels
// nest[level..] of nesting.
inline void fill(GraphBuilder& g, const NodeCase& c, WeightSource src, const std::string& nest,
                 size_t level, const std::string& tag) {
  std::vector<std::string> outs;
  for (int k = 0; k < c.outputs; ++k) outs.push_back(out_name(k, tag));
  if (level == nest.size()) {
    std::vector<std::string> ins;
    for (const std::string& name : c.inputs) {
      if (name.empty() || !is_weight(c, name) ||
          (src != WeightSource::Constant && src != WeightSource::Folded)) {
        ins.push_back(name);
        continue;
      }
      const Tensor* t = nullptr;
      for (const auto& [n, w] : c.weights)
        if (n == name) t = &w;
      const std::string local = name + "_" + tag;
      if (src == WeightSource::Constant) {
        set_tensor(g.node("Constant", {}, {local}), "value", *t);
      } else {
        int64_t axis = -1;
        for (size_t d = 0; d < t->rank() && axis < 0; ++d)
          if (t->dim(d) == 1) axis = static_cast<int64_t>(d);
        if (axis >= 0) {
          Dims squeezed;
          for (size_t d = 0; d < t->rank(); ++d)
            if (static_cast<int64_t>(d) != axis) squeezed.push_back(t->dim(d));
          set_tensor(g.node("Constant", {}, {local + "_sq"}), "value", t->reshaped(squeezed));
          if (c.opset < 13) {  // axes an attribute
            set_ints(g.node("Unsqueeze", {local + "_sq"}, {local}), "axes", {axis});
          } else {
            set_tensor(g.node("Constant", {}, {local + "_ax"}), "value", i64({1}, {axis}));
            g.node("Unsqueeze", {local + "_sq", local + "_ax"}, {local});
          }
        } else {
          set_tensor(g.node("Constant", {}, {local + "_flat"}), "value",
                     t->reshaped(Dims{t->numel()}));
          set_tensor(g.node("Constant", {}, {local + "_shape"}), "value",
                     i64({static_cast<int64_t>(t->rank())}, t->shape().vec()));
          g.node("Reshape", {local + "_flat", local + "_shape"}, {local});
        }
      }
      ins.push_back(local);
    }
    auto& node = g.node(c.op, ins, outs);
    node.set_domain(c.domain);
    if (c.attrs) c.attrs(node);
    return;
  }
  const char kind = nest[level];
  if (kind == 'I') {
    GraphBuilder then_g("then_" + tag), else_g("else_" + tag);
    fill(then_g, c, src, nest, level + 1, tag + "t");
    fill(else_g, c, src, nest, level + 1, tag + "e");
    for (int k = 0; k < c.outputs; ++k) {
      then_g.output_untyped(out_name(k, tag + "t"));
      else_g.output_untyped(out_name(k, tag + "e"));
    }
    auto& node = g.node("If", {"cond"}, outs);
    set_graph(node, "then_branch", then_g);
    set_graph(node, "else_branch", else_g);
  } else if (kind == 'L') {  // two iterations, the outputs stacked
    GraphBuilder body("loop_" + tag);
    body.input("i_" + tag, ElemType::Int64).input("c_" + tag, ElemType::Bool);
    body.node("Identity", {"c_" + tag}, {"co_" + tag});
    body.output("co_" + tag, ElemType::Bool);
    fill(body, c, src, nest, level + 1, tag + "l");
    for (int k = 0; k < c.outputs; ++k) body.output_untyped(out_name(k, tag + "l"));
    set_graph(g.node("Loop", {"trip", ""}, outs), "body", body);
  } else {  // 'S': a Scan over the two elements of "scan_in", the outputs stacked
    GraphBuilder body("scan_" + tag);
    body.input("s_" + tag, ElemType::Float);
    fill(body, c, src, nest, level + 1, tag + "s");
    for (int k = 0; k < c.outputs; ++k) body.output_untyped(out_name(k, tag + "s"));
    auto& node = g.node("Scan", {"scan_in"}, outs);
    set_graph(node, "body", body);
    set_int(node, "num_scan_inputs", 1);
  }
}

}  // namespace prepared_detail

// The case's node nested as `nest` says, from the outside in: 'I' an If on input "cond"
// (both branches hold the node), 'L' a Loop of two iterations, 'S' a Scan over two elements.
inline onnxpb::ModelProto nested_model(const NodeCase& c, WeightSource src,
                                       const std::string& nest) {
  GraphBuilder g;
  for (const auto& [name, t] : c.data) g.input(name, t.type(), t.shape().vec());
  if (nest.find('I') != std::string::npos) g.input("cond", ElemType::Bool);
  g.initializer("trip", Tensor::scalar_i64(2));
  g.initializer("scan_in", f32({2}, {0, 0}));
  for (const auto& [name, t] : c.weights) {
    if (src == WeightSource::Input) g.input(name, t.type(), t.shape().vec());
    if (src == WeightSource::Initializer) g.initializer(name, t);
    if (src == WeightSource::OuterConstant) set_tensor(g.node("Constant", {}, {name}), "value", t);
  }
  prepared_detail::fill(g, c, src, nest, 0, "m");
  for (int k = 0; k < c.outputs; ++k) g.output_untyped(prepared_detail::out_name(k, "m"));
  onnxpb::ModelProto m = make_model(g, c.opset);
  if (!c.domain.empty()) {
    auto* import = m.add_opset_import();
    import->set_domain(c.domain);
    import->set_version(1);
  }
  return m;
}

inline std::string save_nested(const NodeCase& c, WeightSource src, const std::string& nest) {
  // One folder per model: scratch_dir empties the folder it returns.
  const std::string name = c.op + "_" + std::to_string(static_cast<int>(src)) + "_" + nest;
  return save_model(nested_model(c, src, nest), scratch_dir("prepared_" + name), "m.onnx");
}

// The weights prepared when a session plans the model at `path` (the session's passes run
// first, as Session does with the default optimization).
inline size_t prepared_weights(const std::string& path) {
  const Model model = Model::load(path);
  std::shared_ptr<ir::Model> copy = ir::clone_model(model.ir());
  passes::run_pipeline(*copy, passes::basic_pipeline());
  return exec::Plan::compile(*copy->graph, exec::CompileEnv{copy.get()})->prepared_weights();
}

// Runs the model at `path` on `threads` threads with the case's data (and its weights when
// they are inputs), for cond true and false when there is an If.
inline std::vector<std::vector<double>> run_nested(const NodeCase& c, WeightSource src,
                                                   const std::string& nest, const std::string& path,
                                                   int threads) {
  Session session(Model::load(path), SessionOptions{threads});
  std::vector<std::vector<double>> result;
  const bool has_if = nest.find('I') != std::string::npos;
  for (bool cond : has_if ? std::vector<bool>{true, false} : std::vector<bool>{true}) {
    NamedValues feeds;
    for (const auto& [n, t] : c.data) feeds.emplace_back(n, t);
    if (src == WeightSource::Input)
      for (const auto& [n, t] : c.weights) feeds.emplace_back(n, t);
    if (has_if) feeds.emplace_back("cond", boolean({}, {cond}));
    for (const auto& [n, v] : session.run(feeds))
      result.push_back(v.is_tensor() && v.tensor().defined() ? doubles_of(v.tensor())
                                                             : std::vector<double>{});
  }
  return result;
}

// Runs the case with its weights from `src` (prepared) and as graph inputs (not), and
// expects the same outputs, and `expected_prepared` weights prepared per copy of the node.
inline void expect_same_as_unprepared(const NodeCase& c, WeightSource src, const std::string& nest,
                                      int threads, size_t expected_prepared) {
  SCOPED_TRACE(c.op + " source " + std::to_string(static_cast<int>(src)) + " nest '" + nest +
               "' threads " + std::to_string(threads));
  const std::string prepared_path = save_nested(c, src, nest);
  const std::string plain_path = save_nested(c, WeightSource::Input, nest);
  size_t copies = 1;
  for (char k : nest)
    if (k == 'I') copies *= 2;
  EXPECT_EQ(prepared_weights(prepared_path), expected_prepared * copies);
  EXPECT_EQ(prepared_weights(plain_path), 0u);
  const auto got = run_nested(c, src, nest, prepared_path, threads);
  const auto want = run_nested(c, WeightSource::Input, nest, plain_path, threads);
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].size(), want[o].size()) << "output " << o;
    for (size_t i = 0; i < got[o].size(); ++i)
      ASSERT_NEAR(got[o][i], want[o][i], 1e-5 * (1 + std::abs(want[o][i])))
          << "output " << o << " element " << i;
  }
}

}  // namespace bough::test
