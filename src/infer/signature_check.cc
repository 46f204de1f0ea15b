#include "infer/signature_check.h"

#include <map>

namespace bough::infer {

namespace {

using K = ir::Type::Kind;

// The same kind of value with the same element types; shapes do not matter here.
bool same_type(const ir::Type& a, const ir::Type& b) {
  if (a.kind != b.kind || a.elem != b.elem) return false;
  if (!a.inner || !b.inner) return true;
  return same_type(*a.inner, *b.inner);
}

// Whether every part of the type is known (an unknown part binds nothing).
bool fully_known(const ir::Type& t) {
  if (t.kind == K::Undefined) return false;
  if (t.kind == K::Tensor) return t.elem != ElemType::Undefined;
  return !t.inner || fully_known(*t.inner);
}

// The type without its shape: "tensor(float)", "seq(tensor(int64))".
std::string type_name(const ir::Type& t) {
  switch (t.kind) {
    case K::Tensor:
      return "tensor(" + std::string(elem_name(t.elem)) + ")";
    case K::Sequence:
      return "seq(" + (t.inner ? type_name(*t.inner) : "?") + ")";
    case K::Optional:
      return "optional(" + (t.inner ? type_name(*t.inner) : "?") + ")";
    default:
      return ir::to_string(t);
  }
}

std::string formal_label(size_t index, const ops::Formal& f, const char* what = "input") {
  return std::string(what) + " " + std::to_string(index) + " (" + f.name + ")";
}

std::string not_allowed(const std::string& label, const ops::Formal& f, const ir::Type& t,
                        const ops::TypeSet& set) {
  bool anonymous = f.type.front() == '(';
  return label + " has type " + type_name(t) +
         (anonymous ? ", expected " : "; " + f.type + " allows ") + set.describe();
}

}  // namespace

std::vector<std::string> check_inputs(const ops::Signature& sig, std::span<const ir::Type> types) {
  std::vector<std::string> problems;
  std::map<std::string, size_t> bound;  // variable -> the input that fixed it
  for (size_t i = 0; i < types.size(); ++i) {
    const ir::Type& t = types[i];
    const ops::Formal* f = ops::Signature::formal_at(sig.inputs, i);
    if (!f || !t.defined()) continue;
    const ops::TypeSet& set = *sig.variable(f->type);
    if (!set.allows(t)) {
      problems.push_back(not_allowed(formal_label(i, *f), *f, t, set));
      continue;
    }
    if (f->arity == ops::Arity::Heterogeneous || !fully_known(t)) continue;
    auto [it, first] = bound.try_emplace(f->type, i);
    if (first) continue;
    const ir::Type& other = types[it->second];
    if (!same_type(t, other)) {
      const ops::Formal& first = *ops::Signature::formal_at(sig.inputs, it->second);
      problems.push_back(formal_label(i, *f) + " has type " + type_name(t) + ", but " +
                         formal_label(it->second, first) + " has " + type_name(other) +
                         "; both are " + f->type);
    }
  }
  return problems;
}

std::vector<std::string> check_outputs(const ops::Signature& sig, std::span<const ir::Type> types) {
  std::vector<std::string> problems;
  for (size_t o = 0; o < types.size(); ++o) {
    const ops::Formal* f = ops::Signature::formal_at(sig.outputs, o);
    if (!f) continue;
    const ops::TypeSet& set = *sig.variable(f->type);
    if (!set.allows(types[o]))
      problems.push_back(not_allowed(formal_label(o, *f, "output"), *f, types[o], set));
  }
  return problems;
}

std::vector<std::string> check_attributes(const ops::Signature& sig, const ops::NodeView& view) {
  std::vector<std::string> problems;
  for (const ir::Attribute& a : view.node.attributes) {
    const ops::AttrSpec* spec = sig.attribute(a.name);
    if (!spec) {
      problems.push_back("unknown attribute '" + a.name + "'");
      continue;
    }
    // Inside a function body the kind is the caller's, checked where the call is.
    const ir::Attribute* bound = view.attr(a.name);
    if (bound && bound->kind != spec->kind)
      problems.push_back("attribute '" + a.name + "' is " + ir::describe(bound->kind) +
                         ", expected " + ir::describe(spec->kind));
  }
  for (const ops::AttrSpec& spec : sig.attributes)
    if (spec.required && !view.node.attr(spec.name))
      problems.push_back("missing required attribute '" + spec.name + "'");
  return problems;
}

void outputs_from_signature(const ops::Signature& sig, std::span<const ir::Type> inputs,
                            std::vector<ir::Type>& outputs) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (outputs[o].defined()) continue;
    const ops::Formal* f = ops::Signature::formal_at(sig.outputs, o);
    if (!f || f->arity == ops::Arity::Heterogeneous) continue;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ops::Formal* in = ops::Signature::formal_at(sig.inputs, i);
      if (in && in->type == f->type && in->arity != ops::Arity::Heterogeneous &&
          fully_known(inputs[i])) {
        outputs[o] = inputs[i];
        if (outputs[o].kind == K::Tensor) outputs[o].shape = ir::Shape::unknown_rank();
        break;
      }
    }
    if (outputs[o].defined()) continue;
    if (auto e = sig.variable(f->type)->single_tensor_elem()) outputs[o] = ir::Type::tensor(*e);
  }
}

}  // namespace bough::infer
