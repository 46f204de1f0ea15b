// Pieces shared by the quantization operators (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul, MatMulInteger, ConvInteger): arithmetic precision,
// writing a quantized value, where a scale or zero point applies, zero-point subtraction.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bough/error.h"
#include "bough/tensor.h"
#include "ir/float_formats.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "util/thread_pool.h"

namespace bough::ops::quant {

[[noreturn]] inline void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

inline std::string type_name(ElemType t) { return std::string(elem_name(t)); }

// The type an operation is carried out in: every intermediate result is rounded to it.
enum class Precision { Float, Half, BFloat16, Double };

// The precision a value type implies: float16 and bfloat16 their own, float float, and
// double (exact for every int32) otherwise.
inline Precision precision_of(ElemType t) {
  switch (t) {
    case ElemType::Float:
      return Precision::Float;
    case ElemType::Float16:
      return Precision::Half;
    case ElemType::BFloat16:
      return Precision::BFloat16;
    default:
      return Precision::Double;
  }
}

// `v` rounded to the nearest value of precision `p` (to nearest even).
inline double round_to(double v, Precision p) {
  switch (p) {
    case Precision::Float:
      return static_cast<float>(v);
    case Precision::Half:
      return half_to_float(float_to_half(static_cast<float>(v)));
    case Precision::BFloat16:
      return bfloat16_to_float(float_to_bfloat16(static_cast<float>(v)));
    case Precision::Double:
      break;
  }
  return v;
}

// The types a quantizing operator may produce.
inline bool is_quantized_type(ElemType t) {
  switch (t) {
    case ElemType::UInt8:
    case ElemType::Int8:
    case ElemType::UInt16:
    case ElemType::Int16:
    case ElemType::UInt4:
    case ElemType::Int4:
    case ElemType::UInt2:
    case ElemType::Int2:
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
    case ElemType::Float4E2M1:
      return true;
    default:
      return false;
  }
}

// fn(kernels::Tag<T>{}) and true when `t` is an integer type of 8 or 16 bits (T its C++
// type); false, without calling fn, for any other type.
template <typename F>
bool visit_int8_or_16(ElemType t, F&& fn) {
  switch (t) {
    case ElemType::UInt8:
      return fn(kernels::Tag<uint8_t>{}), true;
    case ElemType::Int8:
      return fn(kernels::Tag<int8_t>{}), true;
    case ElemType::UInt16:
      return fn(kernels::Tag<uint16_t>{}), true;
    case ElemType::Int16:
      return fn(kernels::Tag<int16_t>{}), true;
    default:
      return false;
  }
}

// An output tensor for `type`; sub-byte types start zeroed so packing can OR fields in.
inline Tensor new_output(ElemType type, const Dims& shape) {
  return is_sub_byte(type) ? Tensor::zeros(type, shape) : Tensor(type, shape);
}

// Writes y = saturate(q + zero_point) into element i of a quantized tensor, q being the scaled
// value x / scale. Integer types: q rounds to nearest even, then the sum clamps to the type's
// range (NaN gives 0). float8: Cast's conversion with `saturate`. float4e2m1: Cast's
// conversion (always saturating).
class QuantizedWriter {
 public:
  QuantizedWriter(ElemType type, bool saturate) : type_(type), saturate_(saturate) {
    const bool integer = visit_int8_or_16(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      lo_ = std::numeric_limits<T>::min(), hi_ = std::numeric_limits<T>::max();
    });
    if (!integer && !is_quantized_type(type)) bad("cannot quantize to " + type_name(type));
  }

  void operator()(Tensor& out, int64_t i, double q, double zero_point) const {
    const bool integer = visit_int8_or_16(type_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      out.data<T>()[i] = static_cast<T>(to_int(q, zero_point));
    });
    if (integer) return;
    switch (type_) {
      case ElemType::UInt4:
      case ElemType::Int4:
        set_packed(out.data<uint8_t>(), i, 4,
                   saturate_to_small_int(type_, std::nearbyint(q) + zero_point));
        return;
      case ElemType::UInt2:
      case ElemType::Int2:
        set_packed(out.data<uint8_t>(), i, 2,
                   saturate_to_small_int(type_, std::nearbyint(q) + zero_point));
        return;
      case ElemType::Float4E2M1:
        set_packed(out.data<uint8_t>(), i, 4,
                   float_to_float4e2m1(static_cast<float>(q + zero_point)));
        return;
      default:  // the float8 types
        out.data<uint8_t>()[i] =
            float_to_float8(type_, static_cast<float>(q + zero_point), saturate_);
    }
  }

 private:
  int32_t to_int(double q, double zero_point) const {
    const double r = std::nearbyint(q) + zero_point;
    if (std::isnan(r)) return 0;
    return static_cast<int32_t>(std::clamp(r, lo_, hi_));
  }

  ElemType type_;
  bool saturate_;
  double lo_ = 0, hi_ = 0;
};

