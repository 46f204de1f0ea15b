// GridSample: samples X (N x C x D1..Dr) at the normalized positions grid (N x O1..Or x r),
// giving Y (N x C x O1..Or); the grid's last axis lists coordinates innermost dimension
// first (x along the width). -1 and 1 are the outer pixel edges, or with align_corners the
// outer pixel centers. mode: nearest (round half to even), linear / bilinear, cubic / bicubic
// (A = -0.75); padding_mode: zeros, border (clamp), reflection (mirror at the edges). As in
// the ONNX reference, out-of-range nearest and linear coordinates are clamped or reflected
// first; every tap then reads through the padding mode. Non-float types are computed in double,
// float16/bfloat16 in float.
#include <cmath>

#include "kernels/through_float.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace grid_sample_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

enum class Mode { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

double reflect(double x, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (x >= lo && x <= hi) return x;
  const double dx = x < lo ? lo - x : x - hi;
  const double n = std::floor(dx / range), r = dx - n * range;
  const bool even = std::fmod(n, 2.0) == 0;
  return (x < lo) == even ? lo + r : hi - r;
}

void cubic_weights(double t, double w[4]) {
  constexpr double a = -0.75;
  auto far = [](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  auto near = [](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
}

struct Sampler {
  Mode mode;
  Padding padding;
  bool align;

  // Taps along one dimension of `len` for normalized coordinate g: (index or -1 for zero,
  // weight) pairs appended to `taps`.
  void taps(double g, int64_t len, std::vector<std::pair<int64_t, double>>& taps) const {
    taps.clear();
    const double n = static_cast<double>(len);
    const double lo = align ? 0.0 : -0.5, hi = align ? n - 1 : n - 0.5;
    double x = align ? (g + 1) / 2 * (n - 1) : ((g + 1) * n - 1) / 2;
    if (!std::isfinite(x)) {
      taps.emplace_back(padding == Padding::Zeros ? -1 : 0, 1.0);
      return;
    }
    if (mode == Mode::Nearest) x = std::nearbyint(x);
    // Cubic taps go through the padding one by one (as PyTorch and ONNX Runtime do; the ONNX
    // reference would clamp a border coordinate first).
    if ((x < lo || x > hi) && mode != Mode::Cubic) {
      if (padding == Padding::Border) x = std::clamp(x, 0.0, n - 1);
      if (padding == Padding::Reflection) x = reflect(x, lo, hi);
    }
    if (mode == Mode::Nearest) {
      taps.emplace_back(index(x, len, lo, hi), 1.0);
      return;
    }
    const double f = std::floor(x), t = x - f;
    if (mode == Mode::Linear) {
      taps.emplace_back(index(f, len, lo, hi), 1 - t);
      taps.emplace_back(index(f + 1, len, lo, hi), t);
      return;
    }
    double w[4];
    cubic_weights(t, w);
    for (int k = 0; k < 4; ++k) taps.emplace_back(index(f - 1 + k, len, lo, hi), w[k]);
  }

  // The element index read for integer position i, or -1 for a zero.
  int64_t index(double i, int64_t len, double lo, double hi) const {
    const double last = static_cast<double>(len - 1);
    if (padding == Padding::Zeros) return i >= 0 && i <= last ? static_cast<int64_t>(i) : -1;
    if (padding == Padding::Reflection) i = std::trunc(reflect(i, lo, hi));
    return static_cast<int64_t>(std::clamp(i, 0.0, last));
  }
};

template <typename T, typename G>
void grid_sample(const Tensor& x, const Tensor& grid, Tensor& y, const Sampler& s,
                 util::ThreadPool& pool) {
  const size_t r = x.rank() - 2;
  const int64_t N = x.dim(0), C = x.dim(1);
  const int64_t in = x.numel() / std::max<int64_t>(1, N * C);
  const int64_t P = N > 0 ? grid.numel() / (N * static_cast<int64_t>(r)) : 0;
  const T* src = x.data<T>();
  const G* g = grid.data<G>();
  T* dst = y.data<T>();
  const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, C));
  pool.parallel_for(N * P, grain, [&](int64_t b, int64_t e) {
    std::vector<std::vector<std::pair<int64_t, double>>> taps(r);
    std::vector<size_t> at(r);
    for (int64_t q = b; q < e; ++q) {
      const int64_t n = q / P, p = q % P;
      for (size_t d = 0; d < r; ++d)  // grid lists the innermost dimension first
        s.taps(
            static_cast<double>(g[q * static_cast<int64_t>(r) + static_cast<int64_t>(r - 1 - d)]),
            x.dim(d + 2), taps[d]);
      for (int64_t c = 0; c < C; ++c) {
        const T* plane = src + (n * C + c) * in;
        double acc = 0;
        std::fill(at.begin(), at.end(), 0);
        while (true) {  // the Cartesian product of the per-dimension taps
          double w = 1;
          int64_t off = 0;
          bool zero = false;
          for (size_t d = 0; d < r; ++d) {
            const auto& [i, wd] = taps[d][at[d]];
            w *= wd;
            zero = zero || i < 0;
            off = off * x.dim(d + 2) + i;
          }
          if (!zero && w != 0) acc += w * static_cast<double>(plane[off]);
          size_t d = r;
          while (d-- > 0 && ++at[d] == taps[d].size()) at[d] = 0;
          if (d == static_cast<size_t>(-1)) break;
        }
        dst[(n * C + c) * P + p] = static_cast<T>(acc);
      }
    }
  });
}

class GridSample : public Kernel {
 public:
  explicit GridSample(Sampler s) : s_(s) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor& gin = io.input(1);
    if (in.rank() < 3) bad("GridSample's X must have rank 3 or more");
    const size_t r = in.rank() - 2;
    if (gin.rank() != in.rank() || gin.dim(0) != in.dim(0) ||
        gin.dim(gin.rank() - 1) != static_cast<int64_t>(r))
      bad("GridSample's grid of shape " + shape_string(gin.shape()) + " does not fit X " +
          shape_string(in.shape()));
    for (size_t d = 2; d < in.rank(); ++d)
      if (in.dim(d) == 0) bad("GridSample's X has an empty spatial dimension");
    if (!is_float_type(gin.type()) || is_sub_byte(gin.type()))
      bad("GridSample's grid must be float");
    const ElemType t = in.type();
    if (t == ElemType::String || t == ElemType::Bool || is_sub_byte(t))
      kernels::unsupported_type(t, "GridSample");
    const ElemType ct = t == ElemType::Float || t == ElemType::Double
                            ? t
                            : (kernels::is_narrow_float(t) ? ElemType::Float : ElemType::Double);
    const Tensor x = kernels::cast(in, ct);
    const Tensor grid = gin.type() == ElemType::Double ? gin : kernels::to_float(gin);
    Dims shape{in.dim(0), in.dim(1)};
    for (size_t d = 1; d + 1 < gin.rank(); ++d) shape.push_back(gin.dim(d));
    Tensor y(ct, shape);
    kernels::visit_float(ct, "GridSample", [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (grid.type() == ElemType::Double)
        grid_sample<T, double>(x, grid, y, s_, io.pool());
      else
        grid_sample<T, float>(x, grid, y, s_, io.pool());
    });
    io.set_output(0, kernels::cast(y, t));
  }

