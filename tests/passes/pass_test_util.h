// Shared by the pass tests: optimizing a saved model with real files and the real reader and
// writer, counting operators, and running a model without the session's own passes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bough/session.h"
#include "ir/graph.h"
#include "model_builder.h"

namespace bough::test {

// Saves the model of `g` (at opset 17) as scratch_dir(name)/NAME.onnx; returns the path.
std::string save_scratch(const GraphBuilder& g, const std::string& name);

// Reads `path`, runs the passes named (all of the basic pipeline when empty) to a fixed
// point, writes the result beside it as NAME.opt.onnx and returns that path.
std::string optimize_file(const std::string& path, const std::vector<std::string>& pass_names = {});

// The line `bough optimize` prints for `pass` having made `changes` changes (up to the time).
std::string report_line(const std::string& pass, int changes);

// Saves `g` at `opset`, compares `bough info` of it with tests/golden/passes/PASS.before.txt,
// runs `bough optimize IN OUT --passes PASS EXTRA`, expects `report` in what it prints and
// compares `bough info` of OUT with PASS.after.txt; returns OUT's path.
std::string check_golden(const GraphBuilder& g, const std::string& pass, const std::string& report,
                         const std::string& extra = "", int64_t opset = 17);

// How many nodes of `op_type` the model holds, at any depth.
int count_ops(const std::string& path, const std::string& op_type);

// Runs the model at `path` on `inputs` with no session passes (what is run is the file).
std::vector<Tensor> run_plain(const std::string& path, const NamedTensors& inputs);

}  // namespace bough::test
