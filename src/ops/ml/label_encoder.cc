// ai.onnx.ml LabelEncoder: maps each element to the value paired with its key, or to the
// default. Keys, values and default come from keys_*/values_*/default_* attributes
// (strings, int64s, floats; from version 4 also tensors of any type); missing defaults are
// "_Unused", -1 or -0.0 by the values' type. Float keys match NaN to NaN.
// Version 1 has one list, classes_strings: strings map to their index (default_int64)
// and int64s to the string at that index (default_string).
#include <cmath>
#include <unordered_map>

#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

// The elements of a 1-D key tensor, indexed for lookup by kind of key.
class KeyIndex {
 public:
  explicit KeyIndex(const Tensor& keys) : type_(keys.type()) {
    for (int64_t i = 0; i < keys.numel(); ++i) {
      if (type_ == ElemType::String)
        strings_.emplace(keys.strings()[i], i);
      else if (is_float_type(type_) && std::isnan(keys.get_double(i)))
        nan_ = i;
      else if (is_float_type(type_))
        floats_.emplace(keys.get_double(i), i);
      else
        ints_.emplace(keys.get_int(i), i);
    }
  }
  ElemType type() const { return type_; }
  // Index of element i of x among the keys, -1 when absent; x has the keys' type.
  int64_t find(const Tensor& x, int64_t i) const {
    if (type_ == ElemType::String) return lookup(strings_, x.strings()[i]);
    if (is_float_type(type_)) {
      const double v = x.get_double(i);
      return std::isnan(v) ? nan_ : lookup(floats_, v);
    }
    return lookup(ints_, x.get_int(i));
  }

 private:
  template <typename M, typename K>
  static int64_t lookup(const M& m, const K& k) {
    auto it = m.find(k);
    return it == m.end() ? -1 : it->second;
  }
  ElemType type_;
  std::unordered_map<std::string, int64_t> strings_;
  std::unordered_map<double, int64_t> floats_;
  std::unordered_map<int64_t, int64_t> ints_;
  int64_t nan_ = -1;
};

struct Mapping {
  KeyIndex keys;
  Tensor values;    // 1-D, as long as the keys
  Tensor fallback;  // one element of the values' type
};

class LabelEncoder : public Kernel {
 public:
  explicit LabelEncoder(std::vector<Mapping> maps) : maps_(std::move(maps)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Mapping* m = nullptr;
    for (const Mapping& c : maps_)
      if (c.keys.type() == x.type()) m = &c;
    if (!m)
      fail(ErrorKind::BadInput, "",
           "LabelEncoder has no keys of element type " + std::string(elem_name(x.type())));
    Tensor y(m->values.type(), x.shape());
    kernels::visit_storage(y.type(), "LabelEncoder", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* values = kernels::elements<T>(m->values);
      const T& fallback = *kernels::elements<T>(m->fallback);
      T* out = kernels::elements<T>(y);
      for (int64_t i = 0; i < x.numel(); ++i) {
        const int64_t k = m->keys.find(x, i);
        out[i] = k < 0 ? fallback : values[k];
      }
    });
    io.set_output(0, std::move(y));
  }

 private:
  std::vector<Mapping> maps_;
};

Tensor strings(const std::vector<std::string>& v) {
  return Tensor::from_vector(ElemType::String, Dims{static_cast<int64_t>(v.size())}, v);
}
Tensor int64s(const std::vector<int64_t>& v) {
  return Tensor::from_vector(ElemType::Int64, Dims{static_cast<int64_t>(v.size())}, v);
}
Tensor floats(const std::vector<float>& v) {
  return Tensor::from_vector(ElemType::Float, Dims{static_cast<int64_t>(v.size())}, v);
}

// The one list among `prefix`{strings, int64s, floats, tensor} that the node has.
Tensor list_attr(const BuildContext& ctx, const std::string& prefix) {
  std::vector<Tensor> found;
  if (const ir::Attribute* a = ctx.attr(prefix + "strings")) found.push_back(strings(a->strings));
  if (const ir::Attribute* a = ctx.attr(prefix + "int64s")) found.push_back(int64s(a->ints));
  if (const ir::Attribute* a = ctx.attr(prefix + "floats")) found.push_back(floats(a->floats));
  if (ctx.since >= 4)
    if (const ir::Attribute* a = ctx.attr(prefix + "tensor")) found.push_back(a->t);
  if (found.size() != 1) ctx.invalid("LabelEncoder needs exactly one " + prefix + "* attribute");
  return found[0].reshaped(Dims{found[0].numel()});
}

