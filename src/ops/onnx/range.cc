// Range: [start, start+delta, ...) up to `limit` (exclusive), max(ceil((limit-start)/delta), 0)
// elements. Integer types count exactly; float16/bfloat16 (opset 27) compute in float,
// or double when stash_type says so.
#include <cmath>

#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace range_op {

constexpr int64_t kMaxRange = int64_t{1} << 40;

[[noreturn]] void too_long() { fail(ErrorKind::BadInput, "", "Range output is too large"); }

template <typename T>
Tensor int_range(const Tensor& s, const Tensor& l, const Tensor& d) {
  const int64_t start = s.get_int(0), limit = l.get_int(0), delta = d.get_int(0);
  if (delta == 0) fail(ErrorKind::BadInput, "", "Range delta cannot be 0");
  const __int128 span = static_cast<__int128>(limit) - start;
  __int128 n = 0;
  if (delta > 0 && span > 0) n = (span + delta - 1) / delta;
  if (delta < 0 && span < 0) n = (span + delta + 1) / delta;
  if (n > kMaxRange) too_long();
  Tensor out(s.type(), {static_cast<int64_t>(n)});
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i)
    out.data<T>()[i] = static_cast<T>(start + static_cast<__int128>(i) * delta);
  return out;
}

// Float types: the count and values in the compute type C, stored as `type`.
template <typename C>
Tensor float_range(const Tensor& s, const Tensor& l, const Tensor& d, ElemType type) {
  const auto start = static_cast<C>(s.get_double(0)), limit = static_cast<C>(l.get_double(0)),
             delta = static_cast<C>(d.get_double(0));
  if (delta == 0) fail(ErrorKind::BadInput, "", "Range delta cannot be 0");
  const C count = std::ceil((limit - start) / delta);
  if (std::isnan(count)) fail(ErrorKind::BadInput, "", "Range of NaN");
  if (count > static_cast<C>(kMaxRange)) too_long();
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  Tensor out(ElemType::Double, {n});
  for (int64_t i = 0; i < n; ++i)
    out.data<double>()[i] = static_cast<C>(start + static_cast<C>(i) * delta);
  return kernels::cast(out, type);
}

class Range : public Kernel {
 public:
  explicit Range(bool stash_double) : stash_double_(stash_double) {}

  void run(KernelIO& io) override {
    const Tensor& s = io.input(0);
    const Tensor& l = io.input(1);
    const Tensor& d = io.input(2);
    if (s.type() != l.type() || s.type() != d.type())
      fail(ErrorKind::BadInput, "", "Range inputs have different element types");
    if (s.numel() != 1 || l.numel() != 1 || d.numel() != 1)
      fail(ErrorKind::BadInput, "", "Range inputs must be scalars");
    switch (s.type()) {
      case ElemType::Int16:
        return io.set_output(0, int_range<int16_t>(s, l, d));
      case ElemType::Int32:
        return io.set_output(0, int_range<int32_t>(s, l, d));
      case ElemType::Int64:
        return io.set_output(0, int_range<int64_t>(s, l, d));
      case ElemType::Float:
        return io.set_output(0, float_range<float>(s, l, d, s.type()));
      case ElemType::Double:
        return io.set_output(0, float_range<double>(s, l, d, s.type()));
      case ElemType::Float16:
      case ElemType::BFloat16:
        if (stash_double_) return io.set_output(0, float_range<double>(s, l, d, s.type()));
        return io.set_output(0, float_range<float>(s, l, d, s.type()));
      default:
        kernels::unsupported_type(s.type(), "Range");
    }
  }

 private:
  bool stash_double_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t stash = ctx.attr_int("stash_type", 1);
  if (stash != 1 && stash != 11) ctx.unsupported("Range stash_type must be float or double");
  return std::make_unique<Range>(stash == 11);
}

void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const auto start = layout_infer::number_values(ctx, 0);
  const auto limit = layout_infer::number_values(ctx, 1);
  const auto delta = layout_infer::number_values(ctx, 2);
  if (delta && delta->size() == 1 && (*delta)[0] == 0) ctx.invalid("delta is 0");
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 && delta->size() == 1) {
    const double n = std::ceil(((*limit)[0] - (*start)[0]) / (*delta)[0]);
    // NaN or a length past kMaxRange fails when run (a branch not taken may hold such a
    // Range): the length stays unknown here.
    if (n <= static_cast<double>(kMaxRange)) {
      ctx.set_output_tensor(0, elem, known_shape({n > 0 ? static_cast<int64_t>(n) : 0}));
      return;
    }
  }
  ctx.set_output_tensor(0, elem, unknown_dims(1));
}

constexpr SignatureText kRows[] = {
    {11, "start: T, limit: T, delta: T -> output: T; T = float double int16 int32 int64"},
    {27,
     "start: T, limit: T, delta: T -> output: T; T = floats bfloat16 int16 int32 int64; "
     "stash_type: int = 1"}};

}  // namespace range_op
}  // namespace

OpDef def_Range() {
  using namespace range_op;
  return def_from_rows("", "Range", make, infer, kRows);
}

}  // namespace bough::ops