// Element values of a (small) tensor as doubles.
inline std::vector<double> values(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = t.get_double(i);
  return v;
}

// Where the scale / zero point of QuantizeLinear and DequantizeLinear applies. x is viewed as
// [outer, axis_dim, inner] around the quantization axis; element (o, k, j) uses parameter
// o * so + (k / block) * sk + j * sj:
//   per tensor (one value):            so = sk = sj = 0
//   per axis (1-D, length axis_dim):   sk = 1
//   blocked (x's rank, axis dim ceil(axis_dim / block)): so = blocks * inner, sk = inner, sj = 1
struct ParamLayout {
  int64_t outer = 1, axis_dim = 1, inner = 1;
  int64_t so = 0, sk = 0, sj = 0, block = 1;
  int64_t index(int64_t o, int64_t k, int64_t j) const {
    return o * so + (k / block) * sk + j * sj;
  }
};

// Calls fn(i, p) for every element i of x with its parameter index p, splitting the elements
// over the pool in chunks whose bounds are multiples of `align` (so that threads writing a
// packed sub-byte output never share a byte). fn must not throw.
template <typename F>
void for_each_element(const ParamLayout& L, int64_t align, util::ThreadPool& pool, F&& fn) {
  const int64_t n = L.outer * L.axis_dim * L.inner;
  const int64_t units = (n + align - 1) / align;
  pool.parallel_for(
      units, util::grain_for(align * kernels::kElementWork), [&](int64_t s, int64_t e) {
        int64_t i = s * align;
        const int64_t end = std::min(n, e * align);
        if (i >= end) return;
        int64_t j = i % L.inner, k = (i / L.inner) % L.axis_dim, o = i / L.inner / L.axis_dim;
        for (; i < end; ++i) {
          fn(i, L.index(o, k, j));
          if (++j == L.inner) {
            j = 0;
            if (++k == L.axis_dim) k = 0, ++o;
          }
        }
      });
}

