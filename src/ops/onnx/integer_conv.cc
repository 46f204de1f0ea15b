#include "ops/onnx/integer_conv.h"

#include <algorithm>
#include <string>

#include "kernels/conv_im2col.h"
#include "kernels/matmul.h"
#include "ops/constant_use.h"
#include "ops/onnx/quantize_common.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops::integer_conv {

namespace {
namespace integer_conv_op {

using quant::bad;

// Elements of the column matrix built at once; larger outputs are done in column tiles.
constexpr int64_t kColBudget = int64_t{1} << 22;

// Shifted 8-bit values lie in [-255, 255], so a product is at most 65,025 in size and a sum of
// up to 256 of them stays below 2^24: every partial sum a float matrix product forms over
// that many terms is an integer float holds exactly. Longer sums are cut into such chunks
// and the chunks' results added in double.
constexpr int64_t kExactFloatTerms = 256;

bool is_8bit(ElemType t) { return t == ElemType::UInt8 || t == ElemType::Int8; }

}  // namespace integer_conv_op
}  // namespace

std::vector<float> shifted(const char* op, const Tensor& x, const Tensor* zero_point,
                           bool per_channel, const char* name) {
  using namespace integer_conv_op;
  if (!is_8bit(x.type()))
    bad(std::string(op) + ": inputs must be int8 or uint8, got " + quant::type_name(x.type()));
  std::vector<float> out(static_cast<size_t>(x.numel()));
  std::vector<double> z{0.0};
  if (zero_point) {
    const Tensor& zp = *zero_point;
    if (zp.type() != x.type())
      bad(std::string(op) + ": " + name + " is " + quant::type_name(zp.type()) +
          " but its input is " + quant::type_name(x.type()));
    const bool one = zp.numel() == 1;
    if (!one && !(per_channel && x.rank() >= 1 && zp.rank() == 1 && zp.dim(0) == x.dim(0)))
      bad(std::string(op) + ": " + name + " of shape " + shape_string(zp.shape()) +
          " must be a scalar" + (per_channel ? " or have one value per output channel" : ""));
    z = quant::values(zp);
  }
  // Runs of `per` elements share a zero point (all of x when there is one).
  const int64_t n = x.numel();
  const int64_t per = z.size() <= 1 ? n : n / static_cast<int64_t>(z.size());
  auto shift = [&](const auto* src) {
    for (int64_t r = 0; r * per < n; ++r) {
      const float zr = static_cast<float>(z[static_cast<size_t>(r)]);
      for (int64_t i = r * per; i < (r + 1) * per; ++i)
        out[static_cast<size_t>(i)] = static_cast<float>(src[i]) - zr;
    }
  };
  if (x.type() == ElemType::UInt8)
    shift(x.data<uint8_t>());
  else
    shift(x.data<int8_t>());
  return out;
}

namespace {
namespace integer_conv_op {

// w - zero_point, cut into chunks (see Filter).
Filter make_filter(const char* op, const Tensor& w, const Tensor* zero_point) {
  const std::vector<float> values = shifted(op, w, zero_point, true, "w_zero_point");
  Filter f;
  f.shape = w.shape();
  const int64_t m = w.rank() ? w.dim(0) : 1;
  const int64_t per_channel = m ? w.numel() / m : 0;
  f.chunks.reserve(values.size());
  for (int64_t k0 = 0; k0 < per_channel; k0 += kExactFloatTerms) {
    const int64_t kc = std::min(kExactFloatTerms, per_channel - k0);
    for (int64_t o = 0; o < m; ++o) {
      const float* row = values.data() + o * per_channel + k0;
      f.chunks.insert(f.chunks.end(), row, row + kc);
    }
  }
  return f;
}

// The filter, when w and its zero point are constant and valid (else left to the run, which
// reports what is wrong).
std::unique_ptr<const Filter> prepare(const BuildContext& ctx, const char* op, size_t w_input,
                                      size_t zp_input) {
  const Tensor* w = ctx.constant_input(w_input);
  const bool has_zp = ctx.node.inputs.size() > zp_input && ctx.node.inputs[zp_input];
  const Tensor* zp = has_zp ? ctx.constant_input(zp_input) : nullptr;
  if (!w || (has_zp && !zp) || w->rank() < 1) return nullptr;
  try {
    auto f = std::make_unique<Filter>(make_filter(op, *w, zp));
    ctx.count_prepared(zp ? 2 : 1);
    consume_constant_input(ctx, w_input);  // Setup::filter reads only the prepared form
    if (zp) consume_constant_input(ctx, zp_input);
    return f;
  } catch (const Error&) {
    return nullptr;
  }
}

}  // namespace integer_conv_op
}  // namespace

