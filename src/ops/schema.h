// Operator schemas: what each schema row of an operator accepts, written as one line of
// text beside its kernel, and the inference function that gives its output types.
//
// A signature reads
//
//   "A: T, B: T -> C: T; T = numeric bfloat16"
//   "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir4; allowzero: int = 0"
//
// Sections are separated by `;`. The first holds the formal inputs and outputs:
// `name: T` is one value, `name?: T` an optional one, `name*: T` one or more values of one
// type, `name**: T` one or more values each of its own type. T is a type variable (all
// formals naming it take the same type) or a set written out, such as `tensor(int64)`. The
// other sections hold, comma-separated, the type variables (`T = set`) and the attributes
// (`name: kind` required, `name: kind?` optional, `name: kind = default`).
//
// A set is a space-separated list of element types (`float`, `int64`, ...), groups
// (`floats` = float16 float double; `ints` = int8..int64; `uints` = uint8..uint64;
// `numeric` = floats ints uints; `float8s` = the four float8 types of opset 19; `all` =
// numeric bool string complex64 complex128; `all_ir4` = all bfloat16; `all_ir9` adds
// float8s, `all_ir10` int4 uint4, `all_ir11` float4e2m1, `all_ir12` float8e8m0, `all_ir13`
// int2 uint2) and wrappers `tensor(set)`, `seq(set)`, `optional(set)` (of tensors),
// `optional(seq(set))`; `any` allows every type (maps, say).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bough/value.h"
#include "ir/types.h"
#include "ops/node_view.h"

namespace bough::ops {

// The types a type variable may take, as element-type bit masks per kind of value.
struct TypeSet {
  uint32_t tensors = 0;
  uint32_t sequences = 0;           // seq(tensor(e))
  uint32_t optional_tensors = 0;    // optional(tensor(e))
  uint32_t optional_sequences = 0;  // optional(seq(tensor(e)))
  bool any = false;

  // Whether a value of type `t` may take this variable; parts of `t` not known yet
  // (an undefined element type or type) are allowed.
  bool allows(const ir::Type& t) const;
  // The only element type the set allows for tensors (and no other kind), if there is one.
  std::optional<ElemType> single_tensor_elem() const;
  // "tensor(float16|float|double), seq(tensor(float))".
  std::string describe() const;
  // Every type the set allows, one ONNX type string each ("tensor(float)",
  // "optional(seq(tensor(int64)))"); "any" when it allows anything.
  std::vector<std::string> type_strings() const;
};

enum class Arity : uint8_t { Single, Optional, Variadic, Heterogeneous };

struct Formal {
  std::string name;
  std::string type;  // the type variable; an anonymous one for a set written out
  Arity arity = Arity::Single;
};

struct AttrSpec {
  std::string name;
  ir::Attribute::Kind kind = ir::Attribute::Kind::Undefined;
  bool required = false;
  std::string default_text;  // as written in the signature; empty when none
};

struct Signature {
  int since = 1;
  std::vector<Formal> inputs, outputs;
  std::vector<std::pair<std::string, TypeSet>> variables;
  std::vector<AttrSpec> attributes;

  const TypeSet* variable(std::string_view name) const;
  const AttrSpec* attribute(std::string_view name) const;
  // The formal that value `index` of `formals` falls to (variadics take the rest).
  static const Formal* formal_at(const std::vector<Formal>& formals, size_t index);
};

// Throws std::invalid_argument naming the offending piece: signatures are written by us,
// and a registry test parses every one.
Signature parse_signature(int since, std::string_view text);

struct SignatureText {
  int since;
  std::string_view text;
};

// What an inference function sees: the node's view, its input types, the input values
// known before running (initializers, constants, small shape computations) and where to put
// the output types. Subgraphs (If, Loop, Scan) are inferred through the walker.
class InferContext : public NodeView {
 public:
  InferContext(const NodeView& view, std::span<const ir::Type> input_types,
               std::span<const Tensor* const> input_values, size_t num_outputs)
      : NodeView(view),
        input_types_(input_types),
        input_values_(input_values),
        output_types_(num_outputs),
        output_values_(num_outputs) {}
  virtual ~InferContext() = default;

  size_t num_inputs() const { return input_types_.size(); }
  size_t num_outputs() const { return output_types_.size(); }
  // Whether input i is given (not omitted).
  bool has_input(size_t i) const { return i < node.inputs.size() && node.inputs[i]; }
  // The type of input i; undefined when omitted or not known.
  const ir::Type& input_type(size_t i) const;
  ElemType input_elem(size_t i) const { return input_type(i).elem; }
  // The shape of tensor input i; unknown rank when not known.
  const ir::Shape& input_shape(size_t i) const;
  // The value of input i when known before running, else null.
  const Tensor* input_value(size_t i) const {
    return i < input_values_.size() ? input_values_[i] : nullptr;
  }

  void set_output(size_t i, ir::Type t);
  void set_output_tensor(size_t i, ElemType elem, ir::Shape shape) {
    set_output(i, ir::Type::tensor(elem, std::move(shape)));
  }
  // A value known before running (Shape of a tensor of known dims, say); also its type.
  void set_output_value(size_t i, Tensor value);
  const ir::Type& output_type(size_t i) const { return output_types_.at(i); }
  std::vector<ir::Type>& output_types() { return output_types_; }
  std::vector<std::optional<Tensor>>& output_values() { return output_values_; }

  // The output types of a subgraph given the types of its formal inputs; its captures take
  // the types already inferred for the values they read. Problems inside it are reported
  // at their own places.
  virtual std::vector<ir::Type> infer_subgraph(const ir::Graph& graph,
                                               const std::vector<ir::Type>& inputs) = 0;
  // A problem found while inference goes on (one per output of an If, say); invalid()
  // stops this node's inference instead.
  virtual void error(const std::string& message) = 0;
  // A declared shape that inference contradicts: an error for `bough check`, a warning
  // when the model is about to run (it runs by the shapes it meets).
  virtual void shape_conflict(const std::string& message) = 0;

 private:
  std::span<const ir::Type> input_types_;
  std::span<const Tensor* const> input_values_;
  std::vector<ir::Type> output_types_;
  std::vector<std::optional<Tensor>> output_values_;
};

using InferFn = void (*)(InferContext&);

}  // namespace bough::ops
