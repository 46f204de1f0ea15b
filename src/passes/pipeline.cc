#include "passes/pipeline.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "bough/error.h"
#include "check/control_flow_rules.h"
#include "check/first_error.h"
#include "ir/clone.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// The type of every value of a model (captures aside: they repeat their outer value's), by
// its graph's path and its name: values keep their names through the passes, and the same
// name may be taken in two branches.
using TypesByName = std::map<std::pair<std::string, std::string>, ir::Type>;

TypesByName types_by_name(ir::Model& model, const infer::Inferred& types) {
  TypesByName out;
  for_each_graph(model, [&](ir::Graph& g) {
    const std::string path = g.path();
    for (const auto& e : g.edges())
      if (e->origin != ir::Edge::Origin::Capture)
        out.emplace(std::make_pair(path, e->name), types.type_of(e.get()));
  });
  return out;
}

// What is wrong with `model` after passes, checked as before them and against the types
// its values had: the first problem, or nothing.
std::optional<std::string> broken(ir::Model& model, const TypesByName& before,
                                  const infer::ValidateOptions& options) {
  const infer::Validation v = infer::validate(model, options);
  for (const check::Diagnostic& d : v.diagnostics.all())
    if (d.severity == check::Severity::Error)
      return (d.place.empty() ? "" : d.place + ": ") + d.message;
  for (const auto& [key, type] : types_by_name(model, v.types)) {
    const auto it = before.find(key);
    if (it != before.end() && !check::compatible(it->second, type))
      return key.first + ": '" + key.second + "' became " + ir::to_string(type) + ", it was " +
             ir::to_string(it->second);
  }
  return std::nullopt;
}

int repair(ir::Model& model) {
  return run_pipeline(model, {find_pass("legalize-if")}, 1).passes[0].changes;
}

// The pass of `options` that breaks `source` first, replayed one at a time as run_pipeline
// runs them, with its problem; a message of the whole pipeline when none does alone.
std::string culprit(const ir::Model& source, const PipelineOptions& options,
                    const TypesByName& before) {
  std::shared_ptr<ir::Model> copy = ir::clone_model(source);
  if (options.repair) repair(*copy);
  PipelineReport report;
  bool changed = true;
  while (changed && report.rounds < 16) {
    changed = false;
    ++report.rounds;
    for (const Pass* p : options.passes) {
      changed = p->run(*copy) > 0 || changed;
      if (std::optional<std::string> problem = broken(*copy, before, options.check))
        return "the pass " + std::string(p->name) +
               " (a bug in bough) broke the model: " + *problem;
    }
  }
  return "the passes (a bug in bough) broke the model";
}

}  // namespace

Optimized optimize(const ir::Model& source, const PipelineOptions& options,
                   const std::function<void(const ir::Model&, const infer::Inferred&)>& checked) {
  Optimized out;
  out.model = ir::clone_model(source);
  ir::Model& model = *out.model;
  if (options.repair) out.repaired = repair(model);
  infer::Validation v = infer::validate(model, options.check);
  check::throw_first_error(v.diagnostics, model.path, options.lister);
  for (const check::Diagnostic& d : v.diagnostics.all()) out.warnings.push_back(d);
  if (checked) checked(model, v.types);
  if (options.passes.empty()) return out;
  const TypesByName before = types_by_name(model, v.types);
  v = {};
  out.report = run_pipeline(model, options.passes);
  if (broken(model, before, options.check))
    fail(ErrorKind::InvalidModel, model.path, culprit(source, options, before));
  return out;
}

}  // namespace bough::passes
