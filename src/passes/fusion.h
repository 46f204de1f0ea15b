// What the fusion passes (and others reading inferred types) share: the static type inference
// gives a value, the transposes they fold, and the check that a new node keeps its output's
// type. Whether a value may be fused away is passes/readers.h's.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "infer/infer.h"
#include "ir/graph.h"
#include "passes/readers.h"

namespace bough::passes {

// The types inference gives the values of a model, inferred on first use: a pass none of
// whose candidates passes the structural test (an operator pattern, its readers) never infers.
// The first use comes before the pass rewrites anything, as every rewrite asks a type first.
class ModelTypes {
 public:
  explicit ModelTypes(const ir::Model& model) : model_(model) {}
  const infer::Inferred& all() const;

 private:
  const ir::Model& model_;
  mutable std::optional<infer::Inferred> inferred_;
};

// Whether `n` is the ai.onnx operator `op_type` with `inputs` inputs and one output, all present.
bool is_op(const ir::Node& n, std::string_view op_type, size_t inputs);

// The rank of `e` when inference knows it to be a tensor of known rank; -1 otherwise.
int rank_of(const ModelTypes& types, const ir::Edge* e);

// The shape of `e` when inference knows it to be a float tensor of known rank; null otherwise.
const ir::Shape* float_shape(const ModelTypes& types, const ir::Edge* e);

// The node of the readers' graph producing `e` when it is a 2-D transpose (perm [1, 0], or no
// perm on a rank-2 input) read only by `reader`; null otherwise.
const ir::Node* fusable_transpose_2d(const Readers& readers, const ModelTypes& types,
                                     const ir::Edge* e, const ir::Node& reader);

// ONNX Runtime's contrib domain, which the fusions write some of their operators in.
inline constexpr const char* kMicrosoftDomain = "com.microsoft";

// A model being rewritten and the types inference gives its values before the rewrite: what
// a replacement is checked against.
struct Rewriting {
  const ir::Model& model;
  const ModelTypes& types;
};

// Runs `fuse` (a graph and the model being rewritten -> fusions made) on every graph of a
// model, for fusions that write com.microsoft operators of version 1 (ONNX Runtime's): none
// when the model imports that domain at another version, and the import added when any was
// made. The number made.
int fuse_into_microsoft(ir::Model& model,
                        const std::function<int(ir::Graph&, const Rewriting&)>& fuse);

// Makes the new node `n`, its inputs and attributes set, produce `e` as its output `index`
// in place of e's old producer. Refused when the type `n` computes for `e` is not compatible
// with the type `e` had: an error naming the node and both types (a bug in the pass, caught
// by its first test instead of in a user's model), as a rewrite never changes what a value is.
void replace_producer(const Rewriting& rw, ir::Node& n, size_t index, ir::Edge* e);

// replace_producer's check for a node a pass changed in place (its inputs or attributes).
void require_types_kept(const Rewriting& rw, const ir::Node& n);

// Sets (or adds) the int attribute `name` of `n`.
void set_int_attr(ir::Node& n, const std::string& name, int64_t value);

}  // namespace bough::passes
