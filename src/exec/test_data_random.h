// How the test-data runner checks a model that draws random numbers: its values cannot
// match expected files made by another generator (the official Bernoulli tests' come from
// numpy's), so its outputs are checked by type, shape, support and distribution instead.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bough/value.h"
#include "ir/graph.h"

namespace bough {

// Whether a node of a random operator (RandomNormal, RandomUniform, their -Like forms,
// Bernoulli, Multinomial) appears anywhere in the model: the main graph, any subgraph at
// any depth, or a model-local function.
bool holds_random_op(const ir::Model& model);

// A copy of `model` whose random nodes without a `seed` attribute get a fixed one (`base`
// plus the node's count in walking order), so the runner's verdict is the same on every
// run of it.
std::shared_ptr<ir::Model> with_fixed_seeds(const ir::Model& model, uint64_t base);

// What compare_by_distribution checks, in short, for the runner's output.
extern const char* const kDistributionRule;

// "" when `actual` could be a draw of the distribution `expected` was drawn from; otherwise
// what fails. The element type and shape must be the expected ones. Support: where every
// expected element is 0 or 1 (a Bernoulli draw, or a function of one), every actual element
// must be too; where every expected element is finite, every actual one must be. The mean:
// `expected` and `actual` are two independent samples of n draws, so their means differ by
// more than 4 standard errors of the difference (sqrt(2 * variance / n), the variance
// bounded by 1/4 for 0/1 draws, else the pooled sample variance) with probability below
// 1e-4 under the normal approximation: that is the false-failure rate for a correct
// generator. With seeds fixed (with_fixed_seeds) the verdict repeats. Strings, complex
// values and values other than tensors compare exactly.
std::string compare_by_distribution(const Value& expected, const Value& actual);

}  // namespace bough
