// ConvInteger: Conv of (x - x_zero_point) with (w - w_zero_point) for 8-bit x and w, giving
// int32. x_zero_point is a scalar; w_zero_point a scalar or one value per output channel.
// Padding holds x_zero_point, i.e. zero after the shift. The products are exact in double
// (im2col and matrix products), and the sums wrap to 32 bits as the spec allows.
#include <algorithm>

#include "kernels/conv_im2col.h"
#include "kernels/matmul.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/quantize_common.h"
#include "ops/onnx/window_attrs.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {

using quant::bad;

constexpr const char* kOp = "ConvInteger";
// Elements of the column matrix built at once; larger outputs are done in column tiles.
constexpr int64_t kColBudget = int64_t{1} << 22;

bool is_8bit(ElemType t) { return t == ElemType::UInt8 || t == ElemType::Int8; }

// x - zero_point as doubles; `per_channel` (w) takes one zero point per leading index.
std::vector<double> shifted(const Tensor& x, const Tensor* zp, bool per_channel, const char* name) {
  if (!is_8bit(x.type()))
    bad(std::string(kOp) + ": inputs must be int8 or uint8, got " + quant::type_name(x.type()));
  std::vector<double> out(static_cast<size_t>(x.numel()));
  std::vector<double> z{0.0};
  if (zp) {
    if (zp->type() != x.type())
      bad(std::string(kOp) + ": " + name + " is " + quant::type_name(zp->type()) +
          " but its input is " + quant::type_name(x.type()));
    const bool one = zp->numel() == 1;
    if (!one && !(per_channel && zp->rank() == 1 && zp->dim(0) == x.dim(0)))
      bad(std::string(kOp) + ": " + name + " of shape " + shape_string(zp->shape()) +
          " must be a scalar" + (per_channel ? " or have one value per output channel" : ""));
    z = quant::values(*zp);
  }
  const int64_t per = x.numel() / std::max<int64_t>(1, x.dim(0));
  for (int64_t i = 0; i < x.numel(); ++i)
    out[static_cast<size_t>(i)] =
        x.get_double(i) - z[z.size() == 1 ? 0 : static_cast<size_t>(i / per)];
  return out;
}

// w - w_zero_point, made once at plan time when both are constant (the zero point folded
// into the filter), so that a run reads neither.
struct PreparedFilter {
  Dims w_shape;
  std::vector<double> wd;
};

std::unique_ptr<const PreparedFilter> prepare(const BuildContext& ctx) {
  const Tensor* w = ctx.constant_input(1);
  const bool has_zp = ctx.node.inputs.size() > 3 && ctx.node.inputs[3];
  const Tensor* zp = has_zp ? ctx.constant_input(3) : nullptr;
  if (!w || (has_zp && !zp) || w->rank() < 1) return nullptr;
  try {
    auto p = std::make_unique<PreparedFilter>();
    p->w_shape = w->shape();
    p->wd = shifted(*w, zp, true, "w_zero_point");
    ctx.count_prepared(zp ? 2 : 1);
    return p;
  } catch (const Error&) {
    return nullptr;  // left to the run, which reports it
  }
}

class ConvInteger : public Kernel {
 public:
  explicit ConvInteger(const BuildContext& ctx)
      : attrs_(read_window_attrs(ctx)), groups_(ctx.attr_int("group", 1)), prepared_(prepare(ctx)) {
    if (groups_ < 1) ctx.invalid("group must be positive");
  }

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor* x_zp = io.has_input(2) ? &io.input(2) : nullptr;
    const Dims& ws = prepared_ ? prepared_->w_shape : io.input(1).shape();
    if (x.rank() < 3)
      bad(std::string(kOp) + ": x must have at least 3 dimensions, got " + shape_string(x.shape()));
    if (ws.size() != x.rank())
      bad(std::string(kOp) + ": w " + shape_string(ws) + " does not match x " +
          shape_string(x.shape()));
    if (x.dim(1) != ws[1] * groups_)
      bad(std::string(kOp) + ": x has " + std::to_string(x.dim(1)) + " channels, w expects " +
          std::to_string(ws[1] * groups_));
    if (ws[0] % groups_ != 0)
      bad(std::string(kOp) + ": output channels are not divisible by group");
    const std::span<const int64_t> xs = x.shape(), wsp = ws;
    const kernels::Window win = kernels::resolve_window(attrs_, xs.subspan(2), wsp.subspan(2));

    const std::vector<double> xd = shifted(x, x_zp, false, "x_zero_point");
    std::vector<double> unprepared;
    if (!prepared_)
      unprepared =
          shifted(io.input(1), io.has_input(3) ? &io.input(3) : nullptr, true, "w_zero_point");
    const std::vector<double>& wd = prepared_ ? prepared_->wd : unprepared;
    const int64_t N = x.dim(0), C = x.dim(1), M = ws[0];
    const int64_t K = win.kernel_numel(), P = win.out_numel(), in_numel = win.in_numel();
    const int64_t cg = C / groups_, mg = M / groups_;
    Dims shape{N, M};
    for (int64_t o : win.out) shape.push_back(o);
    Tensor y(ElemType::Int32, shape);

    const int64_t rows = C * K;
    const int64_t tile =
        std::clamp<int64_t>(kColBudget / std::max<int64_t>(1, rows), 1, std::max<int64_t>(P, 1));
    std::vector<double> col(static_cast<size_t>(rows * tile)), out(static_cast<size_t>(M * tile));
    std::vector<int64_t> a_off(static_cast<size_t>(groups_)), b_off(static_cast<size_t>(groups_));
    for (int64_t n = 0; n < N; ++n) {
      int32_t* yn = y.data<int32_t>() + n * M * P;
      for (int64_t p0 = 0; p0 < P; p0 += tile) {
        const int64_t p1 = std::min(P, p0 + tile), cols = p1 - p0;
        kernels::im2col(xd.data() + n * C * in_numel, C, win, p0, p1, col.data(), io.pool());
        for (int64_t g = 0; g < groups_; ++g) {
          a_off[static_cast<size_t>(g)] = g * mg * cg * K;
          b_off[static_cast<size_t>(g)] = g * cg * K * cols;
        }
        kernels::batched_matmul<double>(wd.data(), col.data(), out.data(), a_off, b_off, mg, cg * K,
                                        cols, io.pool());
        for (int64_t m = 0; m < M; ++m)
          for (int64_t p = 0; p < cols; ++p)  // exact integers; keep the low 32 bits
            yn[m * P + p0 + p] =
                static_cast<int32_t>(static_cast<int64_t>(out[static_cast<size_t>(m * cols + p)]));
      }
    }
    io.set_output(0, std::move(y));
  }

 private:
  kernels::WindowAttrs attrs_;
  int64_t groups_;
  std::unique_ptr<const PreparedFilter> prepared_;  // null: w and its zero point read per run
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<ConvInteger>(ctx); }

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Int32, conv_output_shape(ctx)); }

}  // namespace

const OpDef& def_ConvInteger() {
  static const OpDef def{
      "",
      "ConvInteger",
      {10},
      2,
      4,
      1,
      1,
      make,
      infer,
      {{10,
        "x: T1, w: T2, x_zero_point?: T1, w_zero_point?: T2 -> y: T3; T1 = int8 uint8, T2 = int8 "
        "uint8, T3 = int32; auto_pad: string = NOTSET, dilations: ints?, group: int = 1, "
        "kernel_shape: ints?, pads: ints?, strides: ints?"}}};
  return def;
}

}  // namespace bough::ops
