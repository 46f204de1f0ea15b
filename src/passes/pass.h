// Graph passes: each rewrites an ir::Model in place into an equivalent one and returns how
// many things it changed (0: nothing to do). The pipeline runner repeats a list of passes
// until a whole round changes nothing; sessions and `bough optimize` run it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace bough::passes {

// Which pipeline runs a pass: repairs run only when asked for (`--repair`); basic passes run
// at both levels; fusions only at the `all` level (SessionOptions::optimization).
enum class Level { repair, basic, all };

struct Pass {
  std::string_view name;
  std::string_view description;  // one line, for `bough optimize --list`
  int (*run)(ir::Model& model);
  Level level = Level::basic;
};

// Every pass, in the order the basic pipeline runs them (the opt-in ones first).
const std::vector<Pass>& all_passes();
// The pass of that name; null when there is none.
const Pass* find_pass(std::string_view name);
// The passes sessions run by default (SessionOptions::optimization basic).
std::vector<const Pass*> basic_pipeline();
// The basic passes and the fusions (SessionOptions::optimization all).
std::vector<const Pass*> all_pipeline();

struct PassCount {
  std::string name;
  int changes = 0;       // summed over the rounds
  double seconds = 0.0;  // wall time, summed over the rounds
};

struct PipelineReport {
  std::vector<PassCount> passes;  // one per pass, in pipeline order
  int rounds = 0;
};

// Runs `pipeline` in order, round after round, until a round changes nothing or
// `max_rounds` have run. The model is valid before and stays valid after each pass.
PipelineReport run_pipeline(ir::Model& model, const std::vector<const Pass*>& pipeline,
                            int max_rounds = 16);

// The passes themselves, one per file.
int fold_constants(ir::Model& model);
int fold_if(ir::Model& model);
int fold_identity(ir::Model& model);
int dead_code(ir::Model& model);
int single_trip_loop(ir::Model& model);
int loop_invariant(ir::Model& model);
int legalize_if(ir::Model& model);
int legacy_broadcast(ir::Model& model);
int matmul_add_gemm(ir::Model& model);
int matmul_add_bias(ir::Model& model);
int transpose_gemm(ir::Model& model);
int transpose_fused_matmul(ir::Model& model);
int merge_transposes(ir::Model& model);
int conv_affine(ir::Model& model);
int conv_activation(ir::Model& model);
int gelu(ir::Model& model);

}  // namespace bough::passes
