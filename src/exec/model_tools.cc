// The public functions of bough/model_tools.h, over the check, inference and passes.
#include "bough/model_tools.h"

#include <memory>

#include "check/first_error.h"
#include "exec/operators.h"
#include "infer/opset_target.h"
#include "infer/validate.h"
#include "ir/clone.h"
#include "passes/pipeline.h"

namespace bough {

namespace {

// Every function here reaches the operators through the check, so each starts with this.
infer::ValidateOptions validate_options(const CheckOptions& options) {
  exec::register_operators();
  infer::ValidateOptions v;
  v.check.allow_newer_opset = options.allow_newer_opset;
  return v;
}

std::vector<const passes::Pass*> pipeline_of(const OptimizeOptions& options) {
  exec::register_operators();
  if (options.passes.empty())
    return options.level == Optimization::none  ? std::vector<const passes::Pass*>{}
           : options.level == Optimization::all ? passes::all_pipeline()
                                                : passes::basic_pipeline();
  std::vector<const passes::Pass*> pipeline;
  for (const std::string& name : options.passes) {
    const passes::Pass* pass = passes::find_pass(name);
    if (!pass) fail(ErrorKind::BadInput, "optimize", "no pass is named '" + name + "'");
    pipeline.push_back(pass);
  }
  return pipeline;
}

}  // namespace

std::vector<Diagnostic> check_model(const Model& model, const CheckOptions& options) {
  const check::Diagnostics found =
      infer::validate(model.ir(), validate_options(options)).diagnostics;
  std::vector<Diagnostic> out;
  for (const check::Diagnostic& d : found.all())
    out.push_back({d.severity == check::Severity::Error, d.kind, d.place, d.message});
  return out;
}

Model with_inferred_types(const Model& model, const CheckOptions& options) {
  std::shared_ptr<ir::Model> copy = ir::clone_model(model.ir());
  infer::Validation v = infer::validate(*copy, validate_options(options));
  check::throw_first_error(v.diagnostics, model.path(), "check_model()");
  infer::annotate(*copy, v.types);
  return Model(std::move(copy));
}

Model optimized(const Model& model, const OptimizeOptions& options) {
  passes::PipelineOptions pipeline;
  pipeline.passes = pipeline_of(options);
  pipeline.repair = options.repair;
  pipeline.lister = "check_model()";
  return Model(passes::optimize(model.ir(), pipeline).model);
}

Model with_onnx_opset(const Model& model, int opset) {
  exec::register_operators();
  std::shared_ptr<ir::Model> copy = ir::clone_model(model.ir());
  infer::set_onnx_opset(*copy, opset);
  return Model(std::move(copy));
}

}  // namespace bough
