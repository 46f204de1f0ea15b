// com.microsoft FusedMatMul-1: Y = alpha * op(A) · op(B), numpy's matmul after each operand
// is rearranged: transBatch moves its first dimension behind the batch dimensions
// ([d0, d1, .., d(r-2), d(r-1)] -> [d1, .., d(r-2), d0, d(r-1)], rank 3 or more), then trans
// swaps its last two dimensions (rank 2 or more). The MatMul that ONNX Runtime's optimizer
// fuses a Transpose and a Mul into (and bough's transpose-gemm pass a Transpose of B). A
// constant 2-D float B is scaled by alpha and packed for the GEMM once, when the plan is
// built, straight from its own layout when transB is set.
// bough's own optional third input `bias` (ONNX Runtime's operator has two inputs) is added
// to the product, broadcast to Y's shape unidirectionally: Y = alpha * op(A) · op(B) + bias,
// each rounded as a FusedMatMul then an Add would (the matmul-add-bias pass writes it for a
// MatMul with a bias Add). A bias of one row goes into the packed GEMM's store.
#include <numeric>
#include <optional>
#include <vector>

#include "kernels/broadcast.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "kernels/through_float.h"
#include "ops/constant_use.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace fused_matmul_op {

// The permutation of an operand of rank `rank` (identity when nothing moves).
std::vector<int64_t> operand_perm(size_t rank, bool trans_batch, bool trans) {
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  if (trans_batch && rank >= 3) std::rotate(perm.begin(), perm.begin() + 1, perm.end() - 1);
  if (trans && rank >= 2) std::swap(perm[rank - 2], perm[rank - 1]);
  return perm;
}

Tensor arrange(const Tensor& t, bool trans_batch, bool trans) {
  const std::vector<int64_t> perm = operand_perm(t.rank(), trans_batch, trans);
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return kernels::transpose(t, perm);
  return t;
}

// y + bias, bias broadcast to y's shape (unidirectionally: Y keeps the product's shape).
Tensor plus(const Tensor& y, const Tensor& bias, KernelIO& io) {
  if (bias.type() != y.type() || !kernels::broadcasts_to(bias.shape(), y.shape()))
    fail(ErrorKind::BadInput, "",
         "FusedMatMul's bias of type " + std::string(elem_name(bias.type())) + " and shape " +
             shape_string(bias.shape()) + " does not broadcast to its product of shape " +
             shape_string(y.shape()));
  auto add = [&](const Tensor& yw, const Tensor& bw) {
    return kernels::visit_float(yw.type(), "FusedMatMul", [&](auto tag) {
      using T = typename decltype(tag)::type;
      return kernels::binary_map<T, T, T>(yw, bw, yw.type(), io.pool(),
                                          [](T u, T v) { return static_cast<T>(u + v); });
    });
  };
  return kernels::through_float(add, y, bias);
}

Tensor scaled(Tensor y, float alpha, util::ThreadPool& pool) {
  if (alpha == 1.0f) return y;
  auto scale = [&](const Tensor& yw) {
    Tensor out(yw.type(), yw.shape());
    kernels::visit_float(yw.type(), "FusedMatMul", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = yw.data<T>();
      T* dst = out.data<T>();
      const auto a = static_cast<T>(alpha);
      pool.parallel_for(yw.numel(), util::grain_for(kernels::kElementWork),
                        [&](int64_t lo, int64_t hi) {
                          for (int64_t i = lo; i < hi; ++i) dst[i] = a * src[i];
                        });
    });
    return out;
  };
  return kernels::through_float(scale, y);
}

class FusedMatMul : public Kernel {
 public:
  FusedMatMul(float alpha, bool trans_a, bool trans_b, bool batch_a, bool batch_b,
              std::optional<kernels::PackedB> packed_b)
      : alpha_(alpha),
        trans_a_(trans_a),
        trans_b_(trans_b),
        batch_a_(batch_a),
        batch_b_(batch_b),
        packed_b_(std::move(packed_b)) {}