Setup::Setup(const BuildContext& ctx, const char* op, size_t w_input, size_t zp_input)
    : op_(op),
      w_input_(w_input),
      zp_input_(zp_input),
      attrs_(read_window_attrs(ctx)),
      groups_(ctx.attr_int("group", 1)),
      prepared_(integer_conv_op::prepare(ctx, op, w_input, zp_input)) {
  if (groups_ < 1) ctx.invalid("group must be positive");
}

const Filter& Setup::filter(const KernelIO& io, Filter& scratch) const {
  using namespace integer_conv_op;
  if (prepared_) return *prepared_;
  scratch = make_filter(op_, io.input(w_input_),
                        io.has_input(zp_input_) ? &io.input(zp_input_) : nullptr);
  return scratch;
}

Conv::Conv(const char* op, const Dims& xs, const Dims& ws, const kernels::WindowAttrs& attrs,
           int64_t groups)
    : groups_(groups) {
  using namespace integer_conv_op;
  if (xs.size() < 3)
    bad(std::string(op) + ": x must have at least 3 dimensions, got " + shape_string(xs));
  if (ws.size() != xs.size())
    bad(std::string(op) + ": w " + shape_string(ws) + " does not match x " + shape_string(xs));
  if (xs[1] != ws[1] * groups)
    bad(std::string(op) + ": x has " + std::to_string(xs[1]) + " channels, w expects " +
        std::to_string(ws[1] * groups));
  if (ws[0] % groups != 0) bad(std::string(op) + ": output channels are not divisible by group");
  const std::span<const int64_t> x_span = xs, w_span = ws;
  window_ = kernels::resolve_window(attrs, x_span.subspan(2), w_span.subspan(2));
  batch_ = xs[0], channels_ = xs[1], out_channels_ = ws[0];
  out_shape_ = Dims{batch_, out_channels_};
  for (int64_t o : window_.out) out_shape_.push_back(o);
}

void Conv::run(const std::vector<float>& x, const Filter& w, util::ThreadPool& pool,
               const TileFn& store) const {
  using namespace integer_conv_op;
  const int64_t C = channels_, M = out_channels_;
  const int64_t K = window_.kernel_numel(), P = window_.out_numel(), in_numel = window_.in_numel();
  const int64_t cg = C / groups_, mg = M / groups_, terms = cg * K;
  const int64_t rows = C * K;
  const int64_t tile =
      std::clamp<int64_t>(kColBudget / std::max<int64_t>(1, rows), 1, std::max<int64_t>(P, 1));
  // im2col writes every element of the column matrix: it needs no zeroing.
  const std::unique_ptr<float[]> col(new float[static_cast<size_t>(rows * tile)]);
  std::vector<float> part(static_cast<size_t>(M * tile));
  std::vector<double> sums(static_cast<size_t>(M * tile));
  std::vector<int64_t> a_off(static_cast<size_t>(groups_)), b_off(static_cast<size_t>(groups_));
  for (int64_t n = 0; n < batch_; ++n) {
    for (int64_t p0 = 0; p0 < P; p0 += tile) {
      const int64_t cols = std::min(P, p0 + tile) - p0;
      kernels::im2col(x.data() + n * C * in_numel, C, window_, p0, p0 + cols, col.get(), pool);
      std::fill(sums.begin(), sums.end(), 0.0);
      const float* chunk = w.chunks.data();
      for (int64_t k0 = 0; k0 < terms; k0 += kExactFloatTerms) {
        const int64_t kc = std::min(kExactFloatTerms, terms - k0);
        for (int64_t g = 0; g < groups_; ++g) {
          a_off[static_cast<size_t>(g)] = g * mg * kc;
          b_off[static_cast<size_t>(g)] = (g * terms + k0) * cols;
        }
        kernels::batched_matmul<float>(chunk, col.get(), part.data(), a_off, b_off, mg, kc, cols,
                                       pool);
        for (int64_t i = 0; i < M * cols; ++i)
          sums[static_cast<size_t>(i)] += part[static_cast<size_t>(i)];
        chunk += M * kc;
      }
      store(n, p0, cols, sums.data());
    }
  }
}

}  // namespace bough::ops::integer_conv
