#include "kernels/random.h"

#include <cmath>
#include <numbers>
#include <span>
#include <string>

#include "bough/error.h"
#include "kernels/convert.h"

namespace bough::kernels {

RandomStream RandomStream::for_run(std::optional<uint64_t> seed) {
  if (seed) return RandomStream(*seed);
  std::random_device device;
  return RandomStream(static_cast<uint64_t>(device()) << 32 | device());
}

double RandomStream::uniform() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }

double RandomStream::normal() {
  if (spare_) {
    const double z = *spare_;
    spare_.reset();
    return z;
  }
  const double u1 = 1.0 - uniform();  // in (0, 1]: log(u1) is finite
  const double u2 = uniform();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  spare_ = radius * std::sin(angle);
  return radius * std::cos(angle);
}

double round_to_type(ElemType type, double v) {
  switch (type) {
    case ElemType::Double:
      return v;
    case ElemType::Float:
      return static_cast<float>(v);
    case ElemType::Float16:
      return half_to_float(float_to_half(static_cast<float>(v)));
    case ElemType::BFloat16:
      return bfloat16_to_float(float_to_bfloat16(static_cast<float>(v)));
    default:
      fail(ErrorKind::Unsupported, "",
           "random values of type " + std::string(elem_name(type)) +
               " (float16, bfloat16, float or double only)");
  }
}

namespace {

// `values` (a double tensor whose elements are each exactly a value of `type`) as `type`.
Tensor to_type(ElemType type, Tensor values) {
  return type == ElemType::Double ? values : cast(values, type);
}

}  // namespace

Tensor uniform_tensor(ElemType type, const Dims& shape, double low, double high,
                      RandomStream& stream) {
  // Rounding may carry a draw onto `high` (or below a `low` the type cannot hold); such a
  // draw is taken again, which keeps the rest uniform. Only when [low, high) holds almost
  // no value of the type do redraws keep failing.
  constexpr int kMaxRedraws = 64;
  round_to_type(type, 0);  // refuses a type that is not float before anything is drawn
  Tensor values(ElemType::Double, shape);  // checks the size first
  for (double& v : std::span(values.data<double>(), static_cast<size_t>(values.numel()))) {
    int redraws = 0;
    do {
      if (redraws++ == kMaxRedraws)
        fail(ErrorKind::BadInput, "",
             "no value of type " + std::string(elem_name(type)) + " lies in [" +
                 std::to_string(low) + ", " + std::to_string(high) + ")");
      v = round_to_type(type, low + (high - low) * stream.uniform());
    } while (!(v >= low && v < high));
  }
  return to_type(type, std::move(values));
}

Tensor normal_tensor(ElemType type, const Dims& shape, double mean, double scale,
                     RandomStream& stream) {
  round_to_type(type, 0);  // as above
  Tensor values(ElemType::Double, shape);
  for (double& v : std::span(values.data<double>(), static_cast<size_t>(values.numel())))
    v = round_to_type(type, mean + scale * stream.normal());
  return to_type(type, std::move(values));
}

}  // namespace bough::kernels
