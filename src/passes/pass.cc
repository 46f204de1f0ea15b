#include "passes/pass.h"

#include <chrono>
#include <string>

#include "bough/error.h"

namespace bough::passes {

const std::vector<Pass>& all_passes() {
  static const std::vector<Pass> passes = {
      {"legalize-if",
       "repair: If payload inputs bound to branch inputs become captures (--repair runs it)",
       legalize_if, Level::repair},
      {"legacy-broadcast", "turn opset < 7 broadcast axis into an explicit Unsqueeze",
       legacy_broadcast},
      // Before fold-constants, which would make a transposed copy of a constant weight that
      // the GEMMs pack straight from its own layout (the MatMul into Gemm or FusedMatMul
      // first, so that it gets the bias and the Transpose).
      {"matmul-add-gemm",
       "fuse a 2-D float MatMul and the Add of a bias on its last axis into a Gemm",
       matmul_add_gemm, Level::all},
      {"matmul-add-bias",
       "fuse a float MatMul of an A of rank 3 or more by a 2-D B and the Add of a bias on its "
       "last axis into a FusedMatMul with bough's own bias input (com.microsoft)",
       matmul_add_bias, Level::all},
      {"transpose-gemm",
       "fold a 2-D Transpose feeding B of a Gemm, or of a MatMul with a 2-D A, into a Gemm's "
       "transB",
       transpose_gemm},
      {"transpose-matmul",
       "fold a 2-D Transpose feeding B of a MatMul or FusedMatMul into a FusedMatMul's transB "
       "(com.microsoft)",
       transpose_fused_matmul, Level::all},
      {"fold-constants",
       "evaluate nodes whose inputs are all constant into initializers (size-capped)",
       fold_constants},
      {"fold-if", "replace an If whose condition is constant by its taken branch", fold_if},
      {"single-trip-loop", "replace a Loop that runs exactly once by its body", single_trip_loop},
      {"loop-invariant", "move body nodes that read only captures and constants out of loops",
       loop_invariant},
      {"fold-identity", "read an Identity's input directly where its output was read",
       fold_identity},
      {"merge-transposes",
       "turn a Transpose of a Transpose whose middle value nothing else reads into one",
       merge_transposes, Level::all},
      {"gelu",
       "fuse the erf and tanh Gelu subgraphs of a float x into a Gelu or FastGelu (com.microsoft)",
       gelu, Level::all},
      // Before conv-activation: a BatchNormalization between a Conv and its activation
      // folds first, then the activation fuses.
      {"conv-affine",
       "fold an inference BatchNormalization, or a constant per-channel Mul or Add, after a "
       "float Conv into its W and B",
       conv_affine, Level::all},
      {"conv-activation",
       "fuse a float Conv and the Relu, Sigmoid, LeakyRelu or Clip after it into a FusedConv",
       conv_activation, Level::all},
      {"dead-code",
       "remove nodes, initializers, captures and If outputs that no graph output needs", dead_code},
  };
  return passes;
}

const Pass* find_pass(std::string_view name) {
  for (const Pass& p : all_passes())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<const Pass*> basic_pipeline() {
  std::vector<const Pass*> pipeline;
  for (const Pass& p : all_passes())
    if (p.level == Level::basic) pipeline.push_back(&p);
  return pipeline;
}

std::vector<const Pass*> all_pipeline() {
  std::vector<const Pass*> pipeline;
  for (const Pass& p : all_passes())
    if (p.level != Level::repair) pipeline.push_back(&p);
  return pipeline;
}

PipelineReport run_pipeline(ir::Model& model, const std::vector<const Pass*>& pipeline,
                            int max_rounds) {
  PipelineReport report;
  for (const Pass* p : pipeline) report.passes.push_back({std::string(p->name), 0});
  bool changed = true;
  while (changed && report.rounds < max_rounds) {
    changed = false;
    ++report.rounds;
    for (size_t i = 0; i < pipeline.size(); ++i) {
      auto start = std::chrono::steady_clock::now();
      int n = 0;
      try {
        n = pipeline[i]->run(model);
      } catch (const Error& e) {
        fail(e.kind(), e.where(),
             "the pass " + std::string(pipeline[i]->name) + ": " + e.message());
      }
      report.passes[i].seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.passes[i].changes += n;
      changed = changed || n > 0;
    }
  }
  return report;
}

}  // namespace bough::passes