 private:
  Sampler s_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Sampler s{};
  // Opset 20 renamed bilinear and bicubic.
  constexpr Choice<Mode> kModes16[] = {
      {"bilinear", Mode::Linear}, {"nearest", Mode::Nearest}, {"bicubic", Mode::Cubic}};
  constexpr Choice<Mode> kModes20[] = {
      {"linear", Mode::Linear}, {"nearest", Mode::Nearest}, {"cubic", Mode::Cubic}};
  const bool v16 = ctx.since < 20;
  s.mode = attr_choice<Mode>(ctx, "mode", v16 ? "bilinear" : "linear",
                             v16 ? std::span(kModes16) : std::span(kModes20));
  s.padding = attr_choice<Padding>(ctx, "padding_mode", "zeros",
                                   {{"zeros", Padding::Zeros},
                                    {"border", Padding::Border},
                                    {"reflection", Padding::Reflection}});
  s.align = ctx.attr_int("align_corners", 0) != 0;
  return std::make_unique<GridSample>(s);
}

// Y (N, C, grid's dims between the first and the last) in X's type.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& g = ctx.input_shape(1);
  if (x.rank_known && x.dims.size() < 3)
    ctx.invalid("X must have rank 3 or more, not " + std::to_string(x.dims.size()));
  if (x.rank_known && g.rank_known && g.dims.size() != x.dims.size())
    ctx.invalid("grid has rank " + std::to_string(g.dims.size()) + ", X " +
                std::to_string(x.dims.size()));
  if (!g.rank_known) {
    ir::Shape y = x.rank_known ? unknown_dims(x.dims.size()) : x;
    if (x.rank_known) y.dims[0] = x.dims[0], y.dims[1] = x.dims[1];
    return ctx.set_output_tensor(0, ctx.input_elem(0), y);
  }
  if (g.dims.size() < 3)
    ctx.invalid("grid must have rank 3 or more, not " + std::to_string(g.dims.size()));
  const size_t r = g.dims.size() - 2;
  const ir::Dim& last = g.dims.back();
  if (last.is_known() && last.value != static_cast<int64_t>(r))
    ctx.invalid("grid's last dim must be " + std::to_string(r) + ", not " +
                std::to_string(last.value));
  std::vector<ir::Dim> dims;
  dims.push_back(x.rank_known ? same_dim(ctx, x.dims[0], g.dims[0], "the batch dims of X and grid")
                              : g.dims[0]);
  dims.push_back(x.rank_known ? x.dims[1] : ir::Dim::unknown());
  for (size_t d = 1; d + 1 < g.dims.size(); ++d) dims.push_back(g.dims[d]);
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {16,
     "X: T1, grid: T1 -> Y: T2; T1 = all, T2 = floats; align_corners: int = "
     "0, mode: string = bilinear, padding_mode: string = zeros"},
    {20,
     "X: T1, grid: T2 -> Y: T1; T1 = all, T2 = floats; align_corners: int = 0, mode: string = "
     "linear, padding_mode: string = zeros"},
    {22,
     "X: T1, grid: T2 -> Y: T1; T1 = all_ir4, T2 = floats bfloat16; align_corners: int = 0, "
     "mode: string = linear, padding_mode: string = zeros"}};

}  // namespace grid_sample_op
}  // namespace

OpDef def_GridSample() {
  using namespace grid_sample_op;
  return def_from_rows("", "GridSample", make, infer, kRows);
}

}  // namespace bough::ops
