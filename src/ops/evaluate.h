// Runs one node on values known before running — for constant folding and for the shape
// computations inference propagates — with the engine's own kernel, built on its own
// outside any plan and run on the calling thread.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "bough/value.h"
#include "ops/node_view.h"
#include "ops/registry.h"

namespace bough::ops {

// Whether evaluate() may run a node of this operator: not one holding subgraphs (they need
// a plan), not a random one (its value is not known before running).
bool evaluable(const OpDef& def);

// Whether operator `name` of `domain` draws random numbers (its OpDef is nondeterministic).
// Dropout draws only in training, and is not.
bool is_random_op(std::string_view domain, std::string_view name);

// The node's outputs (an omitted output stays the empty optional) from its inputs (the
// empty optional for an omitted one). Throws bough::Error as the kernel does.
std::vector<Value> evaluate(const OpDef& def, const NodeView& view, std::span<const Value> inputs);

}  // namespace bough::ops
