#include "ops/openvino/prior_grid.h"

#include <string>

#include "bough/error.h"

namespace bough::ops::openvino {

std::vector<float> float_list(const NodeView& ctx, const char* name) {
  const ir::Attribute* a = ctx.attr(name);
  if (!a) return {};
  if (a->kind == ir::Attribute::Kind::Float) return {a->f};
  if (a->kind != ir::Attribute::Kind::Floats)
    ctx.invalid(std::string("attribute ") + name + " must be floats");
  return a->floats;
}

std::vector<float> checked_variance(const NodeView& ctx) {
  std::vector<float> v = float_list(ctx, "variance");
  if (v.size() != 0 && v.size() != 1 && v.size() != 4)
    ctx.invalid("variance must hold 0, 1 or 4 values, not " + std::to_string(v.size()));
  if (v.empty()) v.push_back(0.1f);
  return v;
}

PriorGrid prior_grid(const Tensor& feature_map, const Tensor& image) {
  if (feature_map.rank() < 4 || image.rank() < 4)
    fail(ErrorKind::BadInput, "",
         "the feature map and the image must have rank 4, not " +
             std::to_string(feature_map.rank()) + " and " + std::to_string(image.rank()));
  return {feature_map.dim(2), feature_map.dim(3), image.dim(2), image.dim(3)};
}

void infer_priors(InferContext& ctx, int64_t per_cell) {
  for (size_t i = 0; i < 2; ++i) {
    const ir::Shape& s = ctx.input_shape(i);
    if (s.rank_known && s.dims.size() < 4)
      ctx.invalid("input " + std::to_string(i) + " must have rank 4, not " +
                  std::to_string(s.dims.size()));
  }
  const ir::Shape& x = ctx.input_shape(0);
  ir::Dim boxes = ir::Dim::unknown();
  if (x.rank_known && x.dims[2].is_known() && x.dims[3].is_known())
    boxes = ir::Dim::known(4 * x.dims[2].value * x.dims[3].value * per_cell);
  ctx.set_output_tensor(0, ElemType::Float,
                        ir::Shape::of({ir::Dim::known(1), ir::Dim::known(2), boxes}));
}

void write_variances(float* row, int64_t boxes, const std::vector<float>& variance) {
  for (int64_t b = 0; b < boxes; ++b)
    for (size_t j = 0; j < 4; ++j)
      row[b * 4 + static_cast<int64_t>(j)] = variance[variance.size() == 1 ? 0 : j];
}

}  // namespace bough::ops::openvino