Tensor default_for(const BuildContext& ctx, ElemType t) {
  if (ctx.since >= 4)
    if (const ir::Attribute* a = ctx.attr("default_tensor")) {
      if (a->t.type() != t || a->t.numel() != 1)
        ctx.invalid("default_tensor must hold one value of the values' type");
      return a->t;
    }
  if (t == ElemType::String) return strings({ctx.attr_string("default_string", "_Unused")});
  if (t == ElemType::Int64) return int64s({ctx.attr_int("default_int64", -1)});
  if (t == ElemType::Float) return floats({ctx.attr_float("default_float", -0.0f)});
  if (is_float_type(t))
    return kernels::cast(Tensor::from_vector(ElemType::Double, Dims{1}, std::vector<double>{-0.0}),
                         t);
  return kernels::cast(int64s({-1}), t);
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::vector<Mapping> maps;
  if (ctx.since < 2) {
    const ir::Attribute* classes = ctx.attr("classes_strings");
    const std::vector<std::string> names = classes ? classes->strings : std::vector<std::string>{};
    std::vector<int64_t> index(names.size());
    for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<int64_t>(i);
    maps.push_back(
        {KeyIndex(strings(names)), int64s(index), int64s({ctx.attr_int("default_int64", -1)})});
    maps.push_back({KeyIndex(int64s(index)), strings(names),
                    strings({ctx.attr_string("default_string", "_Unused")})});
    return std::make_unique<LabelEncoder>(std::move(maps));
  }
  const Tensor keys = list_attr(ctx, "keys_");
  const Tensor values = list_attr(ctx, "values_");
  if (keys.numel() != values.numel()) ctx.invalid("keys and values differ in length");
  maps.push_back({KeyIndex(keys), values, default_for(ctx, values.type())});
  return std::make_unique<LabelEncoder>(std::move(maps));
}

// X's shape; the element type of the values_* attribute (version 1: string <-> int64).
void infer(InferContext& ctx) {
  ElemType out = ElemType::Undefined;
  if (ctx.since < 2) {
    if (ctx.input_elem(0) == ElemType::String) out = ElemType::Int64;
    if (ctx.input_elem(0) == ElemType::Int64) out = ElemType::String;
  } else {
    int found = 0;
    if (ctx.has_attr("values_strings")) out = ElemType::String, ++found;
    if (ctx.has_attr("values_int64s")) out = ElemType::Int64, ++found;
    if (ctx.has_attr("values_floats")) out = ElemType::Float, ++found;
    if (ctx.since >= 4)
      if (const ir::Attribute* a = ctx.attr("values_tensor")) out = a->t.type(), ++found;
    if (found != 1) ctx.invalid("LabelEncoder needs exactly one values_* attribute");
  }
  infer_shape_of_first(ctx, out);
}
}  // namespace

OpDef def_MlLabelEncoder() {
  static constexpr SignatureText kRows[] = {
      {1,
       "X: T1 -> Y: T2; T1 = int64 string, T2 = int64 string; classes_strings: strings?, "
       "default_int64: int = -1, default_string: string = _Unused"},
      {2,
       "X: T1 -> Y: T2; T1 = float int64 string, T2 = float int64 string; default_float: float = "
       "-0.0, default_int64: int = -1, default_string: string = _Unused, keys_floats: floats?, "
       "keys_int64s: ints?, keys_strings: strings?, values_floats: floats?, values_int64s: ints?, "
       "values_strings: strings?"},
      {4,
       "X: T1 -> Y: T2; T1 = string int64 float int32 int16 double, T2 = string int64 float int32 "
       "int16 double; default_float: float = -0.0, default_int64: int = -1, default_string: "
       "string = _Unused, default_tensor: tensor?, keys_floats: floats?, keys_int64s: ints?, "
       "keys_strings: strings?, keys_tensor: tensor?, values_floats: floats?, values_int64s: "
       "ints?, values_strings: strings?, values_tensor: tensor?"}};
  return def_from_rows("ai.onnx.ml", "LabelEncoder", make, infer, kRows);
}

}  // namespace bough::ops
