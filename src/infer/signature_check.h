// The input types of one node against the signature of its schema row.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ops/schema.h"

namespace bough::infer {

// What is wrong with the input types, one message each: an input whose type its type
// variable does not allow, an input whose type differs from an earlier one bound to the same
// variable. Empty when all fit.
std::vector<std::string> check_inputs(const ops::Signature& sig, std::span<const ir::Type> types);
// What is wrong with the output types inference gave: an output its variable does not
// allow (an If branch yielding int4 at If-19, say).
std::vector<std::string> check_outputs(const ops::Signature& sig, std::span<const ir::Type> types);

// Unknown attributes, attributes of the wrong kind, required attributes left out.
std::vector<std::string> check_attributes(const ops::Signature& sig, const ops::NodeView& view);

// Output types the signature alone fixes: an output whose variable is bound by an input
// takes that input's element type (its shape unknown); an output of a single allowed
// element type takes it. Fills only outputs still undefined.
void outputs_from_signature(const ops::Signature& sig, std::span<const ir::Type> inputs,
                            std::vector<ir::Type>& outputs);

}  // namespace bough::infer
