#include "kernels/shape_args.h"

#include <cmath>
#include <string>

#include "bough/error.h"
#include "kernels/layout.h"

namespace bough::kernels {

std::vector<int64_t> read_ints(const Tensor& t, const char* what) {
  const ElemType type = t.type();
  if (!is_integer_type(type) || is_sub_byte(type))
    fail(ErrorKind::BadInput, "",
         std::string(what) + " must be an integer tensor, got " + std::string(elem_name(type)));
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = t.get_int(static_cast<int64_t>(i));
  return out;
}

std::vector<int64_t> read_whole_numbers(const Tensor& t, const char* what) {
  if (!is_float_type(t.type()) || is_sub_byte(t.type())) return read_ints(t, what);
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < out.size(); ++i) {
    const double v = t.get_double(static_cast<int64_t>(i));
    // Whole and well inside int64 (2^62), so the conversion is exact.
    if (!(std::abs(v) < 4.6e18) || v != std::floor(v))
      fail(ErrorKind::BadInput, "",
           std::string(what) + " must hold whole numbers, got " + std::to_string(v));
    out[i] = static_cast<int64_t>(v);
  }
  return out;
}

int64_t read_int(const Tensor& t, const char* what) {
  if (t.numel() != 1)
    fail(ErrorKind::BadInput, "",
         std::string(what) + " must hold one value, got shape " + shape_string(t.shape()));
  return read_ints(t, what)[0];
}

std::vector<int64_t> read_shape_arg(const Tensor& t, const char* what) {
  if (t.rank() != 1)
    fail(ErrorKind::BadInput, "",
         std::string(what) + " must be 1-D, got shape " + shape_string(t.shape()));
  return read_ints(t, what);
}

std::vector<int64_t> normalize_axes(std::span<const int64_t> axes, int64_t rank) {
  std::vector<int64_t> out;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t n = normalize_axis(a, rank);
    if (seen[static_cast<size_t>(n)])
      fail(ErrorKind::BadInput, "", "axis " + std::to_string(a) + " is repeated");
    seen[static_cast<size_t>(n)] = true;
    out.push_back(n);
  }
  return out;
}

std::vector<int64_t> contiguous_strides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

}  // namespace bough::kernels