  void run(KernelIO& io) override {
    const Tensor* bias = io.has_input(2) && !io.value(2).is_none() ? &io.input(2) : nullptr;
    // B itself is gone once packed (consume_constant_input): matmul_packed reports mismatches.
    // An A that stays as it is goes straight to it (the MatMuls transpose-gemm rewrites), and
    // a bias of one row with it.
    if (packed_b_ && !batch_a_ && !trans_a_) {
      const Tensor& a = io.input(0);
      std::vector<float> repeated;
      const float* row =
          bias ? kernels::row_bias(*bias, packed_b_->n(), a.rank(), repeated) : nullptr;
      if (!bias || row)
        return io.set_output(0, kernels::matmul_packed(a, *packed_b_, io.pool(), row));
      return io.set_output(0, plus(kernels::matmul_packed(a, *packed_b_, io.pool()), *bias, io));
    }
    const Tensor a = arrange(io.input(0), batch_a_, trans_a_);
    Tensor y;
    if (packed_b_) {
      y = kernels::matmul_packed(a, *packed_b_, io.pool());
    } else {
      const Tensor b = arrange(io.input(1), batch_b_, trans_b_);
      y = scaled(kernels::matmul(a, b, io.pool()), alpha_, io.pool());
    }
    io.set_output(0, bias ? plus(y, *bias, io) : std::move(y));
  }

 private:
  float alpha_;
  bool trans_a_, trans_b_, batch_a_, batch_b_;
  std::optional<kernels::PackedB> packed_b_;  // alpha * op(B) for a constant 2-D float B
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  const bool trans_b = ctx.attr_int("transB", 0);
  // A constant 2-D float B (a weight) is packed once, alpha folded in; transBatchB does not
  // move anything in 2-D.
  std::optional<kernels::PackedB> packed_b;
  const Tensor* b = ctx.constant_input(1);
  if (b && b->type() == ElemType::Float && b->rank() == 2) {
    // A scaled copy only when alpha scales: the copy would add a weight's size to the peak.
    std::vector<float> w;
    if (alpha != 1.0f) {
      w.assign(b->data<float>(), b->data<float>() + b->numel());
      for (float& v : w) v *= alpha;
    }
    packed_b.emplace(w.empty() ? b->data<float>() : w.data(), trans_b ? b->dim(1) : b->dim(0),
                     trans_b ? b->dim(0) : b->dim(1), trans_b);
    ctx.count_prepared();
    consume_constant_input(ctx, 1);
  }
  return std::make_unique<FusedMatMul>(alpha, ctx.attr_int("transA", 0), trans_b,
                                       ctx.attr_int("transBatchA", 0),
                                       ctx.attr_int("transBatchB", 0), std::move(packed_b));
}

ir::Shape arranged_shape(const ir::Shape& s, bool trans_batch, bool trans) {
  if (!s.rank_known) return s;
  ir::Shape out = s;
  const std::vector<int64_t> perm = operand_perm(s.dims.size(), trans_batch, trans);
  for (size_t i = 0; i < perm.size(); ++i) out.dims[i] = s.dims[static_cast<size_t>(perm[i])];
  return out;
}

void infer(InferContext& ctx) {
  const ir::Shape a =
      arranged_shape(ctx.input_shape(0), ctx.attr_int("transBatchA", 0), ctx.attr_int("transA", 0));
  const ir::Shape b =
      arranged_shape(ctx.input_shape(1), ctx.attr_int("transBatchB", 0), ctx.attr_int("transB", 0));
  ctx.set_output_tensor(0, ctx.input_elem(0), matmul_shape(ctx, a, b));
}

constexpr SignatureText kRows[] = {
    {1,
     "A: T, B: T, bias?: T -> Y: T; T = float float16 double bfloat16; alpha: float = 1.0, "
     "transA: int = 0, transB: int = 0, transBatchA: int = 0, transBatchB: int = 0"}};

}  // namespace fused_matmul_op
}  // namespace

OpDef def_MsFusedMatMul() {
  using namespace fused_matmul_op;
  return def_from_rows("com.microsoft", "FusedMatMul", make, infer, kRows);
}

}  // namespace bough::ops
