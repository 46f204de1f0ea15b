// Writing updates into a copy of data, as ScatterElements and ScatterND do: update run i
// (elements [i*run, (i+1)*run) of `updates`) lands at element dst[i] of the output, replacing
// or combining with what is there (reduction, from opset 16: add, mul; from 18: max, min).
// Later updates apply after earlier ones.
#pragma once

#include <algorithm>
#include <span>
#include <string>

#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

enum class ScatterReduction { None, Add, Mul, Max, Min };

inline ScatterReduction scatter_reduction(const BuildContext& ctx) {
  if (ctx.since < 16) return ScatterReduction::None;
  const std::string r = ctx.attr_string("reduction", "none");
  if (r == "none") return ScatterReduction::None;
  if (r == "add") return ScatterReduction::Add;
  if (r == "mul") return ScatterReduction::Mul;
  if (ctx.since >= 18 && r == "max") return ScatterReduction::Max;
  if (ctx.since >= 18 && r == "min") return ScatterReduction::Min;
  ctx.invalid("unsupported reduction \"" + r + "\"");
}

template <typename T>
T scatter_combine(ScatterReduction r, T old, T update) {
  switch (r) {
    case ScatterReduction::Add:
      return static_cast<T>(old + update);
    case ScatterReduction::Mul:
      return static_cast<T>(old * update);
    case ScatterReduction::Max:
      return std::max(old, update);
    case ScatterReduction::Min:
      return std::min(old, update);
    default:
      return update;
  }
}

// A copy of data (elements of type T) with update run i combined into it at dst[i].
template <typename T, typename Combine>
Tensor apply_updates(const Tensor& data, const Tensor& updates, std::span<const int64_t> dst,
                     int64_t run, Combine combine) {
  Tensor out = data.clone();
  T* o = kernels::elements<T>(out);
  const T* u = kernels::elements<T>(updates);
  for (size_t i = 0; i < dst.size(); ++i)
    for (int64_t j = 0; j < run; ++j)
      o[dst[i] + j] = combine(o[dst[i] + j], u[static_cast<int64_t>(i) * run + j]);
  return out;
}

// The caller has checked every dst[i] + run against data's element count.
inline Tensor scatter_update(const Tensor& data, const Tensor& updates,
                             std::span<const int64_t> dst, int64_t run, ScatterReduction r,
                             const char* name) {
  if (updates.type() != data.type())
    fail(ErrorKind::BadInput, "", "updates and data have different element types");
  if (is_sub_byte(data.type()))
    fail(ErrorKind::Unsupported, "", std::string(name) + " on sub-byte types");
  if (r == ScatterReduction::None)
    return kernels::visit_storage(data.type(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return apply_updates<T>(data, updates, dst, run, [](const T&, const T& v) { return v; });
    });
  return kernels::through_float(
      [&](const Tensor& data, const Tensor& updates) {
        return kernels::visit_numeric(data.type(), name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          return apply_updates<T>(data, updates, dst, run,
                                  [r](T old, T v) { return scatter_combine(r, old, v); });
        });
      },
      data, updates);
}

}  // namespace bough::ops
