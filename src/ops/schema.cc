#include "ops/schema.h"

#include <stdexcept>
#include <utility>

namespace bough::ops {

namespace {

using K = ir::Type::Kind;

constexpr uint32_t bit(ElemType e) { return 1u << static_cast<unsigned>(e); }

constexpr uint32_t kFloats = bit(ElemType::Float16) | bit(ElemType::Float) | bit(ElemType::Double);
constexpr uint32_t kInts =
    bit(ElemType::Int8) | bit(ElemType::Int16) | bit(ElemType::Int32) | bit(ElemType::Int64);
constexpr uint32_t kUInts =
    bit(ElemType::UInt8) | bit(ElemType::UInt16) | bit(ElemType::UInt32) | bit(ElemType::UInt64);
constexpr uint32_t kNumeric = kFloats | kInts | kUInts;
constexpr uint32_t kFloat8s = bit(ElemType::Float8E4M3FN) | bit(ElemType::Float8E4M3FNUZ) |
                              bit(ElemType::Float8E5M2) | bit(ElemType::Float8E5M2FNUZ);
constexpr uint32_t kAll = kNumeric | bit(ElemType::Bool) | bit(ElemType::String) |
                          bit(ElemType::Complex64) | bit(ElemType::Complex128);
constexpr uint32_t kAllIr4 = kAll | bit(ElemType::BFloat16);
constexpr uint32_t kAllIr9 = kAllIr4 | kFloat8s;
constexpr uint32_t kAllIr10 = kAllIr9 | bit(ElemType::Int4) | bit(ElemType::UInt4);
constexpr uint32_t kAllIr11 = kAllIr10 | bit(ElemType::Float4E2M1);
constexpr uint32_t kAllIr12 = kAllIr11 | bit(ElemType::Float8E8M0);
constexpr uint32_t kAllIr13 = kAllIr12 | bit(ElemType::Int2) | bit(ElemType::UInt2);

constexpr std::pair<std::string_view, uint32_t> kGroups[] = {
    {"floats", kFloats},    {"ints", kInts},        {"uints", kUInts},      {"numeric", kNumeric},
    {"float8s", kFloat8s},  {"all", kAll},          {"all_ir4", kAllIr4},   {"all_ir9", kAllIr9},
    {"all_ir10", kAllIr10}, {"all_ir11", kAllIr11}, {"all_ir12", kAllIr12}, {"all_ir13", kAllIr13},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits at `sep` outside parentheses.
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == sep && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

[[noreturn]] void bad(std::string_view what, std::string_view text) {
  throw std::invalid_argument("signature: " + std::string(what) + " in '" + std::string(text) +
                              "'");
}

uint32_t elems_of(std::string_view word) {
  for (const auto& [name, mask] : kGroups)
    if (word == name) return mask;
  ElemType e;
  if (parse_elem_name(word, &e)) return bit(e);
  bad("unknown type", word);
}

// A wrapper `name(inner)`: returns inner, or nullopt when `word` is not that wrapper.
std::optional<std::string_view> unwrap(std::string_view word, std::string_view name) {
  if (word.size() > name.size() + 1 && word.substr(0, name.size()) == name &&
      word[name.size()] == '(' && word.back() == ')')
    return trim(word.substr(name.size() + 1, word.size() - name.size() - 2));
  return std::nullopt;
}

// Element types listed with spaces, `tensor(...)` around them optional.
uint32_t elems_of_list(std::string_view list) {
  if (auto in = unwrap(list, "tensor")) list = *in;
  uint32_t mask = 0;
  for (std::string_view w : split(list, ' '))
    if (!w.empty()) mask |= elems_of(w);
  return mask;
}

TypeSet parse_set(std::string_view text) {
  TypeSet set;
  for (std::string_view w : split(text, ' ')) {
    if (w.empty()) continue;
    if (w == "any") {
      set.any = true;
    } else if (auto in = unwrap(w, "tensor")) {
      set.tensors |= elems_of_list(*in);
    } else if (auto in = unwrap(w, "seq")) {
      set.sequences |= elems_of_list(*in);
    } else if (auto in = unwrap(w, "optional")) {
      if (auto seq = unwrap(*in, "seq"))
        set.optional_sequences |= elems_of_list(*seq);
      else
        set.optional_tensors |= elems_of_list(*in);
    } else {
      set.tensors |= elems_of(w);
    }
  }
  return set;
}

ir::Attribute::Kind attr_kind(std::string_view word) {
  using A = ir::Attribute::Kind;
  static constexpr std::pair<std::string_view, A> kKinds[] = {
      {"float", A::Float},
      {"int", A::Int},
      {"string", A::String},
      {"tensor", A::Tensor},
      {"graph", A::Graph},
      {"sparse_tensor", A::SparseTensor},
      {"type_proto", A::TypeProto},
      {"floats", A::Floats},
      {"ints", A::Ints},
      {"strings", A::Strings},
      {"tensors", A::Tensors},
      {"graphs", A::Graphs},
      {"sparse_tensors", A::SparseTensors},
      {"type_protos", A::TypeProtos},
  };
  for (const auto& [name, kind] : kKinds)
    if (word == name) return kind;
  bad("unknown attribute kind", word);
}

void parse_formals(std::string_view list, Signature& sig, std::vector<Formal>& out) {
  if (list.empty()) return;
  for (std::string_view item : split(list, ',')) {
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) bad("a formal without a type", item);
    std::string_view name = trim(item.substr(0, colon));
    std::string_view type = trim(item.substr(colon + 1));
    Formal f;
    if (name.ends_with("**")) {
      f.arity = Arity::Heterogeneous;
      name.remove_suffix(2);
    } else if (name.ends_with('*')) {
      f.arity = Arity::Variadic;
      name.remove_suffix(1);
    } else if (name.ends_with('?')) {
      f.arity = Arity::Optional;
      name.remove_suffix(1);
    }
    f.name = std::string(name);
    if (type.find_first_of("( ") != std::string_view::npos) {
      // A set written out: an anonymous variable of its own.
      f.type = "(" + f.name + ")";
      sig.variables.emplace_back(f.type, parse_set(type));
    } else {
      f.type = std::string(type);
    }
    out.push_back(std::move(f));
  }
}

}  // namespace

bool TypeSet::allows(const ir::Type& t) const {
  if (any) return true;
  auto has = [](uint32_t mask, ElemType e) { return e == ElemType::Undefined || (mask & bit(e)); };
  const ir::Type* in = t.inner.get();
  switch (t.kind) {
    case K::Undefined:
      return true;
    case K::Tensor:
      return has(tensors, t.elem);
    case K::Sequence:
      return sequences && (!in || in->kind == K::Undefined ||
                           (in->kind == K::Tensor && has(sequences, in->elem)));
    case K::Optional:
      if (!in || in->kind == K::Undefined) return optional_tensors || optional_sequences;
      if (in->kind == K::Tensor) return has(optional_tensors, in->elem);
      if (in->kind == K::Sequence) {
        const ir::Type* e = in->inner.get();
        return optional_sequences && (!e || e->kind == K::Undefined ||
                                      (e->kind == K::Tensor && has(optional_sequences, e->elem)));
      }
      return false;
    default:
      return false;
  }
}

std::optional<ElemType> TypeSet::single_tensor_elem() const {
  if (any || sequences || optional_tensors || optional_sequences) return std::nullopt;
  for (int code = 1; code <= kLastElemType; ++code)
    if (tensors == (1u << code)) return static_cast<ElemType>(code);
  return std::nullopt;
}

std::string TypeSet::describe() const {
  if (any) return "any type";
  auto list = [](uint32_t mask) {
    for (const auto& [name, group] : kGroups)
      if (mask == group) return std::string(name);
    std::string s;
    for (int code = 1; code <= kLastElemType; ++code)
      if (mask & (1u << code))
        s += (s.empty() ? "" : "|") + std::string(elem_name(static_cast<ElemType>(code)));
    return s;
  };
  std::string s;
  auto add = [&](uint32_t mask, const char* open, const char* close) {
    if (mask) s += (s.empty() ? "" : ", ") + std::string(open) + list(mask) + close;
  };
  add(tensors, "tensor(", ")");
  add(sequences, "seq(tensor(", "))");
  add(optional_tensors, "optional(tensor(", "))");
  add(optional_sequences, "optional(seq(tensor(", ")))");
  return s;
}

std::vector<std::string> TypeSet::type_strings() const {
  if (any) return {"any"};
  std::vector<std::string> out;
  auto add = [&](uint32_t mask, const char* open, const char* close) {
    for (int code = 1; code <= kLastElemType; ++code)
      if (mask & (1u << code))
        out.push_back(open + std::string(elem_name(static_cast<ElemType>(code))) + close);
  };
  add(tensors, "tensor(", ")");
  add(sequences, "seq(tensor(", "))");
  add(optional_tensors, "optional(tensor(", "))");
  add(optional_sequences, "optional(seq(tensor(", ")))");
  return out;
}

const TypeSet* Signature::variable(std::string_view name) const {
  for (const auto& [n, set] : variables)
    if (n == name) return &set;
  return nullptr;
}

const AttrSpec* Signature::attribute(std::string_view name) const {
  for (const auto& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

const Formal* Signature::formal_at(const std::vector<Formal>& formals, size_t index) {
  if (index < formals.size()) return &formals[index];
  if (!formals.empty() && formals.back().arity >= Arity::Variadic) return &formals.back();
  return nullptr;
}

Signature parse_signature(int since, std::string_view text) {
  Signature sig;
  sig.since = since;
  std::vector<std::string_view> sections = split(text, ';');
  size_t arrow = sections[0].find("->");
  if (arrow == std::string_view::npos) bad("no '->'", text);
  parse_formals(trim(sections[0].substr(0, arrow)), sig, sig.inputs);
  parse_formals(trim(sections[0].substr(arrow + 2)), sig, sig.outputs);
  for (size_t s = 1; s < sections.size(); ++s) {
    for (std::string_view item : split(sections[s], ',')) {
      if (item.empty()) continue;
      size_t colon = item.find(':');
      size_t eq = item.find('=');
      if (colon == std::string_view::npos) {  // T = set
        if (eq == std::string_view::npos) bad("neither a variable nor an attribute", item);
        sig.variables.emplace_back(std::string(trim(item.substr(0, eq))),
                                   parse_set(trim(item.substr(eq + 1))));
        continue;
      }
      AttrSpec a;
      a.name = std::string(trim(item.substr(0, colon)));
      std::string_view kind = trim(item.substr(
          colon + 1, eq == std::string_view::npos ? std::string_view::npos : eq - colon - 1));
      a.required = true;
      if (kind.ends_with('?')) {
        kind.remove_suffix(1);
        a.required = false;
      }
      if (eq != std::string_view::npos) {
        a.required = false;
        a.default_text = std::string(trim(item.substr(eq + 1)));
      }
      a.kind = attr_kind(trim(kind));
      sig.attributes.push_back(std::move(a));
    }
  }
  for (const auto* formals : {&sig.inputs, &sig.outputs})
    for (const Formal& f : *formals)
      if (!sig.variable(f.type)) bad("type variable '" + f.type + "' is not defined", text);
  return sig;
}

const ir::Type& InferContext::input_type(size_t i) const {
  static const ir::Type kUnknown;
  return i < input_types_.size() ? input_types_[i] : kUnknown;
}

const ir::Shape& InferContext::input_shape(size_t i) const {
  static const ir::Shape kUnknown;
  const ir::Type& t = input_type(i);
  return t.kind == K::Tensor ? t.shape : kUnknown;
}

void InferContext::set_output(size_t i, ir::Type t) {
  if (i < output_types_.size()) output_types_[i] = std::move(t);
}

void InferContext::set_output_value(size_t i, Tensor value) {
  if (i >= output_types_.size()) return;
  std::vector<ir::Dim> dims;
  for (size_t k = 0; k < value.rank(); ++k) dims.push_back(ir::Dim::known(value.dim(k)));
  output_types_[i] = ir::Type::tensor(value.type(), ir::Shape::of(std::move(dims)));
  output_values_[i] = std::move(value);
}

}  // namespace bough::ops
