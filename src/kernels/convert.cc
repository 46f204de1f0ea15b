#include "kernels/convert.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "bough/error.h"
#include "ir/storage.h"
#include "util/from_double.h"

namespace bough::kernels {

namespace {

std::string format_float(double v, bool is_double) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  auto res = is_double ? std::to_chars(buf, buf + sizeof buf, v)
                       : std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  return std::string(buf, res.ptr);
}

double parse_float(const std::string& s) {
  const char* p = s.c_str();
  char* end = nullptr;
  double v = std::strtod(p, &end);
  if (end == p) fail(ErrorKind::BadInput, "", "cannot convert string '" + s + "' to a number");
  return v;
}

// `v` rounded to float so that rounding the result once more to a narrower format (float16)
// gives what rounding `v` directly would: an inexact result takes the neighbour whose last
// bit is odd ("round to odd"), so it never lands on a halfway point of the narrower format.
float narrow_to_odd(double v) {
  const float f = static_cast<float>(v);
  if (std::isnan(v) || std::isinf(f) || static_cast<double>(f) == v) return f;
  if (std::bit_cast<uint32_t>(f) & 1u) return f;
  return std::nextafter(f, static_cast<double>(f) < v ? HUGE_VALF : -HUGE_VALF);
}

// Writes element i of `out` from an integer (is_int) or a double `dv`; `fv` is the source
// rounded to float once (directly from an integer source, not through dv).
void store(Tensor& out, int64_t i, bool is_int, int64_t iv, uint64_t uv, double dv, float fv,
           const CastOptions& o) {
  switch (out.type()) {
    case ElemType::Bool:
      out.data<bool>()[i] = is_int ? iv != 0 : dv != 0;
      return;
    case ElemType::Int8:
      out.data<int8_t>()[i] = is_int ? static_cast<int8_t>(iv) : util::from_double<int8_t>(dv);
      return;
    case ElemType::Int16:
      out.data<int16_t>()[i] = is_int ? static_cast<int16_t>(iv) : util::from_double<int16_t>(dv);
      return;
    case ElemType::Int32:
      out.data<int32_t>()[i] = is_int ? static_cast<int32_t>(iv) : util::from_double<int32_t>(dv);
      return;
    case ElemType::Int64:
      out.data<int64_t>()[i] = is_int ? iv : util::from_double<int64_t>(dv);
      return;
    case ElemType::UInt8:
      out.data<uint8_t>()[i] = is_int ? static_cast<uint8_t>(uv) : util::from_double<uint8_t>(dv);
      return;
    case ElemType::UInt16:
      out.data<uint16_t>()[i] =
          is_int ? static_cast<uint16_t>(uv) : util::from_double<uint16_t>(dv);
      return;
    case ElemType::UInt32:
      out.data<uint32_t>()[i] =
          is_int ? static_cast<uint32_t>(uv) : util::from_double<uint32_t>(dv);
      return;
    case ElemType::UInt64:
      out.data<uint64_t>()[i] = is_int ? uv : util::from_double<uint64_t>(dv);
      return;
    case ElemType::Float:
      out.data<float>()[i] = fv;
      return;
    case ElemType::Double:
      out.data<double>()[i] = dv;
      return;
    case ElemType::Float16:
      out.data<uint16_t>()[i] = float_to_half(narrow_to_odd(dv));
      return;
    case ElemType::BFloat16:
      out.data<uint16_t>()[i] = float_to_bfloat16(fv);
      return;
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      out.data<uint8_t>()[i] = float_to_float8(out.type(), fv, o.saturate);
      return;
    case ElemType::Float8E8M0:
      out.data<uint8_t>()[i] = float_to_e8m0(fv, o.saturate, o.round);
      return;
    case ElemType::Float4E2M1:
      set_packed(out.data<uint8_t>(), i, 4, float_to_float4e2m1(fv));
      return;
    case ElemType::Int4:
    case ElemType::UInt4:
    case ElemType::Int2:
    case ElemType::UInt2:  // truncate, then wrap (see cast_to_small_int)
      set_packed(out.data<uint8_t>(), i, elem_bits(out.type()),
                 is_int ? wrap_to_small_int(out.type(), iv) : cast_to_small_int(out.type(), dv));
      return;
    default:
      fail(ErrorKind::Unsupported, "", "cast to " + std::string(elem_name(out.type())));
  }
}

}  // namespace

void cast_into(const Tensor& x, ElemType to, Tensor& out, CastOptions o) {
  if (x.type() == to) {
    out = x;
    return;
  }
  ir::reinit(out, to, x.shape());
  // Sub-byte stores OR their bits into the packed bytes, which must start at zero.
  if (is_sub_byte(to)) std::memset(out.raw(), 0, out.nbytes());
  const int64_t n = x.numel();
  const ElemType from = x.type();
  if (from == ElemType::Float && to == ElemType::Double) {
    for (int64_t i = 0; i < n; ++i) out.data<double>()[i] = x.data<float>()[i];
    return;
  }
  if (from == ElemType::String) {
    for (int64_t i = 0; i < n; ++i) {
      double v = parse_float(x.strings()[i]);
      store(out, i, false, 0, 0, v, static_cast<float>(v), o);
    }
    return;
  }
  if (to == ElemType::String) {
    for (int64_t i = 0; i < n; ++i) {
      if (is_float_type(from))
        out.strings()[i] = format_float(x.get_double(i), from == ElemType::Double);
      else if (from == ElemType::UInt64)
        out.strings()[i] = std::to_string(x.data<uint64_t>()[i]);
      else if (from == ElemType::Bool)
        out.strings()[i] = x.data<bool>()[i] ? "True" : "False";
      else
        out.strings()[i] = std::to_string(x.get_int(i));
    }
    return;
  }
  if (from == ElemType::Complex64 || from == ElemType::Complex128 || to == ElemType::Complex64 ||
      to == ElemType::Complex128)
    fail(ErrorKind::Unsupported, "", "cast between complex and other types");
  const bool src_int = !is_float_type(from);
  const bool dst_float = is_float_type(to);
  for (int64_t i = 0; i < n; ++i) {
    if (src_int) {
      int64_t iv = x.get_int(i);
      uint64_t uv = from == ElemType::UInt64 ? x.data<uint64_t>()[i] : static_cast<uint64_t>(iv);
      double dv = from == ElemType::UInt64 ? static_cast<double>(uv) : static_cast<double>(iv);
      float fv = from == ElemType::UInt64 ? static_cast<float>(uv) : static_cast<float>(iv);
      store(out, i, !dst_float, iv, uv, dv, fv, o);
    } else {
      const double dv = x.get_double(i);
      store(out, i, false, 0, 0, dv, static_cast<float>(dv), o);
    }
  }
}

Tensor cast(const Tensor& x, ElemType to, CastOptions o) {
  Tensor out;
  cast_into(x, to, out, o);
  return out;
}

}  // namespace bough::kernels
