#include "ops/onnx/layout_infer.h"

#include <cmath>

namespace bough::ops::layout_infer {

std::optional<std::vector<double>> number_values(const InferContext& ctx, size_t input) {
  const Tensor* t = ctx.input_value(input);
  if (t && (t->type() == ElemType::Float || t->type() == ElemType::Double)) {
    std::vector<double> out(static_cast<size_t>(t->numel()));
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = t->type() == ElemType::Float ? static_cast<double>(t->data<float>()[i])
                                            : t->data<double>()[i];
    return out;
  }
  if (auto ints = int_values(ctx, input)) return std::vector<double>(ints->begin(), ints->end());
  return std::nullopt;
}

int64_t blocksize(const NodeView& node) {
  const int64_t b = node.attr_int("blocksize", 0);
  if (b < 1 || b > kMaxBlocksize) node.invalid("blocksize must be from 1 to 2^31 - 1");
  return b;
}

void infer_block_move(InferContext& ctx, bool to_space) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, elem, unknown_dims(4));
    return;
  }
  if (s.dims.size() != 4) ctx.invalid("the input must have rank 4");
  const int64_t b = blocksize(ctx);
  const auto divide = [&](const ir::Dim& d, int64_t by, const char* what) {
    if (!d.is_known()) return by == 1 ? d : ir::Dim::unknown();
    if (d.value % by != 0)
      ctx.invalid(std::string(what) + " " + std::to_string(d.value) + " is not a multiple of " +
                  std::to_string(by));
    return ir::Dim::known(d.value / by);
  };
  std::vector<ir::Dim> out = s.dims;
  if (to_space) {
    out[1] = divide(s.dims[1], b * b, "channels");
    out[2] = dim_times(s.dims[2], b);
    out[3] = dim_times(s.dims[3], b);
  } else {
    out[1] = dim_times(s.dims[1], b * b);
    out[2] = divide(s.dims[2], b, "height");
    out[3] = divide(s.dims[3], b, "width");
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

ir::Dim dim_sum(const std::vector<ir::Dim>& dims) {
  int64_t known = 0;
  const ir::Dim* other = nullptr;
  int others = 0;
  for (const ir::Dim& d : dims) {
    if (d.is_known()) {
      known += d.value;
    } else {
      other = &d;
      ++others;
    }
  }
  if (others == 0) return ir::Dim::known(known);
  if (others == 1 && known == 0) return *other;
  return ir::Dim::unknown();
}

ir::Dim computed_dim(double size) {
  if (!(size >= 0 && size <= double(int64_t{1} << 40))) return ir::Dim::unknown();
  return ir::Dim::known(static_cast<int64_t>(size));
}

std::vector<ir::Dim> scaled_dims(const InferContext& ctx, const std::vector<ir::Dim>& dims,
                                 const std::vector<double>& scales,
                                 const std::vector<int64_t>& axes) {
  if (scales.size() != axes.size())
    ctx.invalid("scales has " + std::to_string(scales.size()) + " entries for " +
                std::to_string(axes.size()) + " axes");
  std::vector<ir::Dim> out = dims;
  for (size_t k = 0; k < axes.size(); ++k) {
    if (scales[k] <= 0) ctx.invalid("scales must be positive");
    ir::Dim& d = out[static_cast<size_t>(axes[k])];
    if (d.is_known())
      d = computed_dim(std::floor(static_cast<double>(d.value) * scales[k]));
    else if (scales[k] != 1.0)
      d = ir::Dim::unknown();
  }
  return out;
}

}  // namespace bough::ops::layout_infer
