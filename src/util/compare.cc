#include "util/compare.h"

#include <cmath>
#include <cstdio>

namespace bough {

namespace {

// The one rule for every floating kind (complex components included). Infinities and NaN
// are checked first: with e = inf, |e - a| <= atol + rtol * |e| reads inf <= inf, which
// would accept any finite a and even -inf.
bool close(double e, double a, Tolerance tol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
}

std::string float_diff(const std::string& what, double a, double e) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s is %.9g, expected %.9g", what.c_str(), a, e);
  return buf;
}

std::string element(int64_t i) { return "element " + std::to_string(i); }

std::string compare_strings(const Tensor& e, const Tensor& a) {
  for (int64_t i = 0; i < e.numel(); ++i)
    if (e.strings()[i] != a.strings()[i])
      return element(i) + " is \"" + a.strings()[i] + "\", expected \"" + e.strings()[i] + "\"";
  return "";
}

// Complex tensors hold (real, imaginary) pairs of float or double.
std::string compare_complex(const Tensor& e, const Tensor& a, Tolerance tol) {
  const bool is64 = e.type() == ElemType::Complex64;
  for (int64_t i = 0; i < 2 * e.numel(); ++i) {
    double x = is64 ? e.data<float>()[i] : e.data<double>()[i];
    double y = is64 ? a.data<float>()[i] : a.data<double>()[i];
    if (!close(x, y, tol))
      return float_diff(element(i / 2) + (i % 2 ? " (imaginary part)" : " (real part)"), y, x);
  }
  return "";
}

// float, double, float16, bfloat16, the float8 kinds and float4, all read as double.
std::string compare_floats(const Tensor& e, const Tensor& a, Tolerance tol) {
  for (int64_t i = 0; i < e.numel(); ++i) {
    double x = e.get_double(i), y = a.get_double(i);
    if (!close(x, y, tol)) return float_diff(element(i), y, x);
  }
  return "";
}

// Integers and bools, exactly. uint64 is read as itself: get_int would wrap values of
// 2^63 and above to negative numbers in the message.
std::string compare_integers(const Tensor& e, const Tensor& a) {
  const bool u64 = e.type() == ElemType::UInt64;
  for (int64_t i = 0; i < e.numel(); ++i) {
    if (u64 && e.data<uint64_t>()[i] != a.data<uint64_t>()[i])
      return element(i) + " is " + std::to_string(a.data<uint64_t>()[i]) + ", expected " +
             std::to_string(e.data<uint64_t>()[i]);
    if (!u64 && e.get_int(i) != a.get_int(i))
      return element(i) + " is " + std::to_string(a.get_int(i)) + ", expected " +
             std::to_string(e.get_int(i));
  }
  return "";
}

std::string compare_tensors(const Tensor& e, const Tensor& a, Tolerance tol) {
  if (e.type() != a.type())
    return "element type " + std::string(elem_name(a.type())) + ", expected " +
           std::string(elem_name(e.type()));
  if (e.shape() != a.shape())
    return "shape " + shape_string(a.shape()) + ", expected " + shape_string(e.shape());
  if (e.type() == ElemType::String) return compare_strings(e, a);
  if (e.type() == ElemType::Complex64 || e.type() == ElemType::Complex128)
    return compare_complex(e, a, tol);
  if (is_float_type(e.type())) return compare_floats(e, a, tol);
  return compare_integers(e, a);
}

std::string compare_sequences(const SequenceValue& e, const SequenceValue& a, Tolerance tol) {
  if (e.items.size() != a.items.size())
    return "sequence has " + std::to_string(a.items.size()) + " items, expected " +
           std::to_string(e.items.size());
  for (size_t i = 0; i < e.items.size(); ++i) {
    std::string diff = compare_values(e.items[i], a.items[i], tol);
    if (!diff.empty()) return "item " + std::to_string(i) + ": " + diff;
  }
  return "";
}

}  // namespace

std::string compare_values(const Value& e, const Value& a, Tolerance tol) {
  if (e.kind() != a.kind()) return "got " + describe(a) + ", expected " + describe(e);
  switch (e.kind()) {
    case Value::Kind::None:
      return "";
    case Value::Kind::Tensor:
      return compare_tensors(e.tensor(), a.tensor(), tol);
    case Value::Kind::Sequence:
      return compare_sequences(e.seq(), a.seq(), tol);
  }
  return "";
}

}  // namespace bough