// `op` names the operator in errors; `axis` is the attribute (not yet normalized).
inline ParamLayout param_layout(const char* op, const Dims& x, const Dims& scale, int64_t axis,
                                int64_t block_size) {
  ParamLayout L;
  L.axis_dim = x.numel();
  if (scale.numel() == 1) return L;  // per tensor: a scalar or any one-element tensor
  const int64_t rank = static_cast<int64_t>(x.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    bad(std::string(op) + ": axis " + std::to_string(axis) +
        " is out of range for input of shape " + shape_string(x));
  L.outer = 1;
  for (int64_t d = 0; d < a; ++d) L.outer *= x[static_cast<size_t>(d)];
  L.axis_dim = x[static_cast<size_t>(a)];
  L.inner = 1;
  for (int64_t d = a + 1; d < rank; ++d) L.inner *= x[static_cast<size_t>(d)];
  if (block_size <= 0) {
    if (scale.size() != 1 || scale[0] != L.axis_dim)
      bad(std::string(op) + ": scale of shape " + shape_string(scale) +
          " is neither a scalar nor a 1-D tensor of length " + std::to_string(L.axis_dim) +
          " (axis " + std::to_string(a) + " of " + shape_string(x) + ")");
    L.sk = 1;
    return L;
  }
  const int64_t blocks = (L.axis_dim + block_size - 1) / block_size;
  bool ok = static_cast<int64_t>(scale.size()) == rank;
  for (int64_t d = 0; ok && d < rank; ++d)
    ok = scale[static_cast<size_t>(d)] == (d == a ? blocks : x[static_cast<size_t>(d)]);
  if (!ok)
    bad(std::string(op) + ": for blocked quantization of " + shape_string(x) + " along axis " +
        std::to_string(a) + " with block_size " + std::to_string(block_size) +
        ", the scale must have shape " +
        [&] {
          Dims want = x;
          want[static_cast<size_t>(a)] = blocks;
          return shape_string(want);
        }() +
        ", got " + shape_string(scale));
  L.block = block_size;
  L.so = blocks * L.inner;
  L.sk = L.inner;
  L.sj = 1;
  return L;
}

// Checks that a zero point fits its scale: the same number of values (a scalar and a
// one-element 1-D tensor are interchangeable).
inline void check_zero_point_shape(const char* op, const Tensor& scale, const Tensor& zero_point) {
  if (zero_point.shape() == scale.shape() || (scale.numel() == 1 && zero_point.numel() == 1))
    return;
  bad(std::string(op) + ": zero point of shape " + shape_string(zero_point.shape()) +
      " does not match the scale's shape " + shape_string(scale.shape()));
}

// Walks `shape` in row-major order, keeping the matching offset into each of a few parameter
// tensors broadcast against it (numpy rules, aligned at the right).
class Odometer {
 public:
  Odometer(const Dims& shape, std::span<const Dims* const> params)
      : rank_(shape.size()),
        dims_(shape.begin(), shape.end()),
        coord_(rank_, 0),
        strides_(params.size(), std::vector<int64_t>(rank_, 0)),
        offsets_(params.size(), 0) {
    for (size_t k = 0; k < params.size(); ++k) {
      const Dims& p = *params[k];
      if (p.size() > rank_)
        bad("parameter of shape " + shape_string(p) + " does not broadcast to " +
            shape_string(shape));
      int64_t stride = 1;
      for (size_t i = 0; i < p.size(); ++i) {
        const size_t pd = p.size() - 1 - i, d = rank_ - 1 - i;
        if (p[pd] != 1 && p[pd] != dims_[d])
          bad("parameter of shape " + shape_string(p) + " does not broadcast to " +
              shape_string(shape));
        if (p[pd] != 1) strides_[k][d] = stride;
        stride *= p[pd];
      }
    }
  }
  int64_t offset(size_t k) const { return offsets_[k]; }
  void next() {
    for (size_t d = rank_; d-- > 0;) {
      for (size_t k = 0; k < offsets_.size(); ++k) offsets_[k] += strides_[k][d];
      if (++coord_[d] < dims_[d]) return;
      for (size_t k = 0; k < offsets_.size(); ++k) offsets_[k] -= coord_[d] * strides_[k][d];
      coord_[d] = 0;
    }
  }

 private:
  size_t rank_;
  std::vector<int64_t> dims_, coord_;
  std::vector<std::vector<int64_t>> strides_;
  std::vector<int64_t> offsets_;
};

// For QLinearMatMul and MatMulInteger: the shape a per-row (of `a`) or per-column (of `b`)
// parameter broadcasts with. One value: a scalar. A 1-D tensor: [M, 1] for rows (M = rows of
// a) or [1, N] for columns (N = columns of b). Otherwise the parameter's own shape, which must
// broadcast to the operand (e.g. [D, M, 1] or [D, 1, N]).
inline Dims matmul_param_shape(const char* op, const char* what, const Tensor& param,
                               const Tensor& operand, bool per_row) {
  if (param.numel() == 1) return Dims{};
  const size_t r = operand.rank();
  if (r < 2)
    bad(std::string(op) + ": " + what + " must be a scalar for a 1-D operand, got shape " +
        shape_string(param.shape()));
  if (param.rank() == 1) {
    const int64_t want = per_row ? operand.dim(r - 2) : operand.dim(r - 1);
    if (param.dim(0) != want)
      bad(std::string(op) + ": " + what + " has " + std::to_string(param.dim(0)) +
          " values, expected 1 or " + std::to_string(want));
    return per_row ? Dims{want, 1} : Dims{1, want};
  }
  const Dims& s = param.shape();
  const bool fits = s.size() <= r && s[s.size() - (per_row ? 1 : 2)] == 1;
  if (!fits)
    bad(std::string(op) + ": " + what + " of shape " + shape_string(s) + " is not per-" +
        (per_row ? "row" : "column") + " for an operand of shape " + shape_string(operand.shape()));
  return s;
}

// x - zero_point as int32 (zero_point broadcast from `zp_shape`, see matmul_param_shape), for
// the 8-bit integer operands of MatMulInteger, QLinearMatMul and ConvInteger.
inline Tensor subtract_zero_point(const Tensor& x, const Tensor* zero_point, const Dims& zp_shape) {
  Tensor out(ElemType::Int32, x.shape());
  int32_t* dst = out.data<int32_t>();
  const int64_t n = x.numel();
  auto run = [&](auto* src) {
    if (!zero_point) {
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
      return;
    }
    const auto* zp = zero_point->data<std::remove_const_t<std::remove_pointer_t<decltype(src)>>>();
    if (zero_point->numel() == 1) {
      const int32_t z = zp[0];
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i] - z;
      return;
    }
    const Dims* shapes[] = {&zp_shape};
    Odometer od(x.shape(), shapes);
    for (int64_t i = 0; i < n; ++i, od.next()) dst[i] = src[i] - zp[od.offset(0)];
  };
  if (!visit_int8_or_16(x.type(), [&](auto tag) { run(x.data<typename decltype(tag)::type>()); }))
    bad("expected an 8- or 16-bit integer input, got " + type_name(x.type()));
  return out;
}

}  // namespace bough::ops::quant
