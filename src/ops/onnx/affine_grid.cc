// AffineGrid: the sampling grid of an affine transform, for GridSample. theta is (N, 2, 3)
// for a 2-D size (N, C, H, W) or (N, 3, 4) for a 3-D size (N, C, D, H, W); each output point
// is theta[n] · (x, y[, z], 1) over the normalized coordinates in [-1, 1] (pixel centers, or
// corners with align_corners), x along W. Output (N, H, W, 2) or (N, D, H, W, 3).
// float16/bfloat16 go through float.
#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace affine_grid_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// The normalized coordinate of index i of n.
double coord(int64_t i, int64_t n, bool align_corners) {
  if (align_corners)
    return n > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) : -1.0;
  return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n);
}

template <typename T>
Tensor affine_grid(const Tensor& theta, const std::vector<int64_t>& size, bool align) {
  const size_t r = size.size() - 2;  // spatial rank: 2 or 3
  const int64_t N = size[0];
  const int64_t D = r == 3 ? size[2] : 1, H = size[r], W = size[r + 1];
  Dims shape{N};
  if (r == 3) shape.push_back(D);
  shape.push_back(H);
  shape.push_back(W);
  shape.push_back(static_cast<int64_t>(r));
  Tensor grid(theta.type(), shape);
  const T* th = theta.data<T>();
  T* out = grid.data<T>();
  const size_t cols = r + 1;
  for (int64_t n = 0; n < N; ++n) {
    const T* m = th + n * static_cast<int64_t>(r * cols);
    for (int64_t d = 0; d < D; ++d)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          // (x, y, 1) or (x, y, z, 1)
          const double v[4] = {coord(w, W, align), coord(h, H, align),
                               r == 3 ? coord(d, D, align) : 1.0, 1.0};
          for (size_t i = 0; i < r; ++i) {
            double acc = 0;
            for (size_t j = 0; j < cols; ++j) acc += static_cast<double>(m[i * cols + j]) * v[j];
            *out++ = static_cast<T>(acc);
          }
        }
  }
  return grid;
}

class AffineGrid : public Kernel {
 public:
  explicit AffineGrid(bool align_corners) : align_(align_corners) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const std::vector<int64_t> size = kernels::read_shape_arg(io.input(1), "size");
    if (size.size() != 4 && size.size() != 5) bad("AffineGrid's size must have 4 or 5 entries");
    for (int64_t d : size)
      if (d < 0) bad("AffineGrid's size must not be negative");
    const int64_t r = static_cast<int64_t>(size.size()) - 2;
    if (in.rank() != 3 || in.dim(0) != size[0] || in.dim(1) != r || in.dim(2) != r + 1)
      bad("AffineGrid's theta of shape " + shape_string(in.shape()) + " does not fit size " +
          shape_string(size));
    auto grid = [&](const Tensor& theta) {
      return kernels::visit_float(theta.type(), "AffineGrid", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return affine_grid<T>(theta, size, align_);
      });
    };
    io.set_output(0, kernels::through_float(grid, in));
  }

 private:
  bool align_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<AffineGrid>(ctx.attr_int("align_corners", 0) != 0);
}

// grid (N, H, W, 2) for a size (N, C, H, W), (N, D, H, W, 3) for (N, C, D, H, W), in theta's
// type; theta must be (N, r, r + 1).
void infer(InferContext& ctx) {
  const ir::Shape& theta = ctx.input_shape(0);
  if (theta.rank_known && theta.dims.size() != 3)
    ctx.invalid("theta must be 3-D, not rank " + std::to_string(theta.dims.size()));
  std::optional<size_t> r;
  std::vector<ir::Dim> dims;
  if (auto size = int_values(ctx, 1)) {
    if (size->size() != 4 && size->size() != 5)
      ctx.invalid("size must have 4 or 5 entries, not " + std::to_string(size->size()));
    r = size->size() - 2;
    dims.push_back(ir::Dim::known((*size)[0]));
    for (size_t d = 2; d < size->size(); ++d) dims.push_back(ir::Dim::known((*size)[d]));
  } else if (const ir::Shape& s = ctx.input_shape(1);
             s.rank_known && s.dims.size() == 1 && s.dims[0].is_known()) {
    if (s.dims[0].value != 4 && s.dims[0].value != 5)
      ctx.invalid("size must have 4 or 5 entries, not " + std::to_string(s.dims[0].value));
    r = static_cast<size_t>(s.dims[0].value) - 2;
    dims.assign(*r + 1, ir::Dim::unknown());
  }
  if (!r) return ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::unknown_rank());
  if (theta.rank_known) {
    dims[0] = same_dim(ctx, dims[0], theta.dims[0], "the batch of theta and size");
    same_dim(ctx, theta.dims[1], ir::Dim::known(static_cast<int64_t>(*r)),
             "theta's dim 1 and the spatial rank");
    same_dim(ctx, theta.dims[2], ir::Dim::known(static_cast<int64_t>(*r) + 1),
             "theta's dim 2 and the spatial rank + 1");
  }
  dims.push_back(ir::Dim::known(static_cast<int64_t>(*r)));
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {20,
     "theta: T1, size: T2 -> grid: T1; T1 = floats bfloat16, T2 = int64; "
     "align_corners: int = 0"}};

}  // namespace affine_grid_op
}  // namespace

OpDef def_AffineGrid() {
  using namespace affine_grid_op;
  return def_from_rows("", "AffineGrid", make, infer, kRows);
}

}  // namespace bough::ops
