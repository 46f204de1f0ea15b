#include "util/compare.h"

#include <cmath>

namespace bough {

namespace {

std::string compare_tensors(const Tensor& e, const Tensor& a, Tolerance tol) {
  if (e.type() != a.type())
    return "element type " + std::string(elem_name(a.type())) + ", expected " + std::string(elem_name(e.type()));
  if (e.shape() != a.shape())
    return "shape " + shape_string(a.shape()) + ", expected " + shape_string(e.shape());
  const int64_t n = e.numel();
  if (e.type() == ElemType::String) {
    for (int64_t i = 0; i < n; ++i)
      if (e.strings()[i] != a.strings()[i])
        return "element " + std::to_string(i) + " is \"" + a.strings()[i] + "\", expected \"" + e.strings()[i] + "\"";
    return "";
  }
  if (e.type() == ElemType::Complex64 || e.type() == ElemType::Complex128) {
    bool is64 = e.type() == ElemType::Complex64;
    for (int64_t i = 0; i < 2 * n; ++i) {
      double x = is64 ? e.data<float>()[i] : e.data<double>()[i];
      double y = is64 ? a.data<float>()[i] : a.data<double>()[i];
      if (!(std::isnan(x) && std::isnan(y)) && !(std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(x)))
        return "complex component " + std::to_string(i) + " is " + std::to_string(y) + ", expected " + std::to_string(x);
    }
    return "";
  }
  const bool floating = is_float_type(e.type());
  for (int64_t i = 0; i < n; ++i) {
    if (floating) {
      double x = e.get_double(i), y = a.get_double(i);
      if (std::isnan(x) && std::isnan(y)) continue;
      if (x == y) continue;  // also equal infinities
      if (std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(x)) continue;
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %lld is %.9g, expected %.9g", static_cast<long long>(i), y, x);
      return buf;
    }
    bool same = e.type() == ElemType::UInt64 ? e.data<uint64_t>()[i] == a.data<uint64_t>()[i]
                                             : e.get_int(i) == a.get_int(i);
    if (!same)
      return "element " + std::to_string(i) + " is " + std::to_string(a.get_int(i)) + ", expected " +
             std::to_string(e.get_int(i));
  }
  return "";
}

}  // namespace

std::string compare_values(const Value& e, const Value& a, Tolerance tol) {
  if (e.kind() != a.kind()) return "got " + describe(a) + ", expected " + describe(e);
  switch (e.kind()) {
    case Value::Kind::None: return "";
    case Value::Kind::Tensor: return compare_tensors(e.tensor(), a.tensor(), tol);
    case Value::Kind::Sequence: {
      const auto& x = e.seq().items;
      const auto& y = a.seq().items;
      if (x.size() != y.size())
        return "sequence has " + std::to_string(y.size()) + " items, expected " + std::to_string(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        std::string diff = compare_values(x[i], y[i], tol);
        if (!diff.empty()) return "item " + std::to_string(i) + ": " + diff;
      }
      return "";
    }
  }
  return "";
}

}  // namespace bough
