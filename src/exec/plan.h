// A Plan is a graph compiled once: a flat list of steps over numbered slots, with the
// slot of every value, when each value dies, and a nested Plan inside every control-flow
// kernel. Running never re-plans and never looks a name up.
//
// A Plan owns one frame (its slots) and so runs one call at a time; a Session runs one
// call at a time too. Nesting is fine: a subgraph has its own Plan and frame.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/kernel.h"
#include "ir/graph.h"

namespace bough::exec {

// Attribute values a model-local function body refers to (ref_attr_name).
using AttrEnv = std::vector<const ir::Attribute*>;

struct CompileEnv {
  const ir::Model* model = nullptr;
  const AttrEnv* attrs = nullptr;  // inside a function body
  const std::map<std::string, int64_t>* function_opsets = nullptr;
};

class Plan {
 public:
  static std::unique_ptr<Plan> compile(const ir::Graph& graph, const CompileEnv& env);
  ~Plan();

  const std::vector<int32_t>& input_slots() const { return input_slots_; }
  const std::vector<int32_t>& capture_slots() const { return capture_slots_; }
  const std::vector<int32_t>& output_slots() const { return output_slots_; }
  Value& slot(int32_t s) { return frame_[static_cast<size_t>(s)]; }

  // Runs the steps; the caller has bound inputs and captures into their slots.
  void run(RunContext& ctx);
  // Output i after run(): moved out when nothing else refers to the slot, else shared.
  Value take_output(size_t i);
  // Clears what run() left in the frame (inputs, captures, outputs); constants stay.
  void reset();

  size_t num_steps() const { return steps_.size(); }
  const std::string& where() const { return where_; }

 private:
  struct Step {
    Kernel* kernel;
    uint32_t in, n_in, out, n_out, free, n_free;  // ranges into refs_
  };
  Plan() = default;
  void compile_graph(const ir::Graph& graph, const CompileEnv& env);
  // After a failed run: drops every value but the constants.
  void clear_all();

  std::vector<Step> steps_;
  std::vector<std::string> step_where_;
  std::vector<int32_t> refs_;
  std::vector<std::unique_ptr<Kernel>> kernels_;
  std::vector<int32_t> input_slots_, capture_slots_, output_slots_;
  std::vector<bool> output_shared_;
  std::vector<int32_t> reset_slots_;
  std::vector<bool> constant_;  // per slot: holds an initializer for the Plan's lifetime
  std::vector<Value> frame_;
  std::string where_;
};

// "model.onnx: main/If \"gate\"/then_branch" — the place of a graph in errors.
std::string graph_where(const ir::Graph& graph, const ir::Model* model);

}  // namespace bough::exec
