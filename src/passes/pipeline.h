// The one driver of the pass pipeline, which sessions, `bough optimize` and the public API
// (bough::optimized) all use: it checks the model, runs the passes, checks it again and
// proves that no pass changed the type of any value that survived it.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "infer/validate.h"
#include "passes/pass.h"

namespace bough::passes {

struct PipelineOptions {
  std::vector<const Pass*> passes;  // in order; empty: the model is only checked
  bool repair = false;              // run the repairs (legalize-if) once, before the check
  infer::ValidateOptions check;     // the check before and after the passes
  std::string_view lister = "`bough check`";  // who lists every error, for messages
};

struct Optimized {
  std::shared_ptr<ir::Model> model;  // the optimized copy
  PipelineReport report;
  int repaired = 0;                         // Ifs the repairs changed
  std::vector<check::Diagnostic> warnings;  // what the check before the passes warned of
};

// Optimizes a copy of `source` (its tensors shared): the repairs when asked, the check (its
// first error thrown, as bough::Error), `checked` called with the copy and its types before
// any pass, the passes, and the check again. After it every value keeps a type compatible
// with the one it had: a value whose type changed, or a new error, is an error (a bug in
// bough) naming the pass that did it, found by replaying the passes one at a time.
Optimized optimize(
    const ir::Model& source, const PipelineOptions& options,
    const std::function<void(const ir::Model&, const infer::Inferred&)>& checked = {});

}  // namespace bough::passes
