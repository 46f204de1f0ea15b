// com.microsoft MatMulNBits-1: Y = A · Wᵀ (+ bias) with W (N x K) stored block-quantized, as
// int4 LLM exports carry their weights. B is (N, k_blocks, blob) bytes, k_blocks =
// ceil(K / block_size), blob = block_size * bits / 8: element k of row n is the `bits`-bit
// field at bit (k % block_size) * bits of block k / block_size, low bits first. Each block has
// a scale (scales, N * k_blocks) and a zero point: the same packed fields in uint8
// (N rows of ceil(k_blocks * bits / 8) bytes), values of A's type, or 2^(bits-1) when absent;
// W[n][k] = (q - zero_point) * scale. The weights stay packed: a constant B (with its scales
// and zero points) is rearranged once, when the plan is built, into the layout of
// kernels/matmul_nbits.h, whose kernels decode it while multiplying; a fed B is rearranged on
// every run. Products are computed in float whatever `accuracy_level` asks (ORT may quantize A
// to int8 at level 4; float is never less accurate). g_idx (act-order groups) is refused.
#include <memory>
#include <string>

#include "kernels/matmul_nbits.h"
#include "kernels/through_float.h"
#include "ops/constant_use.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mat_mul_n_bits_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "MatMulNBits: " + message);
}

// Checks B, scales and zero points against the shape and rearranges them into `w`.
void prepare(const kernels::NBitsShape& g, const Tensor& b, const Tensor& scales,
             const Tensor* zero_points, kernels::NBitsWeights& w) {
  const int64_t blocks = g.blocks(), blob = g.blob();
  if (b.type() != ElemType::UInt8 || b.numel() != g.n * blocks * blob)
    bad("B must be uint8 with N * k_blocks * blob = " + std::to_string(g.n * blocks * blob) +
        " elements, got " + shape_string(b.shape()));
  const Tensor s = kernels::widen(scales);
  if (s.type() != ElemType::Float || s.numel() != g.n * blocks)
    bad("scales must hold N * k_blocks = " + std::to_string(g.n * blocks) + " values");
  const int64_t zp_row = (blocks * g.bits + 7) / 8;
  Tensor zf;
  if (zero_points && zero_points->type() == ElemType::UInt8) {
    if (zero_points->numel() != g.n * zp_row)
      bad("packed zero_points must hold " + std::to_string(g.n * zp_row) + " bytes");
  } else if (zero_points) {
    zf = kernels::widen(*zero_points);
    if (zf.type() != ElemType::Float || zf.numel() != g.n * blocks)
      bad("zero_points of A's type must hold N * k_blocks values");
  }
  const bool packed_zp = zero_points && !zf.defined();
  w.prepare(g, b.data<uint8_t>(), s.data<float>(),
            packed_zp ? zero_points->data<uint8_t>() : nullptr,
            zf.defined() ? zf.data<float>() : nullptr);
}

class MatMulNBits : public Kernel {
 public:
  MatMulNBits(kernels::NBitsShape g, std::unique_ptr<kernels::NBitsWeights> prepared)
      : g_(g), prepared_(std::move(prepared)) {}

  void run(KernelIO& io) override {
    if (io.has_input(4) && io.value(4).is_tensor()) bad("g_idx is not supported");
    const Tensor& a_in = io.input(0);
    if (a_in.rank() < 1 || a_in.shape().back() != g_.k)
      bad("A's last dimension must be K = " + std::to_string(g_.k) + ", got " +
          shape_string(a_in.shape()));
    if (!prepared_)
      prepare(g_, io.input(1), io.input(2), io.has_input(3) ? &io.input(3) : nullptr, scratch_);
    const Tensor a = kernels::widen(a_in);
    Dims shape = a.shape();
    shape[shape.size() - 1] = g_.n;
    Tensor y(ElemType::Float, shape);
    kernels::matmul_nbits(a.data<float>(), a.numel() / g_.k, prepared_ ? *prepared_ : scratch_,
                          y.data<float>(), io.pool());
    if (io.has_input(5)) add_bias(y, kernels::widen(io.input(5)));
    io.set_output(0, kernels::narrow_to(y, a_in.type()));
  }

 private:
  void add_bias(Tensor& y, const Tensor& bias) const {
    if (bias.numel() != g_.n) bad("bias must hold N = " + std::to_string(g_.n) + " values");
    float* py = y.data<float>();
    const float* pb = bias.data<float>();
    for (int64_t i = 0; i < y.numel(); ++i) py[i] += pb[i % g_.n];
  }

  kernels::NBitsShape g_;
  std::unique_ptr<kernels::NBitsWeights> prepared_;
  kernels::NBitsWeights scratch_;  // a fed B, rearranged on each run
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const kernels::NBitsShape g{ctx.attr_int("K", 0), ctx.attr_int("N", 0), ctx.attr_int("bits", 4),
                              ctx.attr_int("block_size", 0)};
  if (g.k <= 0 || g.n <= 0) ctx.invalid("K and N must be positive");
  if (g.bits != 2 && g.bits != 4 && g.bits != 8) ctx.invalid("bits must be 2, 4 or 8");
  if (g.block < 16 || (g.block & (g.block - 1)) != 0)
    ctx.invalid("block_size must be a power of 2 and at least 16");
  std::unique_ptr<kernels::NBitsWeights> prepared;
  const Tensor* b = ctx.constant_input(1);
  const Tensor* scales = ctx.constant_input(2);
  const bool has_zero_points = ctx.node.inputs.size() > 3 && ctx.node.inputs[3];
  const bool zp_constant = !has_zero_points || ctx.constant_input(3);
  if (b && scales && zp_constant) {
    prepared = std::make_unique<kernels::NBitsWeights>();
    prepare(g, *b, *scales, ctx.constant_input(3), *prepared);
    ctx.count_prepared();
    for (size_t i = 1; i <= 3; ++i) consume_constant_input(ctx, i);  // never read again
  }
  return std::make_unique<MatMulNBits>(g, std::move(prepared));
}

// Y is A's shape with its last dimension N.
void infer(InferContext& ctx) {
  ir::Shape y = ctx.input_shape(0);
  if (y.rank_known) {
    if (y.dims.empty()) ctx.invalid("A cannot be a scalar");
    y.dims.back() = ir::Dim::known(ctx.attr_int("N", 0));
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), y);
}

constexpr SignatureText kRows[] = {
    {1,
     "A: T1, B: T2, scales: T1, zero_points?: T3, g_idx?: T4, bias?: T1 -> Y: T1; T1 = float "
     "float16 bfloat16, T2 = uint8 int32, T3 = uint8 int32 float16 float bfloat16, T4 = int32; "
     "K: int, N: int, accuracy_level: int = 0, bits: int = 4, block_size: int"}};

}  // namespace mat_mul_n_bits_op
}  // namespace

OpDef def_MsMatMulNBits() {
  using namespace mat_mul_n_bits_op;
  return def_from_rows("com.microsoft", "MatMulNBits", make, infer, kRows);
}

}  // namespace bough::ops
