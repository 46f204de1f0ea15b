// Loop and Scan against their bodies: the attributes they need and how many inputs and
// outputs each side has. The kernels in exec/control rely on these counts.
#include <string>

#include "check/control_flow_util.h"

namespace bough::check {

namespace {

using K = ir::Attribute::Kind;

// The per-scan-input or per-scan-output list `name`, when given, has one entry each.
void expect_length(const NodeSite& site, const char* name, size_t n) {
  const ir::Attribute* a = attribute(site, name, K::Ints, false);
  if (a && a->ints.size() != n)
    site.out.error(site.place(), "attribute " + std::string(name) + " has " +
                                     std::to_string(a->ints.size()) + " entries, expected " +
                                     std::to_string(n));
}

}  // namespace

// Loop(M, cond, v_initial...) with a body (iteration_num, cond, v...) -> (cond, v..., scan...):
// N = inputs - 2 carried values, body inputs 2+N, body outputs 1+N+K, node outputs N+K.
void check_loop(const NodeSite& site) {
  const ir::Node& n = site.node;
  const ir::Graph* body = graph_attribute(site, "body");
  if (n.inputs.size() < 2) {
    site.out.error(site.place(),
                   "Loop takes at least 2 inputs (M and cond, either may be empty), found " +
                       std::to_string(n.inputs.size()));
    return;
  }
  if (!body) return;
  const size_t carried = n.inputs.size() - 2;
  if (body->inputs.size() != 2 + carried)
    site.out.error(body->path(), "the Loop body takes " + count(body->inputs.size(), "input") +
                                     ", expected " + std::to_string(2 + carried) +
                                     " (iteration number, condition and " +
                                     count(carried, "carried value") + ")");
  if (body->outputs.size() < 1 + carried) {
    site.out.error(body->path(), "the Loop body yields " + count(body->outputs.size(), "output") +
                                     ", expected at least " + std::to_string(1 + carried) +
                                     " (condition and " + count(carried, "carried value") +
                                     ", then scan outputs)");
    return;
  }
  const size_t scans = body->outputs.size() - 1 - carried;
  if (n.outputs.size() != carried + scans)
    site.out.error(site.place(), "Loop has " + count(n.outputs.size(), "output") + ", expected " +
                                     std::to_string(carried + scans) + " (the body yields " +
                                     count(carried, "carried value") + " and " +
                                     count(scans, "scan output") + ")");
  if (body->inputs.size() >= 2) {
    expect_elem(body->inputs[0], ElemType::Int64, body->path(), "iteration number", site.out);
    expect_elem(body->inputs[1], ElemType::Bool, body->path(), "condition", site.out);
  }
  expect_elem(body->outputs[0], ElemType::Bool, body->path(), "condition output", site.out);
}

// Scan(states..., scan_inputs...) with a body (states..., scan elements...) -> (states...,
// scan output elements...): N states and M = num_scan_inputs, body inputs N+M, body outputs
// N+K, node outputs N+K. Scan-8 takes sequence_lens first (and has `directions`).
void check_scan(const NodeSite& site) {
  const ir::Node& n = site.node;
  const bool scan8 = ops::since_of(*ops::find_op("", "Scan"), site.opset) == 8;
  const ir::Graph* body = graph_attribute(site, "body");
  const ir::Attribute* num = attribute(site, "num_scan_inputs", K::Int, true);
  if (!num) return;
  const size_t given = n.inputs.size() - (scan8 && !n.inputs.empty() ? 1 : 0);
  if (num->i < 1 || static_cast<size_t>(num->i) > given) {
    site.out.error(site.place(), "num_scan_inputs is " + std::to_string(num->i) +
                                     ", expected 1 to " + std::to_string(given) +
                                     " (the number of " +
                                     (scan8 ? "inputs after sequence_lens)" : "inputs)"));
    return;
  }
  const auto scan_inputs = static_cast<size_t>(num->i);
  const size_t states = given - scan_inputs;
  expect_length(site, scan8 ? "directions" : "scan_input_directions", scan_inputs);
  if (!scan8) expect_length(site, "scan_input_axes", scan_inputs);
  if (!body) return;
  if (body->inputs.size() != states + scan_inputs)
    site.out.error(body->path(), "the Scan body takes " + count(body->inputs.size(), "input") +
                                     ", expected " + std::to_string(states + scan_inputs) + " (" +
                                     count(states, "state") + " and " +
                                     count(scan_inputs, "scan input") + ")");
  if (body->outputs.size() < states) {
    site.out.error(body->path(), "the Scan body yields " + count(body->outputs.size(), "output") +
                                     ", expected at least " + std::to_string(states) +
                                     " (the states, then scan outputs)");
    return;
  }
  const size_t scans = body->outputs.size() - states;
  if (n.outputs.size() != states + scans)
    site.out.error(site.place(), "Scan has " + count(n.outputs.size(), "output") + ", expected " +
                                     std::to_string(states + scans) + " (the body yields " +
                                     count(states, "state") + " and " +
                                     count(scans, "scan output") + ")");
  if (!scan8) {
    expect_length(site, "scan_output_directions", scans);
    expect_length(site, "scan_output_axes", scans);
  }
}

}  // namespace bough::check
