// com.microsoft RotaryEmbedding-1: rotates the first rotary_embedding_dim (default: all) of
// each head's dims by the angles of its position. input is (B, S, N * H) or (B, N, S, H);
// position_ids (B, S), or one offset o (shape (1)) giving position o + s; cos_cache and
// sin_cache (max positions, rotary_dim / 2). For pair (i, i + rotary_dim / 2) (consecutive
// pairs (2i, 2i + 1) when interleaved) with angle c = cos_cache[pos][i], s = sin_cache[pos][i]:
//   out[a] = x[a] c - x[b] s,  out[b] = x[b] c + x[a] s.
// Dims past rotary_dim pass through. num_heads is needed for a 3-D input unless
// rotary_embedding_dim is 0 (then H is twice the caches' width). float16/bfloat16 run in float.
#include <string>

#include "kernels/elementwise_loops.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace rotary_embedding_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "RotaryEmbedding: " + message);
}

struct Layout {
  int64_t batch, seq, heads, head_size;
  bool heads_first;  // (B, N, S, H) rather than (B, S, N, H)
};

class RotaryEmbedding : public Kernel {
 public:
  RotaryEmbedding(bool interleaved, int64_t num_heads, int64_t rotary_dim)
      : interleaved_(interleaved), num_heads_(num_heads), rotary_dim_(rotary_dim) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& positions = io.input(1);
    const Tensor& cos = io.input(2);
    const Tensor& sin = io.input(3);
    if (cos.rank() != 2 || sin.shape() != cos.shape())
      bad("cos_cache and sin_cache must be 2-D of one shape, got " + shape_string(cos.shape()) +
          " and " + shape_string(sin.shape()));
    if (cos.type() != x.type() || sin.type() != x.type())
      bad("the caches' element type differs from the input's");
    const int64_t half = cos.dim(1), max_pos = cos.dim(0);
    const Layout l = layout(x, half);
    const int64_t rotary = rotary_dim_ > 0 ? rotary_dim_ : 2 * half;
    if (rotary != 2 * half || rotary > l.head_size)
      bad("rotary dim " + std::to_string(rotary) + " does not fit the caches' width " +
          std::to_string(half) + " and head size " + std::to_string(l.head_size));
    const std::vector<int64_t> pos = position_table(positions, l, max_pos);
    const Tensor xw = kernels::widen(x), cw = kernels::widen(cos), sw = kernels::widen(sin);
    Tensor y(xw.type(), xw.shape());
    if (xw.type() != ElemType::Float) bad("input must be float, float16 or bfloat16");
    const float* px = xw.data<float>();
    const float* pc = cw.data<float>();
    const float* ps = sw.data<float>();
    float* py = y.data<float>();
    const int64_t rows = l.batch * l.seq * l.heads;
    io.pool().parallel_for(
        rows, util::grain_for(l.head_size * kernels::kElementWork), [&](int64_t lo, int64_t hi) {
          for (int64_t r = lo; r < hi; ++r) {
            // r enumerates (b, s, n); the row's offset depends on the layout.
            const int64_t n = r % l.heads, s = (r / l.heads) % l.seq, b = r / (l.heads * l.seq);
            const int64_t row =
                l.heads_first ? (b * l.heads + n) * l.seq + s : (b * l.seq + s) * l.heads + n;
            const float* in = px + row * l.head_size;
            float* out = py + row * l.head_size;
            const float* c = pc + pos[static_cast<size_t>(b * l.seq + s)] * half;
            const float* sn = ps + pos[static_cast<size_t>(b * l.seq + s)] * half;
            for (int64_t i = 0; i < half; ++i) {
              const int64_t a = interleaved_ ? 2 * i : i, o = interleaved_ ? 2 * i + 1 : i + half;
              out[a] = in[a] * c[i] - in[o] * sn[i];
              out[o] = in[o] * c[i] + in[a] * sn[i];
            }
            for (int64_t i = rotary; i < l.head_size; ++i) out[i] = in[i];
          }
        });
    io.set_output(0, kernels::narrow_to(y, x.type()));
  }

 private:
  Layout layout(const Tensor& x, int64_t half) const {
    if (x.rank() == 4) return {x.dim(0), x.dim(2), x.dim(1), x.dim(3), true};
    if (x.rank() != 3) bad("input must be 3-D or 4-D, got " + shape_string(x.shape()));
    int64_t heads = num_heads_;
    if (heads == 0) {
      if (rotary_dim_ > 0) bad("a 3-D input with rotary_embedding_dim needs num_heads");
      heads = half > 0 ? x.dim(2) / (2 * half) : 0;
    }
    if (heads <= 0 || x.dim(2) % heads != 0)
      bad("hidden size " + std::to_string(x.dim(2)) + " is not a multiple of the head count");
    return {x.dim(0), x.dim(1), heads, x.dim(2) / heads, false};
  }

  // The position of each (b, s), checked against the caches' length.
  static std::vector<int64_t> position_table(const Tensor& p, const Layout& l, int64_t max_pos) {
    if (p.type() != ElemType::Int64) bad("position_ids must be int64");
    const int64_t* v = p.data<int64_t>();
    std::vector<int64_t> pos(static_cast<size_t>(l.batch * l.seq));
    const bool offset = p.numel() == 1 && p.rank() <= 1;
    if (!offset && !(p.rank() == 2 && p.dim(0) == l.batch && p.dim(1) == l.seq))
      bad("position_ids of shape " + shape_string(p.shape()) + " is neither (1) nor (" +
          std::to_string(l.batch) + ", " + std::to_string(l.seq) + ")");
    for (int64_t i = 0; i < l.batch * l.seq; ++i) {
      const int64_t at = offset ? v[0] + i % l.seq : v[i];
      if (at < 0 || at >= max_pos)
        bad("position " + std::to_string(at) + " is outside the caches' " +
            std::to_string(max_pos) + " positions");
      pos[static_cast<size_t>(i)] = at;
    }
    return pos;
  }

  bool interleaved_;
  int64_t num_heads_, rotary_dim_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t heads = ctx.attr_int("num_heads", 0),
                rotary = ctx.attr_int("rotary_embedding_dim", 0);
  if (heads < 0 || rotary < 0) ctx.invalid("num_heads and rotary_embedding_dim cannot be negative");
  if (ctx.attr_int("is_packed_batching", 0) != 0)
    ctx.invalid("is_packed_batching (ragged batches) is not supported");
  return std::make_unique<RotaryEmbedding>(ctx.attr_int("interleaved", 0) != 0, heads, rotary);
}

constexpr SignatureText kRows[] = {
    {1,
     "input: T, position_ids: M, cos_cache: T, sin_cache: T -> output: T; T = float float16 "
     "bfloat16, M = int64; interleaved: int = 0, is_packed_batching: int = 0, num_heads: int = "
     "0, rotary_embedding_dim: int = 0, scale: float = 1.0"}};

}  // namespace rotary_embedding_op
}  // namespace

OpDef def_MsRotaryEmbedding() {
  using namespace rotary_embedding_op;
  return def_from_rows("com.microsoft", "RotaryEmbedding", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
